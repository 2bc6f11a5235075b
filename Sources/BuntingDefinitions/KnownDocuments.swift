#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingJSON
import BuntingRuntime

/// Notes, kept in a directory, of the documents this build has loaded: a
/// document's digest and size, and the problems it loaded with. A document
/// with a note is known to load, so a server started on it again can serve
/// at once and check and compile it in the background (`DeferredDefinitions`).
///
/// A note is a small JSON file named by the document's digest, size and
/// strictness, written whole under a temporary name and renamed, so that a
/// reader finds a complete note or none. A note of another build (version,
/// size and modification time of the executable) does not count: a newer
/// loader may refuse what an older one took. Anything unreadable is no note.
/// The directory keeps the `limit` most recent notes.
public final class KnownDocuments: Sendable {
    public let directory: String
    let build: String
    let limit: Int

    static let format = 1
    /// Notes are small; a larger file is not one.
    static let maxNoteBytes = 1 << 20
    /// At most this many problems are noted; a document with more is not.
    static let maxProblems = 1000

    public init(directory: String, build: String = KnownDocuments.currentBuild, limit: Int = 64) {
        self.directory = directory
        self.build = build
        self.limit = limit
    }

    /// This executable, as far as a note needs to tell builds apart.
    public static let currentBuild: String = {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return BuntingVersion.current }
        return "\(BuntingVersion.current) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }()

    /// The problems the document loaded with, when it has a note.
    func problems(of bytes: [UInt8], digest: UInt64, strict: Bool) -> [DefinitionsProblem]? {
        guard case .success(let text) = FileDescriptorIO.readRegularFile(path(bytes.count, digest, strict), limit: Self.maxNoteBytes),
              let note = try? JSON.parse(text), note["format"]?.integerValue == Int64(Self.format),
              note["build"]?.stringValue == build, note["bytes"]?.integerValue == Int64(bytes.count),
              note["digest"]?.stringValue == Self.hex(digest), note["strict"]?.boolValue == strict,
              let listed = note["problems"]?.arrayValue
        else { return nil }
        var problems: [DefinitionsProblem] = []
        for entry in listed {
            guard let pointer = entry["pointer"]?.stringValue, let line = entry["line"]?.integerValue.flatMap(Int.init(exactly:)),
                  let column = entry["column"]?.integerValue.flatMap(Int.init(exactly:)), let message = entry["message"]?.stringValue
            else { return nil }
            problems.append(DefinitionsProblem(pointer: pointer, line: line, column: column, message: message))
        }
        return problems
    }

    /// Notes that the document loaded with `problems`. Best effort: a
    /// directory that cannot be written only means no note.
    func remember(_ bytes: [UInt8], digest: UInt64, strict: Bool, problems: [DefinitionsProblem]) {
        guard problems.count <= Self.maxProblems else { return }
        let note: JSON = .object([
            "format": .int(Self.format), "build": .string(build), "bytes": .int(bytes.count),
            "digest": .string(Self.hex(digest)), "strict": .bool(strict), "problems": .array(problems.map(\.json)),
        ])
        guard makeDirectory() else { return }
        let final = path(bytes.count, digest, strict)
        let temporary = "\(final).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let failed = FileDescriptorIO.writeAll(fd, note.encoded() + [0x0A]) != nil
        close(fd)
        guard !failed, rename(temporary, final) == 0 else {
            unlink(temporary)
            return
        }
        log.debug("noted that the definitions document \(Self.hex(digest)) loads, in \(directory)")
        prune()
    }

    /// Forgets a note found to be wrong.
    func forget(_ bytes: [UInt8], digest: UInt64, strict: Bool) {
        unlink(path(bytes.count, digest, strict))
    }

    private func path(_ size: Int, _ digest: UInt64, _ strict: Bool) -> String {
        "\(directory)/\(Self.hex(digest))-\(size)\(strict ? "-strict" : "").json"
    }

    static func hex(_ digest: UInt64) -> String {
        let digits = String(digest, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The directory, made (0700, like the storage directory) if need be.
    private func makeDirectory() -> Bool {
        if mkdir(directory, 0o700) == 0 || errno == EEXIST { return true }
        log.debug("cannot keep notes of loaded definitions in \(directory): \(String(cString: strerror(errno)))")
        return false
    }

    /// Removes the oldest notes beyond `limit`.
    private func prune() {
        guard let stream = opendir(directory) else { return }
        var notes: [(path: String, modified: Double)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".json") else { continue }
            var info = stat()
            let path = "\(directory)/\(name)"
            guard stat(path, &info) == 0 else { continue }
            notes.append((path, Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
        }
        closedir(stream)
        guard notes.count > limit else { return }
        for note in notes.sorted(by: { $0.modified < $1.modified }).prefix(notes.count - limit) { unlink(note.path) }
    }
}
