#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingJSON
import BuntingRuntime
import Synchronization

/// Analytics appended to a file, one JSON object a line.
///
/// A batch is written with one `write(2)` and synced before it counts as
/// accepted. Events whose id the file already holds are skipped, so that a
/// batch re-sent after a crash appears once: the ids are read from the
/// file's last `scanBytes` bytes when the sink first delivers, which covers
/// any batch that can have been in flight.
///
/// The path may also be a FIFO, a pipe (`/dev/fd/N`, `>(cmd)`) or a device:
/// it is opened without blocking (a FIFO with no reader is a failure that is
/// retried, not a hang), written within `writeTimeout`, and neither read
/// back nor synced — such a sink delivers at least once, not exactly once.
public final class NDJSONFileSink: AnalyticsSink {
    public let location: String
    static let scanBytes = 16 << 20
    /// Longest wait for a reader of a FIFO or pipe to take a batch.
    let writeTimeout: Double
    /// Ids written by this process or found in the file; nil until first read.
    private let knownIds = Mutex<Set<String>?>(nil)

    public init(path: String, writeTimeout: Double = 30) {
        self.location = path
        self.writeTimeout = writeTimeout
    }

    public func deliver(_ events: [AnalyticsEvent]) throws(SinkFailure) {
        try knownIds.withLock { (known: inout Set<String>?) throws(SinkFailure) in
            let fd = open(location, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o644)
            guard fd >= 0 else {
                let why = errno == ENXIO ? "nothing reads the FIFO" : String(cString: strerror(errno))
                throw .serverError("cannot open \(location): \(why)")
            }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw .serverError("cannot stat \(location): \(String(cString: strerror(errno)))") }
            let isRegular = (info.st_mode & S_IFMT) == S_IFREG
            if isRegular {
                // A regular file never makes a writer wait long: write it plainly.
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
                if known == nil { known = readIds(size: Int(info.st_size)) }
            } else if known == nil {
                known = []
            }
            var lines: [UInt8] = []
            if isRegular && !endsWithNewline(size: Int(info.st_size)) { lines.append(UInt8(ascii: "\n")) }  // after a torn last line
            var written: [String] = []
            for event in events where !known!.contains(event.eventId) {
                event.sinkJSON.encode(appendingTo: &lines)
                lines.append(UInt8(ascii: "\n"))
                written.append(event.eventId)
            }
            guard !written.isEmpty else { return }
            if isRegular {
                if let error = FileDescriptorIO.writeAll(fd, lines) { throw .serverError("cannot write \(location): \(error.message)") }
                guard fsync(fd) == 0 else { throw .serverError("cannot sync \(location): \(String(cString: strerror(errno)))") }
            } else {
                try writeWithinTimeout(fd, lines)
            }
            known!.formUnion(written)
        }
    }

    /// Writes to a FIFO, pipe or device as its reader takes the bytes, giving
    /// up after `writeTimeout` (the batch is then sent again later).
    private func writeWithinTimeout(_ fd: Int32, _ bytes: [UInt8]) throws(SinkFailure) {
        let deadline = SystemClock().monotonicTime() + writeTimeout
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count > 0 {
                offset += count
                continue
            }
            guard count < 0, errno == EAGAIN || errno == EINTR else {
                throw .serverError("cannot write \(location): \(String(cString: strerror(errno)))")
            }
            let left = deadline - SystemClock().monotonicTime()
            guard left > 0 else { throw .serverError("the reader of \(location) took nothing for \(Int(writeTimeout)) s") }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, Int32(min(left, 1) * 1000) + 1)
        }
    }

    private func endsWithNewline(size: Int) -> Bool {
        guard size > 0 else { return true }
        let reader = open(location, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { return true }
        defer { close(reader) }
        var last: UInt8 = 0
        return pread(reader, &last, 1, off_t(size - 1)) == 1 ? last == UInt8(ascii: "\n") : true
    }

    /// The event ids in the tail of the file (`size` bytes long); lines that
    /// do not parse are skipped.
    private func readIds(size: Int) -> Set<String> {
        let fd = open(location, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, size > 0 else {
            if fd >= 0 { close(fd) }
            return []
        }
        defer { close(fd) }
        let start = max(0, size - Self.scanBytes)
        var bytes = [UInt8](repeating: 0, count: size - start)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        guard count > 0 else { return [] }
        var ids = Set<String>()
        for line in bytes[..<count].split(separator: UInt8(ascii: "\n")) {
            if let id = (try? JSON.parse(Array(line)))?["eventId"]?.stringValue { ids.insert(id) }
        }
        return ids
    }
}
