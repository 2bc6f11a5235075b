import BuntingJSON
import Testing

/// Documents that crashed the whole server when it loaded them, at start
/// or at the next poll, so that every process of a fleet reading one died.
@Suite struct HostileDocumentTests {
    /// 5,000 `$evaluators`, each a `$ref` to the one before, listed last-first (134 KB).
    static var chainedAliases: String {
        var members = (1..<5_000).reversed().map { #""e_\#($0)": {"$ref": "e_\#($0 - 1)"}"# }
        members.append(#""e_0": {"==": [{"var": "tier"}, "gold"]}"#)
        return
            #"{"$evaluators": {\#(members.joined(separator: ", "))}, "flags": {"f": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off", "targeting": {"if": [{"$ref": "e_4999"}, "on", "off"]}}, "g": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}}}"#
    }

    /// A server that reads the document when its source changes keeps serving.
    @Test func aServerAdoptsTheChainAtItsNextReadAndKeepsServing() throws {
        let server = InProcessServer(definitions: channelDefinitions()) { $0.pollInterval = 1 }
        server.request("subscribe", params: ["channel": "featureFlags"], id: 1)
        server.request("changeUser", params: ["userId": "ada"], id: 2)
        server.source.setDocument(Self.chainedAliases)
        let (_, update) = try #require(
            server.advance { message in
                message["params"]?["type"] == "DATA_UPDATED"
                    && message["params"]?["cacheSnapshot"]?["featureFlags"]?.arrayValue?.first?["id"] == "g"
            })
        #expect(update["params"]?["reason"] == "AUTO_SERVER_REFRESH")
        let status = server.request("status", id: 3)
        #expect((status["result"]?["definitions"]?["problems"]?.arrayValue?.count ?? 0) > 0)
        server.expectPromptStatusAndTermination()
    }
}
