#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
import Foundation
import Testing

/// A sink path that is not a regular file: a FIFO.
@Suite struct SinkKindsTests {
    @Test func aFIFOWithoutAReaderFailsFastAndOneWithAReaderGetsTheEvents() throws {
        let workspace = try Workspace()
        let fifo = workspace.directory.appendingPathComponent("events.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let server = try ServerProcess(framing: .ndjson, arguments: ["--sink", fifo, "--retry-initial-delay", "30"])
        _ = try server.request("subscribe", params: ["channel": "featureFlags"])
        _ = try server.request("changeUser", params: ["userId": "ada"], id: 2)
        _ = try server.request("logImpression", params: ["channel": "featureFlags", "id": "new-checkout"], id: 3)
        // Nothing reads the FIFO: the flush answers at once instead of hanging.
        let unread = try server.request("flush", id: 4)
        #expect(unread["result"] == ["flushed": 0, "pending": 1])
        let error = try server.waitForMessage("ERROR") { isEvent($0, "ERROR") }
        #expect(error.message["params"]?["reason"] == "SERVER_ERROR")
        #expect(error.message["params"]?["message"]?.stringValue?.contains("nothing reads the FIFO") == true)

        // A reader appears: the next flush reaches it.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let flushed = try server.request("flush", id: 5)
        #expect(flushed["result"] == ["flushed": 1, "pending": 0])
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        #expect(count > 0)
        let line = try JSON.parse(Array(buffer[..<max(0, count - 1)]))
        #expect(line["kind"] == "impression" && line["itemId"] == "new-checkout")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
    }
}
