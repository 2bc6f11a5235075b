#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingRuntime
import BuntingStorage

/// Where `bunting serve` keeps its state: the store in a locked storage
/// directory, or memory — by choice (`--storage :memory:`) or because the
/// disk cannot be used, in which case the server still serves and says why.
///
/// Opened before the server starts, on the thread that then runs the event
/// loop (the store's owner): a directory or database another server holds
/// refuses the start instead of being found out later.
final class ServeStorage {
    let store: any Store
    /// What subscribers are told (see `Engine.reportStorageProblem`).
    let problem: String?
    /// Held for as long as the server runs; nil in memory.
    private let directory: StorageDirectory?

    private init(store: any Store, problem: String?, directory: StorageDirectory?) {
        self.store = store
        self.problem = problem
        self.directory = directory
    }

    /// Makes, locks and opens the storage named by `--storage` (or the
    /// default). Fails only when another server holds it: two servers on one
    /// directory are refused rather than left to overwrite each other's state.
    static func open(_ choice: String?) -> Result<ServeStorage, StorageRefusal> {
        if choice == ":memory:" { return .success(ServeStorage(store: MemoryStore(), problem: nil, directory: nil)) }
        guard let path = choice ?? StorageDirectory.defaultPath(environment: environment) else {
            return .success(inMemory(because: "no storage directory: neither XDG_STATE_HOME nor HOME is set"))
        }
        let directory: StorageDirectory
        do {
            directory = try StorageDirectory(path: path)
        } catch {
            switch error {
            case .inUse(let path, let pid):
                return .failure(refusal(path, holder: pid.map { " (pid \($0))" } ?? ""))
            case .unusable(let message):
                return .success(inMemory(because: message))
            }
        }
        do {
            // A file not closed cleanly is checked once the first requests are answered (`makeOwedCheck`).
            let opened = try directory.openStore(deferringCheck: true)
            log.info("storage: \(opened.store.path)")
            return .success(ServeStorage(store: opened.store, problem: opened.damage?.message, directory: directory))
        } catch {
            if error.inUse { return .failure(refusal(path, holder: " (\(error.message))")) }
            return .success(inMemory(because: error.message))
        }
    }

    /// Where notes of definitions documents that loaded are kept by default:
    /// beside the store, none in memory.
    var knownDocumentsDirectory: String? {
        directory.map { "\($0.path)/known-definitions" }
    }

    /// Lets the store copy its write-ahead log into the database file once
    /// the server pauses, rather than inside the commit of a large change
    /// (see `Checkpoints`). `loop` is the store's owner.
    func deferCheckpoints(on loop: EventLoop) {
        (store as? SQLiteStore)?.deferCheckpoints(on: loop)
    }

    /// Makes the full check a file not closed cleanly owes, on `loop` (the
    /// store's owner) once the first requests are answered: damage it finds
    /// is met as damage met while serving (README, Durability).
    func makeOwedCheck(on loop: EventLoop) {
        guard let store = store as? SQLiteStore, store.owesCheck else { return }
        ServeCommand.afterFirstReplies(on: loop) { store.makeOwedCheck() }
    }

    /// Lets the store forget users as `retention` says, sweeping on `loop`
    /// (the store's owner) as the server starts and then hourly.
    func forgetUsers(_ retention: UserRetention, on loop: EventLoop) {
        (store as? SQLiteStore)?.forgetUsers(retention, on: loop)
    }

    /// Closes the store, at shutdown; the directory's lock goes with the process.
    func close() {
        (store as? SQLiteStore)?.close()
        withExtendedLifetime(directory) {}
    }

    private static func refusal(_ path: String, holder: String) -> StorageRefusal {
        StorageRefusal(
            message: "storage directory \(path) is in use by another bunting serve\(holder); "
                + "stop that one, or give this one another --storage (or --storage :memory:)")
    }

    private static func inMemory(because reason: String) -> ServeStorage {
        ServeStorage(store: MemoryStore(), problem: unavailable(reason), directory: nil)
    }

    /// Logs that the disk cannot be used and returns what subscribers are told.
    private static func unavailable(_ reason: String) -> String {
        log.error("storage: \(reason); keeping state in memory only")
        return "local storage is unavailable (\(reason)); state is kept in memory only and is lost at exit"
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// Why `bunting serve` will not start on the storage it was given.
struct StorageRefusal: Error {
    let message: String
}
