#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
import Foundation
import Testing

/// nginx with the nchan module (Debian's libnginx-mod-nchan), configured
/// as README's "Running a fleet" says, plus locations that misbehave on
/// purpose: a proxy that buffers the stream and never flushes, and a way
/// through to the fault server (for answers scripted per request). The definitions URL is the
/// fault server's, so that killing nchan leaves the source up.
final class NchanStream: @unchecked Sendable {
    let origin: FaultServer
    let nginx: Nginx

    /// The nchan part of the fleet configuration (README, Running a fleet).
    static let fleetLocations = """
        # Publishers POST a whole document here; nchan keeps the last one.
        location = /definitions/publish {
            nchan_publisher;
            nchan_channel_id definitions;
            nchan_message_buffer_length 1;
            nchan_message_timeout 0;
        }
        # Bunting's --stream: a new subscriber gets the last document at once.
        location = /definitions/stream {
            nchan_subscriber eventsource;
            nchan_channel_id definitions;
            nchan_subscriber_first_message oldest;
            nchan_eventsource_ping_interval 15;
        }
        """

    init() throws {
        origin = try FaultServer()
        try origin.setDocument("/definitions.json", definitions("v1"), etag: "\"v1\"")
        let port = origin.port
        nginx = try Nginx(
            modules: ["ngx_nchan_module.so"],
            locations: Self.fleetLocations + """

                # The same publisher for a burst: nginx closes a connection after 1,000 requests by default.
                location = /definitions/publish-many {
                    nchan_publisher;
                    nchan_channel_id definitions;
                    nchan_message_buffer_length 1;
                    keepalive_requests 20000;
                    access_log off;
                }
                # A proxy that buffers the stream and never flushes: not a byte gets through.
                location = /buffered/stream {
                    proxy_pass http://127.0.0.1:$server_port/definitions/stream;
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    proxy_buffering on;
                    proxy_ignore_headers X-Accel-Buffering;
                    proxy_buffer_size 64k;
                    proxy_buffers 4 64k;
                }
                # Answers the fault server scripts, through nginx as a stream server would be.
                location /scripted/ {
                    proxy_pass http://127.0.0.1:\(port)/;
                    proxy_http_version 1.1;
                    proxy_buffering off;
                }
                """)
        // A first try of the stream that finds no server would be an outage of its own.
        try LoopbackHTTP.waitUntilListening(port: nginx.port)
    }

    var definitionsURL: String { origin.url("/definitions.json") }
    var streamURL: String { nginx.url("/definitions/stream") }

    /// One POST to nchan: every subscriber gets the document as one event.
    @discardableResult
    func publish(_ text: String) throws -> Int {
        try LoopbackHTTP.post(port: nginx.port, path: "/definitions/publish", body: text)
    }

    /// A Bunting on the definitions URL and `stream` (nchan's by default),
    /// synced for alice, that polls only when asked to.
    func bunting(stream: String? = nil, _ more: [String] = []) throws -> BuntingClient {
        var arguments = ["--definitions", definitionsURL, "--stream", stream ?? streamURL]
        if !more.contains("--poll-interval") { arguments += ["--poll-interval", "3600"] }
        let bunting = try BuntingClient(arguments + more)
        try bunting.startSynced()
        return bunting
    }
}

extension BuntingClient {
    /// Waits, up to the harness's deadline, until `status.stream` satisfies `condition`.
    @discardableResult
    func waitForStream(_ what: String, _ condition: (JSON) -> Bool) throws -> JSON {
        let deadline = Date().addingTimeInterval(ServerProcess.deadline)
        while true {
            let stream = try call("status")["stream"] ?? .null
            if condition(stream) { return stream }
            guard Date() < deadline else {
                throw HarnessError(description: "the stream never was \(what): \(stream.encodedString())")
            }
            usleep(10_000)
        }
    }

    func waitUntilConnected() throws {
        try waitForStream("connected") { $0["connected"] == true }
    }

    /// Waits until the greeting is `version`; returns the events since `mark`.
    func waitForGreeting(_ version: String, after mark: Int) throws -> [JSON] {
        try waitForEvents(after: mark, "greeting \(version)") { events in
            events.contains { event in
                event["type"] == "DATA_UPDATED"
                    && event["cacheSnapshot"]?["featureFlags"]?.arrayValue?.first?["properties"]?["text"]?["value"]
                        == .string(version)
            }
        }
    }

    /// The channel's ERROR events since `mark`, summarised; without the
    /// FEATURE_DISABLED a subscription gets before the first document.
    func errors(after mark: Int) -> [String] {
        events.dropFirst(mark).filter { $0["type"] == "ERROR" && $0["reason"] != "FEATURE_DISABLED" }.map(Self.summary)
    }
}

/// Each fault of the stream, through real nginx and nchan: the server
/// killed and started again, a proxy that buffers, half an event then
/// silence, an event at the document limit and one over it, 10,000 events a
/// second, data that is not JSON, a stream URL that answers HTML or 404. In
/// each the server answers `status` within 100 ms and ends within 1 s of
/// SIGTERM.
@Suite(.serialized) struct StreamTests {
    @Test func onePublishReachesEverySubscribedProcess() throws {
        let nchan = try NchanStream()
        let fleet = try (0..<4).map { _ in try nchan.bunting() }
        for bunting in fleet { try bunting.waitUntilConnected() }
        let marks = fleet.map { $0.events.count }
        #expect(try nchan.publish(definitions("v2")) == 201)
        for (bunting, mark) in zip(fleet, marks) {
            _ = try bunting.waitForGreeting("v2", after: mark)
            #expect(
                try bunting.summaries(after: mark) { $0.hasPrefix("DATA_UPDATED") } == [
                    "DATA_UPDATED featureFlags AUTO_SERVER_REFRESH"
                ])
            #expect(try bunting.greeting() == "v2")
        }
        // Pushed, not polled: each process read the URL once, at start.
        #expect(try nchan.origin.requests("/definitions.json").count == fleet.count)
        let stream = try fleet[0].call("status")["stream"]
        #expect(stream?["lastEventId"]?.stringValue?.isEmpty == false)
        #expect(stream?["events"] == 1)
        for bunting in fleet { try bunting.process.expectPromptStatusAndTermination() }
    }

    @Test func aStreamServerKilledAndStartedAgainIsToldOnceAndPolledMeanwhile() throws {
        let nchan = try NchanStream()
        let bunting = try nchan.bunting(["--poll-interval", "0.2"])
        try bunting.waitUntilConnected()
        let mark = bunting.events.count
        nchan.nginx.kill()
        // Tries to connect again fail, one after another; one ERROR says so.
        try bunting.waitForStream("tried again five times") {
            $0["reconnects"]?.integerValue ?? 0 >= 5 && $0["connected"] == false
        }
        #expect(bunting.errors(after: mark) == ["ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY"])
        #expect(
            bunting.events.dropFirst(mark).first { $0["type"] == "ERROR" }?["message"]?.stringValue?.contains("stream")
                == true)
        // Polling goes on while the stream is down.
        try nchan.origin.setDocument("/definitions.json", definitions("v2"), etag: "\"v2\"")
        _ = try bunting.waitForGreeting("v2", after: mark)
        try nchan.nginx.restart()
        try bunting.waitUntilConnected()
        let afterRestart = bunting.events.count
        #expect(try nchan.publish(definitions("v3")) == 201)
        _ = try bunting.waitForGreeting("v3", after: afterRestart)
        #expect(bunting.errors(after: mark) == ["ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY"])
        try bunting.process.expectPromptStatusAndTermination()
    }

    @Test func aProxyThatBuffersAndNeverFlushesIsDroppedByTheIdleTimeout() throws {
        let nchan = try NchanStream()
        let bunting = try nchan.bunting(
            stream: nchan.nginx.url("/buffered/stream"), ["--stream-idle-timeout", "0.3", "--poll-interval", "0.2"])
        let mark = bunting.events.count
        try nchan.publish(definitions("held-by-the-proxy"))
        let stream = try bunting.waitForStream("dropped three times") { $0["reconnects"]?.integerValue ?? 0 >= 3 }
        #expect(stream["connected"] == false)
        #expect(stream["lastError"]?.stringValue?.contains("--stream-idle-timeout") == true)
        #expect(bunting.errors(after: mark) == ["ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY"])
        // What the stream cannot bring, polling does.
        try nchan.origin.setDocument("/definitions.json", definitions("v2"), etag: "\"v2\"")
        _ = try bunting.waitForGreeting("v2", after: mark)
        #expect(bunting.errors(after: mark) == ["ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY"])
        try bunting.process.expectPromptStatusAndTermination()
    }

    @Test func halfAnEventThenSilenceIsNeverAdoptedAndTheNextConnectionResumesFromTheLastWholeOne() throws {
        let nchan = try NchanStream()
        let whole = "id: 7\ndata: \(definitions("v2"))\n\n"
        let half = "id: 8\ndata: {\"flags\": {\"greeting\""
        let streamHeaders: JSONObject = ["Content-Type": "text/event-stream"]
        try nchan.origin.script(
            "/half",
            [
                FaultServer.Answer.status(200, headers: streamHeaders, body: whole + half).streamed,
                FaultServer.Answer.status(
                    200, headers: streamHeaders, body: "id: 9\ndata: \(definitions("v3"))\n\n"
                ).streamed,
            ])
        let bunting = try nchan.bunting(stream: nchan.nginx.url("/scripted/half"), ["--stream-idle-timeout", "0.5"])
        let mark = 0
        _ = try bunting.waitForGreeting("v2", after: mark)
        _ = try bunting.waitForGreeting("v3", after: mark)
        let requests = try nchan.origin.waitForRequests("/half", count: 2)
        #expect(requests[0].header("Last-Event-ID") == nil)
        #expect(requests[0].header("Accept") == "text/event-stream")
        // The half event's id was never dispatched: the stream resumes after the whole one.
        #expect(requests[1].header("Last-Event-ID") == "7")
        // A connection that brought an event and came back at the first try is no outage.
        #expect(bunting.errors(after: mark).isEmpty)
        #expect(try bunting.call("status")["stream"]?["lastEventId"] == "9")
        try nchan.origin.endStreams()
        try bunting.process.expectPromptStatusAndTermination()
    }

    @Test func anEventAsLargeAsTheDocumentLimitIsAdoptedAndOneOverItRefused() throws {
        let nchan = try NchanStream()
        let limit = 4096
        let bunting = try nchan.bunting(["--max-document-size", "\(limit)"])
        try bunting.waitUntilConnected()
        let reconnects = try bunting.call("status")["stream"]?["reconnects"]
        func padded(_ version: String, to size: Int) -> String {
            let text = definitions(version)
            return String(text.dropLast()) + String(repeating: " ", count: size - text.utf8.count) + "}"
        }
        let atLimit = padded("at-the-limit", to: limit)
        #expect(atLimit.utf8.count == limit)
        var mark = bunting.events.count
        try nchan.publish(atLimit)
        _ = try bunting.waitForGreeting("at-the-limit", after: mark)
        mark = bunting.events.count
        try nchan.publish(padded("over-the-limit", to: limit + 1))
        _ = try bunting.waitForEvents(after: mark, "the refusal") { $0.contains { $0["type"] == "ERROR" } }
        let events = Array(bunting.events.dropFirst(mark))
        #expect(events.map(BuntingClient.summary) == ["ERROR featureFlags INVALID_SERVER_DATA DO_NOT_RETRY"])
        #expect(events.first?["message"]?.stringValue?.contains("larger than \(limit) bytes") == true)
        #expect(try bunting.greeting() == "at-the-limit")
        // The stream stays up and takes the next document.
        try nchan.publish(definitions("v3"))
        _ = try bunting.waitForGreeting("v3", after: mark)
        let stream = try bunting.call("status")["stream"]
        #expect(stream?["connected"] == true && stream?["reconnects"] == reconnects)
        try bunting.process.expectPromptStatusAndTermination()
    }

    @Test func tenThousandEventsASecondAreCoalescedAndTheLastDocumentWins() throws {
        let nchan = try NchanStream()
        let bunting = try nchan.bunting()
        try bunting.waitUntilConnected()
        let mark = bunting.events.count
        let count = 10_000
        let bodies = (0..<count).map { Array(definitions("v\($0)").utf8) }
        let published = DispatchSemaphore(value: 0)
        let started = Date()
        nonisolated(unsafe) var statuses: [Int] = []
        nonisolated(unsafe) var publishError: (any Error)?
        Thread.detachNewThread {
            do {
                statuses = try LoopbackHTTP.post(
                    port: nchan.nginx.port, path: "/definitions/publish-many", bodies: bodies)
            } catch { publishError = error }
            published.signal()
        }
        // The loop answers while the events pour in: asked every 20 ms until the publisher is done.
        var slowest = 0.0
        while published.wait(timeout: .now() + 0.02) == .timedOut {
            let asked = Date()
            _ = try bunting.call("status")
            slowest = max(slowest, Date().timeIntervalSince(asked))
        }
        let seconds = Date().timeIntervalSince(started)
        if let publishError { throw publishError }
        print(
            "published \(count) documents in \(String(format: "%.2f", seconds)) s "
                + "(\(Int(Double(count) / seconds)) a second); slowest status \(Int(slowest * 1000)) ms")
        #expect(statuses.allSatisfy { $0 == 201 })
        // Under a sanitizer every process runs several times slower (the
        // publisher manages about 1,200 a second): the time is printed, not held.
        let sanitized = ["ASAN_OPTIONS", "TSAN_OPTIONS"].contains { ProcessInfo.processInfo.environment[$0] != nil }
        #expect(sanitized || slowest < 0.1, "status took \(slowest) s during the burst")
        _ = try bunting.waitForGreeting("v\(count - 1)", after: mark)
        let stream = try bunting.waitForStream("given every event") { $0["events"]?.integerValue == Int64(count) }
        #expect(stream["connected"] == true)
        let adoptions = bunting.events.dropFirst(mark).filter { $0["type"] == "DATA_UPDATED" }.count
        print("\(adoptions) adoptions for \(count) events")
        #expect(adoptions >= 1 && adoptions < count / 10)
        #expect(try bunting.greeting() == "v\(count - 1)")
        #expect(bunting.errors(after: mark).isEmpty)
        try bunting.process.expectPromptStatusAndTermination()
    }

    @Test func dataThatIsNotJSONIsToldOnceAndTheStreamStays() throws {
        let nchan = try NchanStream()
        let bunting = try nchan.bunting()
        try bunting.waitUntilConnected()
        let reconnects = try bunting.call("status")["stream"]?["reconnects"]
        let mark = bunting.events.count
        try nchan.publish("<not json>")
        try nchan.publish("<not json>")
        try bunting.waitForStream("given both") { $0["events"] == 2 }
        try nchan.publish(definitions("v2"))
        let events = try bunting.waitForGreeting("v2", after: mark)
        #expect(
            events.map(BuntingClient.summary) == [
                "ERROR featureFlags INVALID_SERVER_DATA DO_NOT_RETRY", "DATA_UPDATED featureFlags AUTO_SERVER_REFRESH",
            ])
        let stream = try bunting.call("status")["stream"]
        #expect(stream?["connected"] == true && stream?["reconnects"] == reconnects)
        try bunting.process.expectPromptStatusAndTermination()
    }

    /// The answers come from the fault server through nginx, the first one
    /// held until alice is subscribed, so that she hears the first failure.
    @Test(arguments: [
        (200, "text/html", "ERROR featureFlags INVALID_SERVER_DATA DO_NOT_RETRY", "HTML page"),
        (404, "text/html", "ERROR featureFlags CLIENT_ERROR DO_NOT_RETRY", "HTTP 404"),
    ])
    func aStreamURLThatAnswersHTMLOr404IsToldOnceAndPollingGoesOn(
        status: Int, type: String, error: String, cause: String
    ) throws {
        let nchan = try NchanStream()
        let page = FaultServer.Answer.status(
            status, headers: ["Content-Type": .string(type)],
            body: "<!doctype html><html><body>Sign in</body></html>")
        try nchan.origin.setFallback("/page", page)
        try nchan.origin.script("/page", [page.held])
        let bunting = try nchan.bunting(stream: nchan.nginx.url("/scripted/page"), ["--poll-interval", "0.2"])
        try nchan.origin.release()
        // Tried again after --retry-max-delay (0.1 s here), without a word more.
        let stream = try bunting.waitForStream("tried again three times") { $0["reconnects"]?.integerValue ?? 0 >= 3 }
        #expect(stream["connected"] == false)
        #expect(stream["lastError"]?.stringValue?.contains(cause) == true)
        #expect(bunting.errors(after: 0) == [error])
        let mark = bunting.events.count
        try nchan.origin.setDocument("/definitions.json", definitions("v2"), etag: "\"v2\"")
        _ = try bunting.waitForGreeting("v2", after: mark)
        #expect(bunting.errors(after: 0) == [error])
        try bunting.process.expectPromptStatusAndTermination()
    }

    /// GrowthBook's way: a payload answer with `x-sse-support: enabled`
    /// leads to `{apiHost}/sub/{clientKey}`, whose `features` event carries
    /// the payload; no --stream is given.
    @Test func aGrowthBookPayloadURLLeadsToItsStream() throws {
        let server = try FaultServer()
        try server.setDocument(
            "/api/features/sdk-test", definitions("v1"), etag: "\"v1\"", headers: ["x-sse-support": "enabled"])
        try server.script(
            "/sub/sdk-test",
            [
                FaultServer.Answer.status(
                    200, headers: ["Content-Type": "text/event-stream"],
                    body: ": hello\n\nevent: features\ndata: \(definitions("v2"))\n\n"
                ).held.streamed
            ])
        let bunting = try BuntingClient([
            "--definitions", server.url("/api/features/sdk-test"), "--poll-interval", "3600",
        ])
        try bunting.startSynced()
        #expect(try bunting.greeting() == "v1")
        let mark = bunting.events.count
        let request = try server.waitForRequests("/sub/sdk-test", count: 1)[0]
        #expect(request.header("Accept") == "text/event-stream")
        try server.release()
        _ = try bunting.waitForGreeting("v2", after: mark)
        let stream = try bunting.call("status")["stream"]
        #expect(stream?["discovered"] == true)
        #expect(stream?["location"] == .string(server.url("/sub/sdk-test")))
        #expect(stream?["connected"] == true)
        try server.endStreams()
        try bunting.process.expectPromptStatusAndTermination()
    }
}

@Suite struct StreamOptionsTests {
    @Test func serveHelpListsTheStreamsOptions() throws {
        let help = try runBunting(["serve", "--help"]).stdout
        for option in ["--stream URL", "--stream-idle-timeout S", "--max-document-size BYTES"] {
            #expect(help.contains(option), "\(option) in serve --help")
        }
    }

    @Test(arguments: [
        (["--stream", "ftp://example.com/stream"], "--stream"),
        (["--stream", "stream.txt"], "--stream"),
        (["--stream-idle-timeout", "0"], "--stream-idle-timeout"),
        (["--stream-idle-timeout", "soon"], "--stream-idle-timeout"),
        (["--max-document-size", "100"], "--max-document-size"),
    ])
    func whatTheStreamOptionsCannotUseIsAUsageError(arguments: [String], option: String) throws {
        let result = try runBunting(["serve", "--storage", ":memory:"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(option))
    }

    /// The document limit holds for a file too: one over it is refused at start-up.
    @Test func aDefinitionsFileOverTheDocumentLimitIsRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bunting-large-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try definitions("large", extraFlags: 40).write(toFile: path, atomically: true, encoding: .utf8)
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 2048)
        let refused = try runBunting([
            "serve", "--storage", ":memory:", "--definitions", path, "--max-document-size", "2048",
        ])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot use the definitions"))
        let served = try runBunting([
            "serve", "--storage", ":memory:", "--definitions", path, "--max-document-size", "\(size)",
        ])
        #expect(served.status == 0)
    }
}
