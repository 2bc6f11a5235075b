import BuntingJSON
import Foundation
import Testing

/// A local definitions file that cannot be used at start-up says why at once.
@Suite struct StartUpDefinitionsTests {
    static func temporaryFile(_ name: String, _ contents: String?) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bunting-\(UUID().uuidString)-\(name)")
            .path
        if let contents { try contents.write(toFile: path, atomically: true, encoding: .utf8) }
        return path
    }

    @Test(arguments: [("missing.json", nil as String?, "No such file"), ("broken.json", "{\"flags\": {", "expected")])
    func aFileThatCannotBeUsedRefusesToStart(name: String, contents: String?, cause: String) throws {
        let path = try Self.temporaryFile(name, contents)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try ServerProcess(framing: .ndjson, arguments: ["--definitions", path])
        try server.closeInput()
        #expect(try server.waitForExit() == 1)
        let stderr = server.stderr
        #expect(stderr.contains("cannot use the definitions at \(path)") && stderr.contains(cause), "stderr: \(stderr)")
        #expect(stderr.contains("--start-without-definitions"))
    }

    @Test(arguments: [
        ("missing.json", nil as String?, "SERVER_ERROR", "SDK_WILL_RETRY"),
        ("broken.json", "[1,", "INVALID_SERVER_DATA", "DO_NOT_RETRY"),
    ])
    func startedAnywayTheFirstEventCarriesTheCauseAndTheLogSaysItOnce(
        name: String, contents: String?, reason: String, retryState: String
    ) throws {
        let path = try Self.temporaryFile(name, contents)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try ServerProcess(
            // No retry within the test (each failed retry is an ERROR of its
            // own): only polls, which must stay quiet, check the file again.
            framing: .ndjson,
            arguments: [
                "--definitions", path, "--start-without-definitions", "--poll-interval", "0.05",
                "--retry-initial-delay", "600",
                "--retry-max-delay", "600", "--log-level", "debug",
            ])
        let reply = try server.request("subscribe", params: ["channel": "featureFlags"])
        #expect(reply["result"]?["subscriptionId"] == "sub-1")
        let event = try server.waitForMessage("the first event") { $0["method"] == "event" }.message["params"]
        #expect(
            event?["type"] == "ERROR" && event?["reason"] == .string(reason)
                && event?["retryState"] == .string(retryState))
        #expect(
            event?["message"]?.stringValue?.contains(path) == true,
            "the cause names the file: \(event?.encodedString() ?? "")")
        // Polls that find the same problem say nothing more: wait for three.
        #expect(
            server.waitForStderr { $0.components(separatedBy: "checking \(path)").count > 3 },
            "the file was polled")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        #expect(server.received.filter { $0["method"] == "event" }.count == 1, "no second ERROR")
        #expect(server.stderr.components(separatedBy: "cannot use").count == 2, "logged once: \(server.stderr)")
    }
}
