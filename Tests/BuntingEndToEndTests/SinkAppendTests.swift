#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The NDJSON sink file holds whole lines, each event once, whatever
/// happens to an append halfway: a write stopped by a full disk or a file
/// size limit is taken back to the last complete line before the batch is
/// sent again.
@Suite struct SinkAppendTests {
    // At the file size limit the process gets SIGXFSZ, which the server ignores.
    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil,
            "SIGBUS under ThreadSanitizer at the file size limit"))
    func anAppendCutShortByAFileSizeLimitLeavesNoTornLineAndNoEventTwice() throws {
        let workspace = try StorageWorkspace()
        // 32 KB (64 blocks of 512 bytes) as the soft limit, which this test
        // may raise again: about 120 of the 200 events below fit.
        let server = try ServerProcess(
            framing: .ndjson,
            arguments: [
                "--framing", "ndjson", "--sink", workspace.sink, "--flush-interval", "3600", "--retry-initial-delay",
                "3600",
            ],
            launcher: ["/bin/sh", "-c", "ulimit -S -f 64 && exec \"$@\"", "sh"])
        _ = try server.call("subscribe", ["channel": "featureFlags"])
        var tracked: [String] = []
        for index in 0..<200 {
            let reply = try server.call(
                "track",
                [
                    "name": "step", "value": .int(index),
                    "details": ["padding": .string(String(repeating: "x", count: 40))],
                ])
            tracked.append(try #require(reply["result"]?["eventId"]?.stringValue))
        }
        let first = try server.call("flush")["result"]
        let flushed = first?["flushed"]?.integerValue ?? -1
        #expect(
            flushed > 0 && flushed < 200 && first?["pending"]?.integerValue == 200 - flushed,
            "\(first?.encodedString() ?? "")")
        try server.waitForEvent("ERROR", "featureFlags") { $0["reason"] == "SERVER_ERROR" }
        // What the failed append wrote is gone: the file ends with a whole line.
        let cut = try workspace.sinkContents()
        #expect(cut.tornLines == 0 && cut.ids == Array(tracked.prefix(Int(flushed))))
        #expect(
            FileManager.default.contents(atPath: workspace.root + "/sink-files/events.ndjson")?.last
                == UInt8(ascii: "\n"))

        // The soft limit lifted (util-linux's prlimit; Glibc's call is not visible to Swift).
        let lift = Process()
        lift.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        lift.arguments = ["--pid", "\(server.process.processIdentifier)", "--fsize=unlimited:"]
        try lift.run()
        try lift.waitForExit("prlimit")
        #expect(lift.terminationStatus == 0)
        #expect(try server.call("flush")["result"] == ["flushed": .int(200 - Int(flushed)), "pending": 0])
        try server.expectPromptStatusAndTermination()
        let sink = try workspace.sinkContents()
        #expect(sink.tornLines == 0)
        #expect(sink.ids == tracked, "each event once, in order")
    }

    /// A last line without its newline: the start of an event line (a kill
    /// in the middle of an append) is cut off before the next append, and
    /// anything else is kept whole, on a line of its own.
    @Test(arguments: [
        (#"{"eventId":"e-torn","kind":"impr"#, false), (#"{"eventI"#, false), ("someone else's note", true),
    ])
    func aLastLineWithoutItsNewlineIsCutOnlyWhenItIsATornEvent(tail: String, kept: Bool) throws {
        let workspace = try StorageWorkspace()
        let before = #"{"eventId":"e-before","kind":"custom"}"# + "\n"
        try Data((before + tail).utf8).write(to: URL(fileURLWithPath: workspace.root + "/sink-files/events.ndjson"))
        let server = try ServerProcess(
            framing: .ndjson, arguments: ["--framing", "ndjson", "--sink", workspace.sink, "--log-level", "info"])
        let eventId = try #require(try server.call("track", ["name": "step"])["result"]?["eventId"]?.stringValue)
        #expect(try server.call("flush")["result"] == ["flushed": 1, "pending": 0])
        try server.expectPromptStatusAndTermination()
        let text = String(
            decoding: FileManager.default.contents(atPath: workspace.root + "/sink-files/events.ndjson") ?? Data(),
            as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == String(before.dropLast()) && lines.last == "")
        if kept { #expect(lines[1] == tail) }
        #expect(lines.count == (kept ? 4 : 3), "\(text)")
        #expect(lines[lines.count - 2].hasPrefix(#"{"eventId":"\#(eventId)""#))
        #expect(server.stderr.contains("cut a torn event line") == !kept)
    }
}
