#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// A server started with stdin, stdout or stderr closed: the first file it
/// opens would take that descriptor's number, and the protocol or the log
/// would go into it (the storage directory's lock file). Each must instead
/// behave as if it were /dev/null.
@Suite struct ClosedStandardDescriptorsTests {
    /// Runs `bunting serve` through a shell that closes `redirection`'s
    /// descriptor first; with `inMemory`, on `--storage :memory:`, where no
    /// lock file and no database take the number first.
    private func startServer(_ workspace: StorageWorkspace, closing redirection: String, inMemory: Bool = false) throws
        -> ServerProcess
    {
        var arguments = workspace.arguments(sink: true)
        if inMemory { arguments[arguments.firstIndex(of: workspace.storage)!] = ":memory:" }
        return try ServerProcess(
            framing: .ndjson, arguments: arguments, launcher: ["/bin/sh", "-c", "exec \"$@\" \(redirection)", "sh"])
    }

    /// In memory, the descriptors the server makes for itself (signals, its
    /// loop) and the files it reads and appends to (definitions, sink) take the number.
    @Test(arguments: ["<&-", ">&-", "2>&-"])
    func inMemoryTheServerServesWithADescriptorClosed(redirection: String) throws {
        let workspace = try StorageWorkspace()
        let server = try startServer(workspace, closing: redirection, inMemory: true)
        if redirection == "<&-" {
            #expect(try server.waitForExit() == 0, "\(server.stderr)")
            #expect(server.received.isEmpty)
            return
        }
        try server.post("subscribe", ["channel": "banners"])
        try server.post("changeUser", ["userId": "alice"])
        try server.post("logImpression", ["channel": "banners", "id": "top"])
        try server.post("flush")
        if redirection == "2>&-" {
            try server.waitForEvent("IMPRESSION", "banners") { $0["action"] == "FLUSHED" }
            try server.expectPromptStatusAndTermination()
            server.expectCleanProtocol()
        } else {
            try server.closeInput()
            #expect(try server.waitForExit() == 0, "\(server.stderr)")
        }
        // The flush reached the sink: the requests were served, and nothing else went into it.
        let sink = try workspace.sinkContents()
        #expect(sink.ids.count == 1 && sink.tornLines == 0)
    }

    private func lockContents(_ workspace: StorageWorkspace) -> String {
        String(
            decoding: FileManager.default.contents(atPath: workspace.storage + "/bunting.lock") ?? Data(), as: UTF8.self
        )
    }

    @Test func withStderrClosedTheLogGoesNowhereAndTheLockHoldsThePidOnly() throws {
        let workspace = try StorageWorkspace()
        let server = try startServer(workspace, closing: "2>&-")
        _ = try server.call("subscribe", ["channel": "banners"])
        _ = try server.call("changeUser", ["userId": "alice"])
        try server.waitForEvent("DATA_UPDATED", "banners")
        #expect(lockContents(workspace) == "\(server.process.processIdentifier)\n")
        try server.expectPromptStatusAndTermination()
        #expect(lockContents(workspace) == "\(server.process.processIdentifier)\n")
        // The log went nowhere, not into stdout.
        server.expectCleanProtocol()
    }

    @Test func withStdoutClosedTheRepliesGoNowhereAndTheLockHoldsThePidOnly() throws {
        let workspace = try StorageWorkspace()
        let server = try startServer(workspace, closing: ">&-")
        for _ in 1...3 { try server.post("status") }
        try server.post("changeUser", ["userId": "alice"])
        // Nothing can be read back; the change of user, stored, shows that the requests were served.
        try server.closeInput()
        let asked = Date()
        #expect(try server.waitForExit() == 0, "\(server.stderr)")
        #expect(Date().timeIntervalSince(asked) < 1)
        #expect(server.received.isEmpty)
        #expect(lockContents(workspace) == "\(server.process.processIdentifier)\n")
        let restarted = try workspace.startServer(sink: false)
        #expect(try restarted.call("status")["result"]?["userId"] == "alice")
        try restarted.expectPromptStatusAndTermination()
    }

    @Test func withStdinClosedTheServerSeesTheEndOfInputAndReadsNothingElse() throws {
        let workspace = try StorageWorkspace()
        let server = try startServer(workspace, closing: "<&-")
        let started = Date()
        #expect(try server.waitForExit() == 0, "\(server.stderr)")
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(server.received.isEmpty, "no reply to what a file it opened holds")
        server.expectCleanProtocol()
        #expect(lockContents(workspace) == "\(server.process.processIdentifier)\n")
    }
}
