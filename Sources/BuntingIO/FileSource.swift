#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingRuntime

/// Definitions read from a file. Changes are found by polling: the file's
/// identity, size and modification time make its version, so an unchanged
/// file costs one `stat` per poll and is not read again.
public final class FileSource: DefinitionsSource {
    public let location: String
    public var isLocal: Bool { true }
    /// A definitions file larger than this is refused rather than read (by default).
    public static let maxBytes = 128 << 20
    private let limit: Int

    public init(path: String, maxBytes: Int = FileSource.maxBytes) {
        self.location = path
        self.limit = maxBytes
    }

    public func fetch(ifChangedSince version: SourceVersion?) -> SourceFetchResult {
        var info = stat()
        guard stat(location, &info) == 0 else {
            return .failed(.serverError("cannot read \(location): \(String(cString: strerror(errno)))"))
        }
        let fingerprint = "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        if let version, version.fingerprint == fingerprint { return .unchanged }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .failed(.serverError("\(location) is not a regular file"))
        }
        switch FileDescriptorIO.readRegularFile(location, limit: limit) {
        case .success(let bytes):
            return .fetched(bytes, SourceVersion(fingerprint: fingerprint))
        case .failure(let error) where error.errno == EFBIG:
            // Too large to be a document: refused like one that does not
            // parse, and not read again until it changes.
            return .failed(.invalidData(error.message))
        case .failure(let error):
            return .failed(.serverError(error.message))
        }
    }
}
