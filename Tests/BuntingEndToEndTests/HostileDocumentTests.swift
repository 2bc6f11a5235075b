import BuntingJSON
import Foundation
import Testing

/// Documents that crashed the whole process when it loaded them, at start
/// or at the next poll, so that every process of a fleet reading one died.
/// (A server adopting one at its next read is checked in process,
/// `BuntingServerTests.HostileDocumentTests`.)
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
}
