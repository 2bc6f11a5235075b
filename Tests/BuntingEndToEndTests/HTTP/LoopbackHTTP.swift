#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// POSTs to a loopback server over one connection of a socket's own, as
/// fast as the server takes them: the requests are written all at once
/// (HTTP/1.1 pipelining) by one thread while this one reads the answers,
/// so that neither side waits for the other.
enum LoopbackHTTP {
    /// Waits, up to the harness's deadline, until something accepts connections on `port`.
    static func waitUntilListening(port: Int) throws {
        let deadline = Date().addingTimeInterval(ServerProcess.deadline)
        while true {
            if let fd = try? connected(port: port) {
                close(fd)
                return
            }
            guard Date() < deadline else { throw HarnessError(description: "nothing listens on port \(port)") }
            usleep(10_000)
        }
    }

    private static func connected(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(fd)
            throw HarnessError(description: "connect to port \(port): \(String(cString: strerror(errno)))")
        }
        // A server that stops answering fails the test at the harness's
        // deadline rather than blocking a read or a write for ever.
        var timeout = timeval(tv_sec: Int(ServerProcess.deadline), tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(fd, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        return fd
    }

    /// The status of each answer, in order.
    static func post(port: Int, path: String, bodies: [[UInt8]]) throws -> [Int] {
        let fd = try connected(port: port)
        defer { close(fd) }
        var requests: [UInt8] = []
        for body in bodies {
            let head =
                "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/json\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            requests += Array(head.utf8)
            requests += body
        }
        let writer = Thread { [requests] in
            var sent = 0
            requests.withUnsafeBytes { bytes in
                while sent < bytes.count {
                    let count = write(fd, bytes.baseAddress! + sent, bytes.count - sent)
                    if count <= 0 { return }
                    sent += count
                }
            }
        }
        writer.start()
        var statuses: [Int] = []
        statuses.reserveCapacity(bodies.count)
        // Answers are cut out of `pending` from `start` on; what was read is
        // dropped only now and then, so that a burst costs the test little CPU.
        var pending: [UInt8] = []
        var start = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while statuses.count < bodies.count {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else {
                let why = count == 0 ? "closed the connection" : "did not answer: \(String(cString: strerror(errno)))"
                throw HarnessError(description: "the server \(why) after \(statuses.count) of \(bodies.count) answers")
            }
            pending += buffer[..<count]
            while let answer = Self.answer(in: pending, from: start) {
                statuses.append(answer.status)
                start = answer.end
            }
            if start > 1 << 20 {
                pending.removeSubrange(..<start)
                start = 0
            }
        }
        return statuses
    }

    /// The status and the end of the whole answer (status line, headers, a
    /// body of its Content-Length) that begins at `start`, if it all came.
    private static func answer(in bytes: [UInt8], from start: Int) -> (status: Int, end: Int)? {
        let separator = Array("\r\n\r\n".utf8)
        guard let headEnd = bytes[start...].firstRange(of: separator) else { return nil }
        let head = String(decoding: bytes[start..<headEnd.lowerBound], as: UTF8.self).lowercased()
        var length = 0
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        guard bytes.count >= headEnd.upperBound + length else { return nil }
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, headEnd.upperBound + length)
    }

    static func post(port: Int, path: String, body: String) throws -> Int {
        try post(port: port, path: path, bodies: [Array(body.utf8)])[0]
    }
}
