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
/// A note is a small JSON file named by the document's digest (SHA-256),
/// size and strictness, written whole under a temporary name and renamed,
/// so that a reader finds a complete note or none. A note of another build
/// (version, size and modification time of the executable) does not count:
/// a newer loader may refuse what an older one took. Anything unreadable is
/// no note. The directory keeps the `limit` most recent notes.
///
/// A note is believed only if it is authentic: it carries an HMAC-SHA-256
/// of its contents under a key made at random in the directory (32 bytes,
/// readable by its owner only). A note's word decides what a start does
/// before the document is checked: `--strict` serves a noted document at
/// once where it would refuse a document with any problem. So notes are
/// authenticated rather than re-validated before use (re-validating would
/// cost the load that notes exist to save): a note written by hand, copied
/// from another directory, or edited to name another document, is no note,
/// and the document is loaded in full first. The digest is SHA-256, not a
/// checksum, so that no document can be made to pass for a noted one. A
/// full load that refuses a noted document anyway (a stolen key, a bug)
/// is still found out in the background (`DeferredDefinitions`).
///
/// The directory holds notes and nothing else of anyone's: it is Bunting's
/// own (made 0700; one that is a symbolic link, another user's or writable
/// by others is not used, see `OwnedFiles`), and only files named as notes
/// are read, replaced or pruned, so that a directory named by mistake, or
/// a link planted in its place, loses no file that Bunting did not write.
public final class KnownDocuments: Sendable {
    public let directory: String
    let build: String
    let limit: Int
    /// The directory, opened once it was found to be Bunting's own; -1 when
    /// it cannot be used. Every note is reached through it.
    private let descriptor: Int32
    /// The key notes are authenticated with; nil when none can be had (no notes then).
    private let key: [UInt8]?

    /// Where notes go inside a directory the user names (`--cache-dir`),
    /// which may hold anything else of theirs.
    public static let subdirectory = "bunting-known-definitions"

    /// Format 2: SHA-256 digests and a code under the directory's key.
    static let format = 2
    /// The key's file in the directory, and its size.
    static let keyName = "notes.key"
    static let keySize = 32
    /// Notes are small; a larger file is not one.
    static let maxNoteBytes = 1 << 20
    /// At most this many problems are noted; a document with more is not.
    static let maxProblems = 1000
    /// A temporary note older than this was left by a process that died
    /// between writing and renaming it.
    static let abandonedAfter = 60.0

    /// Opens (or makes) the notes directory `directory`. One that cannot be
    /// used means no notes, and a log line saying why.
    public init(directory: String, build: String = KnownDocuments.currentBuild, limit: Int = 64) {
        self.directory = directory
        self.build = build
        self.limit = limit
        switch OwnedFiles.openPrivateDirectory(directory).flatMap({ fd in
            Self.key(in: fd).map { (fd, $0) }.mapError { failure in
                close(fd)
                return failure
            }
        }) {
        case .success(let (fd, key)):
            descriptor = fd
            self.key = key
        case .failure(let failure):
            descriptor = -1
            key = nil
            let message = "not keeping notes of loaded definitions in \(directory): \(failure.message)"
            // Refused for what it is (a link, another user's) rather than missing: worth a warning.
            if failure.errno == EPERM || failure.errno == ELOOP || failure.errno == ENOTDIR {
                log.warning(message)
            } else {
                log.debug(message)
            }
        }
    }

    /// The directory's key: read, or made at random if there is none yet
    /// (written under a temporary name and linked into place, so that of two
    /// processes making one at once, both end up with the one linked first).
    private static func key(in directory: Int32) -> Result<[UInt8], FileIOError> {
        for _ in 0..<2 {
            switch OwnedFiles.openFile(keyName, in: directory, flags: O_RDONLY) {
            case .success(let fd):
                defer { close(fd) }
                var info = stat()
                guard fstat(fd, &info) == 0, info.st_mode & 0o077 == 0 else {
                    return .failure(FileIOError(errno: EPERM, message: "\(keyName): others can read it"))
                }
                guard case .success(let key) = FileDescriptorIO.readAll(fd, limit: keySize, name: keyName),
                    key.count == keySize
                else {
                    return .failure(FileIOError(errno: EINVAL, message: "\(keyName) is not a key"))
                }
                return .success(key)
            case .failure(let failure) where failure.errno == ENOENT:
                var random = SystemRandomNumberGenerator()
                var key: [UInt8] = []
                for _ in 0..<(keySize / 8) { withUnsafeBytes(of: random.next() as UInt64) { key += $0 } }
                let temporary = "\(keyName).\(getpid()).tmp"
                unlinkat(directory, temporary, 0)
                let fd: Int32
                switch OwnedFiles.openFile(temporary, in: directory, flags: O_WRONLY | O_CREAT | O_EXCL) {
                case .success(let opened): fd = opened
                case .failure(let failure): return .failure(failure)
                }
                let written = FileDescriptorIO.writeAll(fd, key) == nil
                close(fd)
                if written { linkat(directory, temporary, directory, keyName, 0) }
                unlinkat(directory, temporary, 0)
            case .failure(let failure):
                return .failure(failure)
            }
        }
        return .failure(FileIOError(errno: EIO, message: "cannot make \(keyName)"))
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// This executable, as far as a note needs to tell builds apart.
    public static let currentBuild: String = {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return BuntingVersion.current }
        return "\(BuntingVersion.current) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }()

    /// The document's digest, as notes are named and keyed by it.
    public static func digest(of bytes: [UInt8]) -> String {
        SHA256.hex(SHA256.hash(bytes))
    }

    /// The problems the document (whose `digest` this is) loaded with,
    /// when it has an authentic note.
    func problems(of bytes: [UInt8], digest: String, strict: Bool) -> [DefinitionsProblem]? {
        guard descriptor >= 0, let key,
            case .success(let fd) = OwnedFiles.openFile(
                name(bytes.count, digest, strict), in: descriptor, flags: O_RDONLY)
        else { return nil }
        defer { close(fd) }
        guard case .success(let text) = FileDescriptorIO.readAll(fd, limit: Self.maxNoteBytes, name: directory),
            let note = try? JSON.parse(text), note["format"]?.integerValue == Int64(Self.format),
            note["build"]?.stringValue == build, note["bytes"]?.integerValue == Int64(bytes.count),
            note["digest"]?.stringValue == digest, note["strict"]?.boolValue == strict,
            let listed = note["problems"]?.arrayValue, let code = note["mac"]?.stringValue
        else { return nil }
        var problems: [DefinitionsProblem] = []
        for entry in listed {
            guard let pointer = entry["pointer"]?.stringValue,
                let line = entry["line"]?.integerValue.flatMap(Int.init(exactly:)),
                let column = entry["column"]?.integerValue.flatMap(Int.init(exactly:)),
                let message = entry["message"]?.stringValue
            else { return nil }
            problems.append(DefinitionsProblem(pointer: pointer, line: line, column: column, message: message))
        }
        // What the note says, written again as `remember` writes it, must carry the note's code.
        let body = noteBody(size: bytes.count, digest: digest, strict: strict, problems: problems)
        guard Self.sameBytes(Array(code.utf8), Array(authenticationCode(body, key: key).utf8)) else {
            log.warning("ignoring a note in \(directory) that was not written by Bunting with this directory's key")
            return nil
        }
        return problems
    }

    /// Notes that the document loaded with `problems`. Best effort: a
    /// directory that cannot be written only means no note.
    func remember(_ bytes: [UInt8], digest: String, strict: Bool, problems: [DefinitionsProblem]) {
        remember(size: bytes.count, digest: digest, strict: strict, problems: problems)
    }

    /// As `remember(_:digest:strict:problems:)`, for a document of `size` bytes whose text is gone.
    func remember(size: Int, digest: String, strict: Bool, problems: [DefinitionsProblem]) {
        guard descriptor >= 0, let key, problems.count <= Self.maxProblems else { return }
        var note = noteBody(size: size, digest: digest, strict: strict, problems: problems)
        note["mac"] = .string(authenticationCode(note, key: key))
        let final = name(size, digest, strict)
        let temporary = "\(final).\(getpid()).tmp"
        // A temporary note of this name is one of ours that a process of the same pid left.
        unlinkat(descriptor, temporary, 0)
        guard case .success(let fd) = OwnedFiles.openFile(temporary, in: descriptor, flags: O_WRONLY | O_CREAT | O_EXCL)
        else { return }
        let failed = FileDescriptorIO.writeAll(fd, JSON.object(note).encoded() + [0x0A]) != nil
        close(fd)
        guard !failed, renameat(descriptor, temporary, descriptor, final) == 0 else {
            unlinkat(descriptor, temporary, 0)
            return
        }
        log.debug("noted that the definitions document \(digest.prefix(16)) loads, in \(directory)")
        prune()
    }

    /// What a note says, without its code.
    private func noteBody(size: Int, digest: String, strict: Bool, problems: [DefinitionsProblem]) -> JSONObject {
        [
            "format": .int(Self.format), "build": .string(build), "bytes": .int(size),
            "digest": .string(digest), "strict": .bool(strict), "problems": .array(problems.map(\.json)),
        ]
    }

    private func authenticationCode(_ body: JSONObject, key: [UInt8]) -> String {
        SHA256.hex(SHA256.authenticationCode(key: key, message: JSON.object(body).encoded()))
    }

    /// Compares in a time that does not tell how much of a guess was right.
    private static func sameBytes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// Forgets a note found to be wrong.
    func forget(_ bytes: [UInt8], digest: String, strict: Bool) {
        guard descriptor >= 0 else { return }
        unlinkat(descriptor, name(bytes.count, digest, strict), 0)
    }

    private func name(_ size: Int, _ digest: String, _ strict: Bool) -> String {
        "\(digest)-\(size)\(strict ? "-strict" : "").json"
    }

    /// Whether `name` is what `name(_:_:_:)` makes: digest, size, strictness
    /// (with `digestDigits` 16, a note of format 1, named by FNV-1a).
    static func isNoteName(_ name: Substring, digestDigits: Int = SHA256.digestSize * 2) -> Bool {
        guard name.hasSuffix(".json") else { return false }
        var stem = name.dropLast(5)
        if stem.hasSuffix("-strict") { stem = stem.dropLast(7) }
        let parts = stem.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == digestDigits, parts[0].utf8.allSatisfy(isLowerHex),
            !parts[1].isEmpty, parts[1].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return false }
        return true
    }

    /// Whether `name` is a note's temporary name (`remember`): the note's, a pid, `.tmp`.
    static func isTemporaryName(_ name: Substring) -> Bool {
        guard name.hasSuffix(".tmp") else { return false }
        let stem = name.dropLast(4)
        guard let dot = stem.lastIndex(of: "."),
            stem[stem.index(after: dot)...].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return false }
        return isNoteName(stem[..<dot])
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }

    /// Removes the oldest notes beyond `limit`, temporary notes that a
    /// process which died left, and notes of format 1, which no build reads
    /// now; nothing else, whatever the directory holds.
    private func prune() {
        // A description of its own: a dup would share the reading position of the last listing.
        let listing = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listing >= 0, let stream = fdopendir(listing) else {
            if listing >= 0 { close(listing) }
            return
        }
        var notes: [(name: String, modified: Double)] = []
        var abandoned: [String] = []
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            let isNote = Self.isNoteName(name[...])
            let isFormer = Self.isNoteName(name[...], digestDigits: 16)
            guard isNote || isFormer || Self.isTemporaryName(name[...]) else { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else {
                continue
            }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            if isNote {
                notes.append((name, modified))
            } else if isFormer || Double(now.tv_sec) - modified > Self.abandonedAfter {
                abandoned.append(name)
            }
        }
        closedir(stream)
        for name in abandoned { unlinkat(descriptor, name, 0) }
        guard notes.count > limit else { return }
        for note in notes.sorted(by: { $0.modified < $1.modified }).prefix(notes.count - limit) {
            unlinkat(descriptor, note.name, 0)
        }
    }
}
