#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingRuntime
import BuntingStorage

/// Where `bunting serve` keeps its state: a locked storage directory, or
/// memory — by choice (`--storage :memory:`) or because the disk cannot be
/// used, in which case the server still serves and says why.
enum ServeStorage: Sendable {
    case memory(problem: String?)
    case directory(StorageDirectory)

    /// Makes and locks the directory named by `--storage` (or the default).
    /// Fails only when another server holds it: two servers on one directory
    /// are refused rather than left to overwrite each other's state.
    static func prepare(_ choice: String?) -> Result<ServeStorage, StorageRefusal> {
        if choice == ":memory:" { return .success(.memory(problem: nil)) }
        guard let path = choice ?? StorageDirectory.defaultPath(environment: environment) else {
            return .success(.memory(problem: unavailable("no storage directory: neither XDG_STATE_HOME nor HOME is set")))
        }
        do {
            return .success(.directory(try StorageDirectory(path: path)))
        } catch {
            switch error {
            case .inUse(let path, let pid):
                let holder = pid.map { " (pid \($0))" } ?? ""
                return .failure(StorageRefusal(
                    message: "storage directory \(path) is in use by another bunting serve\(holder); "
                        + "stop that one, or give this one another --storage (or --storage :memory:)"))
            case .unusable(let message):
                return .success(.memory(problem: unavailable(message)))
            }
        }
    }

    /// Opens the store, on the event loop that will own it. `problem` is what
    /// subscribers are told (see `Engine.reportStorageProblem`); `close` runs
    /// at shutdown.
    func open() -> (store: any Store, problem: String?, close: () -> Void) {
        switch self {
        case .memory(let problem):
            return (MemoryStore(), problem, {})
        case .directory(let directory):
            do {
                let opened = try directory.openStore()
                let store = opened.store
                log.info("storage: \(store.path)")
                let problem = opened.damage.map {
                    "local storage was damaged (\($0.problem)) and has been started afresh; the damaged file was moved to \($0.movedTo)"
                }
                return (store, problem, { store.close() })
            } catch {
                return (MemoryStore(), Self.unavailable(error.message), {})
            }
        }
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
