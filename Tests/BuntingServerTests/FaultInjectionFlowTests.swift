import BuntingCore
import BuntingJSON
import Testing

/// `serve --faults` with the manual clock: the README's failure table
/// checked the way a script checks it, in milliseconds, with no server of
/// its own. Each flow is a manual refresh of content cards that the
/// injected answers meet, then the clock moved past every retry.
@Suite struct FaultInjectionFlowTests {
    func flow(_ response: JSON, times: Int = 1) -> [String] {
        let server = InProcessServer(testing: [.manualClock, .faults])
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        server.call("injectFault", ["target": "definitions", "response": response, "times": .int(times)])
        let before = server.received.count
        server.request("refresh", params: ["channel": "contentCards"])
        server.advanceClock(3600)
        return server.eventSummaries(from: before)
    }

    @Test func a5xxIsRetriedUntilTheIntegratorMayRetry() {
        // The harness's policy retries 3 times.
        #expect(
            flow(["status": 503], times: 4) == Array(
                repeating: "ERROR contentCards SERVER_ERROR SDK_WILL_RETRY", count: 3)
                + ["ERROR contentCards SERVER_ERROR INTEGRATOR_MAY_RETRY"])
        #expect(
            flow(["status": 502], times: 2) == Array(
                repeating: "ERROR contentCards SERVER_ERROR SDK_WILL_RETRY", count: 2)
                + ["DATA_UPDATED contentCards MANUAL_SERVER_REFRESH"], "back before the retries run out")
    }

    @Test func a429WithoutRetryAfterIsAServerError() {
        #expect(
            flow(["status": 429]) == [
                "ERROR contentCards SERVER_ERROR SDK_WILL_RETRY",
                "DATA_UPDATED contentCards MANUAL_SERVER_REFRESH",
            ])
    }

    @Test func a401IsRetriedThenDoNotRetry() {
        #expect(
            flow(["status": 401], times: 4) == Array(
                repeating: "ERROR contentCards CLIENT_ERROR SDK_WILL_RETRY", count: 3)
                + ["ERROR contentCards CLIENT_ERROR DO_NOT_RETRY"])
    }

    @Test func anotherClientErrorIsNotRetried() {
        #expect(flow(["status": 404], times: 2) == ["ERROR contentCards CLIENT_ERROR DO_NOT_RETRY"])
    }

    @Test func aTimeoutAndADropAreServerErrors() {
        #expect(
            flow("timeout") == [
                "ERROR contentCards SERVER_ERROR SDK_WILL_RETRY",
                "DATA_UPDATED contentCards MANUAL_SERVER_REFRESH",
            ])
        #expect(
            flow("disconnect") == [
                "ERROR contentCards SERVER_ERROR SDK_WILL_RETRY",
                "DATA_UPDATED contentCards MANUAL_SERVER_REFRESH",
            ])
    }

    @Test func halfABodyAndUnusableDataAreInvalidServerDataOnce() {
        #expect(
            flow(["status": 200, "body": #"{"contentCards": [{"id": "hal"#]) == [
                "ERROR contentCards INVALID_SERVER_DATA DO_NOT_RETRY"
            ])
        #expect(flow("invalidData") == ["ERROR contentCards INVALID_SERVER_DATA DO_NOT_RETRY"])
    }

    @Test func anInjectedDocumentIsServed() {
        let server = InProcessServer(testing: [.manualClock, .faults])
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        let document: JSON = [
            "contentCards": [
                ["id": "injected", "type": "classic", "title": "Hi", "extras": [:], "created": 1_700_000_000]
            ]
        ]
        server.call("injectFault", ["target": "definitions", "response": ["status": 200, "body": document]])
        server.request("refresh", params: ["channel": "contentCards"])
        let cards = server.events.last?["cacheSnapshot"]?["contentCards"]?["cards"]?.arrayValue ?? []
        #expect(cards.compactMap { $0["id"]?.stringValue } == ["injected"])
    }

    @Test func statusListsWhatIsArmedAndClearFaultsDisarms() {
        let server = InProcessServer(testing: .faults)
        #expect(server.call("status")["faults"] == [])
        server.call(
            "injectFault",
            ["target": "definitions", "response": ["status": 429, "headers": ["Retry-After": "60"]], "times": 3])
        server.call("injectFault", ["target": "stream", "response": "disconnect"])
        let armed = server.call("injectFault", ["target": "sink", "response": "timeout", "times": 2])
        let expected: JSON = [
            "faults": [
                ["target": "definitions", "times": 3, "response": ["status": 429, "headers": ["Retry-After": "60"]]],
                ["target": "sink", "times": 2, "response": "timeout"],
                ["target": "stream", "times": 1, "response": "disconnect"],
            ]
        ]
        #expect(armed == expected)
        #expect(server.call("status")["faults"] == expected["faults"])
        #expect(server.call("clearFaults", ["target": "sink"])["faults"]?.arrayValue?.count == 2)
        #expect(server.call("clearFaults") == ["faults": []])
        #expect(server.call("status")["faults"] == [])
    }

    @Test func badFaultsAreInvalidParams() {
        let server = InProcessServer(testing: .faults)
        for (params, field) in [
            (["target": "definitions", "response": "explode"], "response"),
            (["target": "definitions", "response": ["status": 99]], "response"),
            (["target": "definitions", "response": ["status": 503, "delay": 1]], "response"),
            (["target": "definitions", "response": ["status": 503, "headers": ["Retry-After": 5]]], "response"),
            (["target": "definitions", "response": "timeout", "times": 0], "times"),
            (["target": "elsewhere", "response": "timeout"], "target"),
        ] as [(JSON, String)] {
            let error = server.request("injectFault", params: params)["error"]
            #expect(error?["code"] == -32602, "\(params)")
            #expect(error?["data"]?["field"]?.stringValue == field, "\(params)")
        }
        #expect(server.call("status")["faults"] == [], "nothing armed by a refusal")
    }

    @Test func sinkFaultsNeedASink() {
        let server = InProcessServer(withSink: false, testing: .faults)
        #expect(
            server.request("injectFault", params: ["target": "sink", "response": "timeout"])["error"]?["data"]?[
                "reason"] == "NOT_ALLOWED")
    }

    @Test func theFaultMethodsRefuseAServerStartedWithoutFaults() {
        let server = InProcessServer(testing: .manualClock)
        for (method, params) in [
            ("injectFault", ["target": "definitions", "response": "timeout"] as JSON), ("clearFaults", [:]),
        ] {
            let error = server.request(method, params: params)["error"]
            #expect(error?["code"] == -32011)
            #expect(error?["data"]?["reason"] == "NOT_ENABLED")
            #expect(error?["message"]?.stringValue?.contains("--faults") == true)
        }
        #expect(server.call("status")["faults"] == nil)
    }
}
