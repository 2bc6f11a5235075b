import BuntingJSON
import Foundation
import Testing

/// A client that sends but does not read must not make the server buffer
/// without bound: once its output and input queues are full, the server
/// stops reading, and the client's writes stop going through.
@Suite struct BackPressureTests {
    @Test func aClientThatStopsReadingIsSlowedDownNotBuffered() throws {
        // Each request names an unknown field of 1,000 characters, which the
        // error reply repeats three times: replies outgrow requests.
        let field = String(repeating: "x", count: 1000)
        let request = ServerProcess.WireFraming.ndjson.frame(
            Array(#"{"jsonrpc":"2.0","id":1,"method":"status","params":{"\#(field)":1}}"#.utf8))
        let server = try ServerProcess(framing: .ndjson, arguments: ["--framing", "ndjson"], readingOutput: false)
        let fd = server.stdinDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)

        let attempted = 100_000 // requests: about 100 MB of input and, unread, 300 MB of replies
        var accepted = 0 // bytes
        let total = attempted * request.count
        var stalled = false
        request.withUnsafeBytes { chunk in
            while accepted < total {
                let offset = accepted % request.count
                let written = write(fd, chunk.baseAddress! + offset, request.count - offset)
                if written > 0 {
                    accepted += written
                    continue
                }
                guard errno == EAGAIN else { break }
                // The pipe is full: wait for the server to read more. A server
                // that keeps reading frees room at once; one that applies
                // back-pressure does not, and the wait ends the attempt.
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&descriptor, 1, 3000) == 0 {
                    stalled = true
                    break
                }
            }
        }
        #expect(stalled, "the server read all \(total) bytes without anyone reading its replies")
        // Input queue, output queue and pipe buffers hold a few megabytes at most.
        #expect(accepted < 16 << 20)

        // Once the client reads again, every accepted request is answered.
        server.startReadingOutput()
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let partial = accepted % request.count
        if partial > 0 { try server.sendRaw(Array(request[partial...])) }
        let requests = (accepted + request.count - 1) / request.count
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        #expect(server.received.count == requests)
    }
}
