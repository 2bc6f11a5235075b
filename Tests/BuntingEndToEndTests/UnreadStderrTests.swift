import BuntingJSON
import Foundation
import Testing

/// A parent that never reads the server's stderr (a pipe left open by a
/// test runner, say) must not freeze the server: once 64 KiB of log was
/// pending, `write(2)` blocked the loop, which answered nothing, fired no
/// timer and ignored SIGTERM.
@Suite struct UnreadStderrTests {
    @Test func aServerWhoseStderrNobodyReadsKeepsServingAndEndsOnSIGTERM() throws {
        let server = try ServerProcess(
            framing: .ndjson, arguments: ["--max-queued-events", "1", "--log-level", "info"], readingStderr: false)
        _ = try server.request("changeUser", params: ["userId": "ada"], id: 1)
        // Each track past the first drops the oldest queued event, with a log
        // line: 2,000 of them are about 300 KB of log, far past a pipe's 64 KiB.
        let detail = String(repeating: "d", count: 100)
        for index in 0..<2_000 {
            try server.send(
                JSON.object([
                    "jsonrpc": "2.0", "method": "track", "params": ["name": .string("event-\(index)-\(detail)")],
                ]))
        }
        let start = Date()
        let status = try server.request("status", id: 2)
        #expect(status["result"]?["pendingAnalytics"] == 1)
        // A loop blocked on the log never answers; a free one answers after
        // handling the 2,000 tracks, which took 0.11 s under ThreadSanitizer
        // on two busy cores: the budget leaves room for sanitizer builds.
        #expect(Date().timeIntervalSince(start) < 1, "status waited for the log")
        let took = server.terminateAndTime()
        #expect(took.map { $0 < 1 } == true, "SIGTERM took \(took.map { "\($0) s" } ?? "forever")")
    }
}
