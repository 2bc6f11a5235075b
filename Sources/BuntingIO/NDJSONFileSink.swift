#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingJSON
import Synchronization

/// Analytics appended to a file, one JSON object a line.
///
/// A batch is written with one `write(2)` and synced before it counts as
/// accepted. Events whose id the file already holds are skipped, so that a
/// batch re-sent after a crash appears once: the ids are read from the
/// file's last `scanBytes` bytes when the sink first delivers, which covers
/// any batch that can have been in flight.
public final class NDJSONFileSink: AnalyticsSink {
    public let location: String
    static let scanBytes = 16 << 20
    /// Ids written by this process or found in the file; nil until first read.
    private let knownIds = Mutex<Set<String>?>(nil)

    public init(path: String) {
        self.location = path
    }

    public func deliver(_ events: [AnalyticsEvent]) throws(SinkFailure) {
        try knownIds.withLock { (known: inout Set<String>?) throws(SinkFailure) in
            let fd = open(location, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw .serverError("cannot open \(location): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            if known == nil { known = readIds() }
            var lines: [UInt8] = []
            if !endsWithNewline(fd) { lines.append(UInt8(ascii: "\n")) }  // after a torn last line
            var written: [String] = []
            for event in events where !known!.contains(event.eventId) {
                event.sinkJSON.encode(appendingTo: &lines)
                lines.append(UInt8(ascii: "\n"))
                written.append(event.eventId)
            }
            guard !written.isEmpty else { return }
            try writeAll(fd, lines)
            guard fsync(fd) == 0 else { throw .serverError("cannot sync \(location): \(String(cString: strerror(errno)))") }
            known!.formUnion(written)
        }
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SinkFailure) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .serverError("cannot write \(location): \(String(cString: strerror(errno)))")
            }
            offset += count
        }
    }

    private func endsWithNewline(_ fd: Int32) -> Bool {
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return true }
        let reader = open(location, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { return true }
        defer { close(reader) }
        var last: UInt8 = 0
        return pread(reader, &last, 1, size - 1) == 1 ? last == UInt8(ascii: "\n") : true
    }

    /// The event ids in the file's tail; lines that do not parse are skipped.
    private func readIds() -> Set<String> {
        let fd = open(location, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        let size = Int(lseek(fd, 0, SEEK_END))
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
