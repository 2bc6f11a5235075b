import BuntingJSON
import Foundation
import Testing

/// What a fetch asks the server, and which fetch answers which refresh.
@Suite struct HTTPRefetchTests {
    /// A server served the document, then a body that does not parse with a
    /// newer Last-Modified, then the old file again (after `mv`, say): polls
    /// sent If-Modified-Since of the refused body, a file server answered 304
    /// for ever, and the good file was never read again.
    @Test func pollsAfterARefusedDocumentDoNotSendItsLastModified() throws {
        let older = "Sat, 01 Nov 2025 10:00:00 GMT"
        let newer = "Sun, 02 Nov 2025 10:00:00 GMT"
        let server = try FaultServer()
        let path = DefinitionsFixture.path
        try server.setDocument(path, definitions("v1"), lastModified: older)
        let bunting = try BuntingClient(["--definitions", server.url(path), "--poll-interval", "0.05"])
        try bunting.startSynced()
        try bunting.call("subscribeToDefinitions")

        let start = bunting.events.count
        try server.setDocument(path, "{ not json", lastModified: newer)
        _ = try bunting.waitForEvents(after: start, "the refusal") { events in
            events.contains { $0["type"] == "ERROR" && $0["reason"] == "INVALID_SERVER_DATA" }
        }
        let refusedAt = try server.requests(path).count
        try server.setDocument(path, definitions("v1"), lastModified: older)
        // READY at the subscription, then again once the good document is back.
        _ = try bunting.process.waitUntil("READY once the good document is back") { messages in
            messages.filter { $0["method"] == "definitions" && $0["params"]?["type"] == "READY" }.count >= 2
        }
        let later = try server.requests(path).dropFirst(refusedAt)
        #expect(!later.isEmpty)
        #expect(later.allSatisfy { $0.header("If-Modified-Since") != newer }, "a poll asked by the refused body's date")
        #expect(try bunting.call("status")["definitions"]?["lastError"] == nil)
        #expect(try bunting.greeting() == "v1")
        // The refused body, read again while it stays, is not reported again.
        let errors = bunting.events.dropFirst(start).filter { $0["type"] == "ERROR" }
        #expect(errors.count == 1)
        try bunting.process.expectPromptStatusAndTermination()
    }

    /// A manual refresh that arrived while a poll was under way completed
    /// with that poll's answer, a document older than the refresh.
    @Test func aManualRefreshIsServedByARequestSentAfterIt() throws {
        let fixture = try DefinitionsFixture(["--poll-interval", "0.3"])
        let path = DefinitionsFixture.path
        let before = try fixture.server.requests(path).count
        // The next poll is answered slowly, with the old document; then the
        // server has v2.
        try fixture.server.script(path, [.status(200, body: definitions("v1")).delayed(1)])
        try fixture.server.setDocument(path, definitions("v2"), etag: "\"v2\"")
        _ = try fixture.server.waitForRequests(path, count: before + 1)
        let start = fixture.bunting.events.count
        let asked = Date().timeIntervalSince1970
        try fixture.bunting.call("refresh", ["channel": "featureFlags"])
        let events = try fixture.bunting.waitForEvents(after: start, "the manual DATA_UPDATED") { events in
            events.contains { $0["reason"] == "MANUAL_SERVER_REFRESH" }
        }
        let manual = try #require(events.first { $0["reason"] == "MANUAL_SERVER_REFRESH" })
        let texts = manual["cacheSnapshot"]?["featureFlags"]?.arrayValue?.compactMap {
            $0["properties"]?["text"]?["value"]?.stringValue
        }
        #expect(texts == ["v2"], "the manual refresh saw \(texts ?? [])")
        #expect(
            try fixture.server.requests(path).contains { $0.time >= asked },
            "no request was sent after the refresh was asked")
        try fixture.bunting.process.expectPromptStatusAndTermination()
    }
}

/// Right after `changeUser` with a URL source, `getSnapshot` answered an
/// empty list where `getFeatureFlag` answered NOT_SYNCED.
@Suite struct NotSyncedSnapshotTests {
    @Test func aSnapshotBeforeTheFirstDocumentSaysWhyItIsEmpty() throws {
        let server = try FaultServer()
        let path = DefinitionsFixture.path
        try server.setDocument(path, definitions("v1"), etag: "\"v1\"")
        try server.script(path, [FaultServer.Answer.status(200, body: definitions("v1")).held])
        let bunting = try BuntingClient(["--definitions", server.url(path)])
        try server.waitForRequests(path, count: 1)
        try bunting.call("changeUser", ["userId": "ada"])
        let snapshot = try bunting.call("getSnapshot", ["channel": "featureFlags"])
        let reply = try bunting.process.request("getFeatureFlag", params: ["id": "greeting"], id: "read")
        #expect(reply["error"]?["data"]?["reason"] == "NOT_SYNCED")
        #expect(snapshot["featureFlags"] == [])
        #expect(snapshot["notSynced"] != nil && snapshot["notSynced"] == reply["error"]?["data"]?["why"])
        try server.release()
        try bunting.process.expectPromptStatusAndTermination()
    }
}
