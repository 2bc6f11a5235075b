#if canImport(Glibc)
import Glibc
#endif
import CRuntime

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

/// What one read or write on a descriptor did.
public enum TransferOutcome: Equatable, Sendable {
    /// This many bytes moved (more than 0).
    case transferred(Int)
    /// A read found the end of the input.
    case end
    /// A descriptor without blocking has nothing to give or no room now.
    case wouldBlock
    case failed(FileIOError)
}

/// Bunting's one door to POSIX reads and writes: single reads and writes
/// that say what happened, writing all of a buffer, reading all of a
/// descriptor or file, waiting for room to write. EINTR is retried here and
/// nowhere else; nothing else is retried.
public enum FileDescriptorIO {
    /// One `read(2)` into `buffer`.
    public static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> TransferOutcome {
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count > 0 { return .transferred(count) }
            if count == 0 { return .end }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(.last("read"))
            }
        }
    }

    /// One `write(2)` of `bytes` (or, for a socket, one `send(2)` that
    /// neither blocks nor raises SIGPIPE).
    public static func writeSome(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, socket: Bool = false) -> TransferOutcome
    {
        while true {
            let written =
                socket
                ? send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                : write(fd, bytes.baseAddress, bytes.count)
            if written > 0 { return .transferred(written) }
            if written == 0 { return bytes.isEmpty ? .transferred(0) : .wouldBlock }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(.last("write"))
            }
        }
    }

    /// Asks the kernel for a buffer of `bytes` on the pipe `fd` writes to,
    /// or for the largest the system allows (`/proc/sys/fs/pipe-max-size`)
    /// when that is less; returns the size it has then, or nil when `fd` is
    /// not a pipe. A larger buffer means fewer hand-offs between writer and
    /// reader for a large message; its pages are taken only while it holds
    /// unread bytes.
    @discardableResult
    public static func growPipe(_ fd: Int32, to bytes: Int) -> Int? {
        let granted = bunting_set_pipe_size(fd, Int32(clamping: bytes))
        if granted >= 0 { return Int(granted) }
        guard errno == EPERM, let limit = systemPipeLimit, limit < bytes else { return nil }
        let capped = bunting_set_pipe_size(fd, Int32(clamping: limit))
        return capped >= 0 ? Int(capped) : nil
    }

    /// The largest pipe buffer an unprivileged process may ask for.
    private static var systemPipeLimit: Int? {
        guard case .success(let text) = readRegularFile("/proc/sys/fs/pipe-max-size", limit: 64) else { return nil }
        return Int(String(decoding: text.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }, as: UTF8.self))
    }

    /// Waits up to `seconds` (at most a second, so that callers look at
    /// their deadlines) for room to write on `fd`. Returns false only if
    /// `poll(2)` itself failed; an interrupted wait counts as a wait.
    public static func waitUntilWritable(_ fd: Int32, seconds: Double) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let milliseconds = Int32(min(max(seconds, 0), 1) * 1000) + 1
        return poll(&descriptor, 1, milliseconds) >= 0 || errno == EINTR
    }

    /// Writes every byte to `fd` (blocking), or returns why not.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> FileIOError? {
        var offset = 0
        while offset < bytes.count {
            switch writeSome(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...])) {
            case .transferred(let count): offset += count
            case .failed(let error): return error
            case .end, .wouldBlock: return FileIOError(errno: EIO, message: "write: no progress")
            }
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
            switch chunk.withUnsafeMutableBytes({ readSome(fd, into: $0) }) {
            case .end:
                return .success(bytes)
            case .transferred(let count):
                if bytes.count + count > limit {
                    return .failure(FileIOError(errno: EFBIG, message: "\(name) is larger than \(limit) bytes"))
                }
                bytes.append(contentsOf: chunk[..<count])
            case .wouldBlock:
                return .failure(
                    FileIOError(
                        errno: EAGAIN, message: "cannot read \(name): \(String(cString: strerror(EAGAIN)))"))
            case .failed(let error):
                return .failure(
                    FileIOError(
                        errno: error.errno,
                        message: "cannot read \(name): \(String(cString: strerror(error.errno)))"))
            }
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
