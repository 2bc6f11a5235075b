#if canImport(Glibc)
import Glibc
#endif

/// Why a read or write on a descriptor failed: the call's errno and a readable message.
public struct FileIOError: Error, Sendable, Equatable {
    public let errno: Int32
    public let message: String

    public init(errno: Int32, message: String) {
        self.errno = errno
        self.message = message
    }

    /// `what: strerror(errno)` for the errno of the failed call.
    static func last(_ what: String) -> FileIOError {
        let code = Glibc.errno
        return FileIOError(errno: code, message: "\(what): \(String(cString: strerror(code)))")
    }
}

/// The POSIX loops every part of Bunting needs: writing all of a buffer,
/// reading all of a descriptor or file. EINTR is retried; nothing else is.
public enum FileDescriptorIO {
    /// Writes every byte to `fd` (blocking), or returns why not.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> FileIOError? {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return .last("write")
            }
            if written == 0 { return FileIOError(errno: EIO, message: "write: no progress") }
            offset += written
        }
        return nil
    }

    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> FileIOError? {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    @discardableResult
    public static func writeAll(_ fd: Int32, _ text: String) -> FileIOError? {
        var text = text
        return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Reads `fd` to its end, refusing more than `limit` bytes.
    /// `expectedSize`: the size the file had when opened, reserved up front
    /// so that a large file is not copied into buffers of doubling sizes (a
    /// 5 MB document took an 8 MB buffer and the copies before it).
    public static func readAll(_ fd: Int32, limit: Int, name: String, expectedSize: Int = 0) -> Result<
        [UInt8], FileIOError
    > {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(max(expectedSize, 0), limit))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.last("cannot read \(name)"))
            }
            if count == 0 { return .success(bytes) }
            if bytes.count + count > limit {
                return .failure(FileIOError(errno: EFBIG, message: "\(name) is larger than \(limit) bytes"))
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Reads a whole regular file, refusing anything else (a FIFO, a device,
    /// a directory) and files larger than `limit`. The file is opened without
    /// blocking, so a FIFO with no writer cannot hang the caller, and its type
    /// is checked on the opened descriptor, so a path swapped between a check
    /// and the open cannot either.
    public static func readRegularFile(_ path: String, limit: Int) -> Result<[UInt8], FileIOError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return .failure(.last("cannot open \(path)")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.last("cannot stat \(path)")) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(FileIOError(errno: EINVAL, message: "\(path) is not a regular file"))
        }
        guard Int(info.st_size) <= limit else {
            return .failure(FileIOError(errno: EFBIG, message: "\(path) is larger than \(limit) bytes"))
        }
        return readAll(fd, limit: limit, name: path, expectedSize: Int(info.st_size))
    }
}
