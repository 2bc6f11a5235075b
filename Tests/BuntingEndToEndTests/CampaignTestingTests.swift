import BuntingJSON
import Foundation
import Testing

/// What a script testing its campaigns runs: `eval` with RFC 3339 times,
/// `--explain` and `--summary`, the problems of a document in serve's
/// words, and `serve --clock manual --faults` wired in the real binary.
@Suite struct CampaignTestingTests {
    static let document = """
        {"flags": {"rollout": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                               "targeting": {"fractional": [["on", 25], ["off", 75]]}}},
         "contentCards": [
           {"id": "advent", "type": "classic", "title": "Advent", "extras": {}, "created": 1700000000,
            "schedule": {"start": 1796720400}},
           {"id": "broken", "type": "classic", "title": "Broken", "extras": {}, "created": 1700000000, "targeting": {"nope": 1}}]}
        """

    func workspace() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.writeDefinitions(Self.document)
        return workspace
    }

    @Test func evalTakesRFC3339TimesAsUnixSeconds() throws {
        let workspace = try workspace()
        let context = #"{"targetingKey":"ada"}"# + "\n"
        let seconds = try runBunting(
            ["eval", "--definitions", workspace.definitions.path, "--at", "1796720400"], input: context)
        let date = try runBunting(
            ["eval", "--definitions", workspace.definitions.path, "--at", "2026-12-08T09:00:00Z"], input: context)
        #expect(date.status == 0)
        #expect(date.stdout == seconds.stdout)
        #expect(date.stdout.contains(#""id":"advent""#), "shown from its start")
        let bad = try runBunting(
            ["eval", "--definitions", workspace.definitions.path, "--at", "next tuesday"], input: context)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("RFC 3339"))
    }

    @Test func evalExplainSaysWhyEachItemIsInOrOut() throws {
        let workspace = try workspace()
        let result = try runBunting(
            ["eval", "--definitions", workspace.definitions.path, "--at", "2026-12-08T08:59:59Z", "--explain"],
            input: #"{"targetingKey":"ada"}"# + "\n")
        let line = try JSON.parse(Array(result.stdout.utf8))
        let cards = line["explain"]?["contentCards"]?.arrayValue ?? []
        #expect(cards.map { $0["outcome"] } == ["NOT_STARTED", "INVALID"])
        #expect(cards.first?["why"] == "its schedule starts at 2026-12-08T09:00:00Z")
        #expect(line["explain"]?["flags"]?["rollout"]?["rule"] == "/flags/rollout/targeting")
    }

    @Test func evalSummaryCountsWhatManyContextsGot() throws {
        let workspace = try workspace()
        let contexts = (0..<4000).map { #"{"targetingKey":"user-\#($0)"}"# }.joined(separator: "\n") + "\n"
        let json = try runBunting(
            ["eval", "--definitions", workspace.definitions.path, "--summary=json"], input: contexts)
        #expect(json.status == 0)
        let summary = try JSON.parse(Array(json.stdout.utf8))
        #expect(summary["contexts"] == 4000)
        let on = summary["flags"]?["rollout"]?["on"]?["share"]?.doubleValue ?? 0
        #expect(on > 0.23 && on < 0.27, "about a quarter: \(on)")
        #expect(summary["contentCards"]?["advent"]?["count"]?.integerValue.map { $0 == 0 || $0 == 4000 } == true)
        let table = try runBunting(["eval", "--definitions", workspace.definitions.path, "--summary"], input: contexts)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "4000 contexts")
        #expect(lines.contains { $0.hasPrefix("rollout") && $0.contains(" on ") && $0.hasSuffix("%") })
        #expect(try runBunting(["eval", "--definitions", workspace.definitions.path, "--summary=csv"]).status == 64)
        #expect(
            try runBunting(["eval", "--definitions", workspace.definitions.path, "--summary", "--explain"]).status == 64
        )
    }

    /// A script reads the same words from `eval` as from serve's log.
    @Test func evalReportsTheProblemsServeLogsInItsWords() throws {
        let workspace = try workspace()
        let eval = try runBunting(["eval", "--definitions", workspace.definitions.path], input: "")
        // A document never seen is checked in full once the first replies are
        // out, and its problems logged then; status waits for them.
        let serve = try runBunting(
            ["serve", "--definitions", workspace.definitions.path, "--storage", ":memory:"],
            input: #"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n")
        let reported = eval.stderr.split(separator: "\n").filter { $0.contains("loaded with 1 problem") }
        #expect(reported.count == 1)
        #expect(reported.first?.contains("/contentCards/1/targeting/nope") == true)
        #expect(serve.stderr.split(separator: "\n").contains { $0 == reported.first }, "serve: \(serve.stderr)")
    }

    @Test func serveStartsTheManualClockAtTheTimeGiven() throws {
        let status = #"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n"
        let started = try runBunting(
            ["serve", "--storage", ":memory:", "--clock", "manual=2026-12-08T09:00:00Z"], input: status)
        let reply = try JSON.parse(Array(started.stdout.utf8))
        #expect(reply["result"]?["clock"] == ["kind": "manual", "time": 1_796_720_400, "date": "2026-12-08T09:00:00Z"])
        for bad in ["sometimes", "manual=soon", "manual="] {
            let refused = try runBunting(["serve", "--storage", ":memory:", "--clock", bad], input: status)
            #expect(refused.status == 64, "\(bad)")
        }
    }

    /// The real binary: a file source behind the fault decorator, its
    /// fetches on worker threads that the manual clock waits for.
    @Test func theBinaryAnswersAdvanceClockAfterTheEventsOfTheRetries() throws {
        let workspace = try workspace()
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"channel":"contentCards"}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"changeUser","params":{"userId":"ada"}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"injectFault","params":{"target":"definitions","response":{"status":503},"times":2}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"refresh","params":{"channel":"contentCards"}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"advanceClock","params":{"seconds":10}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"status"}"#,
        ]
        let result = try runBunting(
            [
                "serve", "--storage", ":memory:", "--definitions", workspace.definitions.path, "--clock",
                "manual=1796720400", "--faults",
                "--poll-interval", "3600",
            ],
            input: requests.joined(separator: "\n") + "\n")
        let messages = try result.stdout.split(separator: "\n").map { try JSON.parse(Array($0.utf8)) }
        let advance = try #require(messages.firstIndex { $0["id"] == 5 })
        let refresh = try #require(messages.firstIndex { $0["id"] == 4 })
        let between = messages[refresh..<advance].compactMap { $0["params"] }.map {
            "\($0["type"]?.stringValue ?? "") \($0["retryState"]?.stringValue ?? $0["reason"]?.stringValue ?? "")"
        }
        #expect(between == ["ERROR SDK_WILL_RETRY", "ERROR SDK_WILL_RETRY", "DATA_UPDATED MANUAL_SERVER_REFRESH"])
        #expect(messages[advance]["result"]?["time"] == 1_796_720_410)
        #expect(messages.first { $0["id"] == 6 }?["result"]?["faults"] == [])
    }
}
