import BuntingJSON
import Foundation
import Testing

/// Documents that crashed the whole process when it loaded them, at start
/// or at the next poll, so that every process of a fleet reading one died.
@Suite struct HostileDocumentTests {
    /// 5,000 `$evaluators`, each a `$ref` to the one before, listed last-first (134 KB).
    static var chainedAliases: String {
        var members = (1..<5_000).reversed().map { #""e_\#($0)": {"$ref": "e_\#($0 - 1)"}"# }
        members.append(#""e_0": {"==": [{"var": "tier"}, "gold"]}"#)
        return
            #"{"$evaluators": {\#(members.joined(separator: ", "))}, "flags": {"f": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off", "targeting": {"if": [{"$ref": "e_4999"}, "on", "off"]}}, "g": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}}}"#
    }

    @Test func validateReportsAChainOfFiveThousandAliasesInsteadOfCrashing() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(Self.chainedAliases)
        let result = try runBunting(["validate", workspace.definitions.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("refers through more than 64 $refs in a row"))
    }

    /// A server that reads the document when its file changes keeps serving.
    @Test func aServerAdoptsTheChainAtItsNextReadAndKeepsServing() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(e2eDefinitions())
        let server = try ServerProcess(framing: .ndjson, arguments: ["--definitions", workspace.definitions.path])
        _ = try server.request("subscribe", params: ["channel": "featureFlags"], id: 1)
        _ = try server.request("changeUser", params: ["userId": "ada"], id: 2)
        try workspace.writeDefinitions(Self.chainedAliases)
        let (_, update) = try server.waitForMessage("the new document's flags") { message in
            message["params"]?["type"] == "DATA_UPDATED"
                && message["params"]?["cacheSnapshot"]?["featureFlags"]?.arrayValue?.first?["id"] == "g"
        }
        #expect(update["params"]?["reason"] == "AUTO_SERVER_REFRESH")
        let status = try server.request("status", id: 3)
        #expect((status["result"]?["definitions"]?["problems"]?.arrayValue?.count ?? 0) > 0)
        try server.expectPromptStatusAndTermination()
    }
}
