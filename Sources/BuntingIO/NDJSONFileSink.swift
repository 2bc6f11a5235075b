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
/// The file gets whole lines or nothing. An append that fails halfway (a
/// full disk, a file size limit) or whose sync fails is cut back to where
/// the batch began, so that the retry neither leaves a torn line nor writes
/// the batch's first events twice; a torn last line left by a process killed
/// mid-write is cut off before the next append when it is one of ours (it
/// starts as every event line does), and its event is written again whole.
/// Appends hold an exclusive `flock` on the file, so that another Bunting
/// appending to it never sees a line being written as torn.
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

    public func deliver(_ events: [AnalyticsEvent]) throws(SinkError) {
        try knownIds.withLock { (known: inout Set<String>?) throws(SinkError) in
            let fd = open(location, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o644)
            guard fd >= 0 else {
                let why = errno == ENXIO ? "nothing reads the FIFO" : String(cString: strerror(errno))
                throw .serverError("cannot open \(location): \(why)")
            }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                throw .serverError("cannot stat \(location): \(String(cString: strerror(errno)))")
            }
            let isRegular = (info.st_mode & S_IFMT) == S_IFREG
            /// Where the file ends before this batch: what a failed append is cut back to.
            var end = 0
            var lines: [UInt8] = []
            if isRegular {
                // A regular file never makes a writer wait long: write it plainly.
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
                // Released when the descriptor is closed.
                guard flock(fd, LOCK_EX) == 0 else {
                    throw .serverError("cannot lock \(location): \(String(cString: strerror(errno)))")
                }
                guard fstat(fd, &info) == 0 else {
                    throw .serverError("cannot stat \(location): \(String(cString: strerror(errno)))")
                }
                if known == nil { known = readIds(size: Int(info.st_size)) }
                // The same file for reading (the writer is write-only, so that a FIFO without a reader fails to open).
                let reader = open("/proc/self/fd/\(fd)", O_RDONLY | O_CLOEXEC)
                defer { if reader >= 0 { close(reader) } }
                switch reader < 0 ? .unfinished : lastLine(reader, size: Int(info.st_size)) {
                case .whole:
                    end = Int(info.st_size)
                case .tornEvent(let lineStart):
                    guard ftruncate(fd, off_t(lineStart)) == 0 else {
                        throw .serverError(
                            "cannot cut the torn last line off \(location): \(String(cString: strerror(errno)))")
                    }
                    log.warning(
                        "sink: cut a torn event line (\(Int(info.st_size) - lineStart) "
                            + "bytes) off the end of \(location)")
                    end = lineStart
                case .unfinished:
                    // Someone else's text without a newline: kept, on a line of its own.
                    end = Int(info.st_size)
                    lines.append(UInt8(ascii: "\n"))
                }
            } else if known == nil {
                known = []
            }
            var written: [String] = []
            for event in events where !known!.contains(event.eventId) {
                event.sinkJSON.encode(appendingTo: &lines)
                lines.append(UInt8(ascii: "\n"))
                written.append(event.eventId)
            }
            guard !written.isEmpty else { return }
            if isRegular {
                var failure = FileDescriptorIO.writeAll(fd, lines).map { "cannot write \(location): \($0.message)" }
                if failure == nil && fsync(fd) != 0 {
                    failure = "cannot sync \(location): \(String(cString: strerror(errno)))"
                }
                if let failure {
                    // Whole lines or nothing: the batch is sent again in full.
                    if ftruncate(fd, off_t(end)) != 0 {
                        log.error(
                            "sink: cannot cut \(location) back to its last whole line "
                                + "after a failed append: \(String(cString: strerror(errno)))")
                    }
                    throw .serverError(failure)
                }
            } else {
                try writeWithinTimeout(fd, lines)
            }
            known!.formUnion(written)
        }
    }

    /// Writes to a FIFO, pipe or device as its reader takes the bytes, giving
    /// up after `writeTimeout` (the batch is then sent again later).
    private func writeWithinTimeout(_ fd: Int32, _ bytes: [UInt8]) throws(SinkError) {
        let deadline = SystemClock().monotonicTime() + writeTimeout
        var offset = 0
        while offset < bytes.count {
            switch bytes.withUnsafeBytes({
                FileDescriptorIO.writeSome(fd, UnsafeRawBufferPointer(rebasing: $0[offset...]))
            }) {
            case .transferred(let count):
                offset += count
                continue
            case .failed(let error):
                throw .serverError("cannot write \(location): \(String(cString: strerror(error.errno)))")
            case .wouldBlock, .end:
                break
            }
            let left = deadline - SystemClock().monotonicTime()
            guard left > 0 else {
                throw .serverError("the reader of \(location) took nothing for \(Int(writeTimeout)) s")
            }
            _ = FileDescriptorIO.waitUntilWritable(fd, seconds: left)
        }
    }

    /// How the file's last line ends.
    enum LastLine: Equatable {
        /// With a newline, or the file is empty.
        case whole
        /// Without one, and it begins as an event line this sink writes: an
        /// append cut short by a kill. `lineStart` is where it begins.
        case tornEvent(lineStart: Int)
        /// Without one, and it is not an event line (or begins too far back to tell).
        case unfinished
    }

    /// Every line this sink writes begins so (`AnalyticsEvent.sinkJSON`, keys in order).
    static let eventLinePrefix = Array(#"{"eventId":""#.utf8)

    /// Reads the file (`size` bytes long) backwards from its end, at most
    /// `scanBytes`, to find where its last line begins.
    func lastLine(_ fd: Int32, size: Int) -> LastLine {
        guard size > 0 else { return .whole }
        var last: UInt8 = 0
        guard pread(fd, &last, 1, off_t(size - 1)) == 1, last != UInt8(ascii: "\n") else { return .whole }
        let chunk = 1 << 16
        var buffer = [UInt8](repeating: 0, count: chunk)
        var chunkEnd = size
        while chunkEnd > 0 && size - chunkEnd < Self.scanBytes {
            let start = max(0, chunkEnd - chunk)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, chunkEnd - start, off_t(start)) }
            guard count == chunkEnd - start else { return .unfinished }
            let newline = buffer[..<count].lastIndex(of: UInt8(ascii: "\n"))
            if newline != nil || start == 0 {
                let lineStart = newline.map { start + $0 + 1 } ?? 0
                var head = [UInt8](repeating: 0, count: Self.eventLinePrefix.count)
                let read = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(lineStart)) }
                // A fragment shorter than the prefix is a write cut in its first bytes: ours if it matches so far.
                let matches = read > 0 && head[..<read].elementsEqual(Self.eventLinePrefix[..<read])
                return matches ? .tornEvent(lineStart: lineStart) : .unfinished
            }
            chunkEnd = start
        }
        return .unfinished
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
