#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// POSTs to a loopback server over one connection of a socket's own, as
/// fast as the server takes them: the requests are written all at once
/// (HTTP/1.1 pipelining) by one thread while this one reads the answers,
/// so that neither side waits for the other.
enum LoopbackHTTP {
    /// The status of each answer, in order.
    static func post(port: Int, path: String, bodies: [[UInt8]]) throws -> [Int] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw HarnessError(description: "connect to port \(port): \(String(cString: strerror(errno)))") }
        var requests: [UInt8] = []
        for body in bodies {
            requests += Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/json\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
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
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while statuses.count < bodies.count {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { throw HarnessError(description: "the server closed after \(statuses.count) of \(bodies.count) answers") }
            pending += buffer[..<count]
            // Whole answers: a status line, headers, and a body of Content-Length.
            while let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                guard pending.count >= end.upperBound + length else { break }
                statuses.append(Int(head.split(separator: " ")[1]) ?? 0)
                pending.removeSubrange(..<(end.upperBound + length))
            }
        }
        return statuses
    }

    static func post(port: Int, path: String, body: String) throws -> Int {
        try post(port: port, path: path, bodies: [Array(body.utf8)])[0]
    }
}
