import BuntingJSON
import Testing
@testable import BuntingRules

/// Reading flag documents and resolving flags the way flagd does.
struct FlagSetTests {
    static let document = json(
        #"""
        {
          "channels": {"featureFlags": true},
          "banners": [{"id": "ignored"}],
          "metadata": {"flagSetId": "shop", "version": "7"},
          "$evaluators": {"isGold": {"==": [{"var": "tier"}, "gold"]}},
          "flags": {
            "checkout": {
              "state": "ENABLED",
              "variants": {"new": {"enabled": true}, "old": {"enabled": false}},
              "defaultVariant": "old",
              "targeting": {"if": [{"$ref": "isGold"}, "new", null]},
              "metadata": {"version": 2, "owner": "payments"}
            },
            "static": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "on", "targeting": {}},
            "off": {"state": "DISABLED", "variants": {"on": true}, "defaultVariant": "on"},
            "no-default": {"state": "ENABLED", "variants": {"a": 1}, "targeting": {"var": "pick"}},
            "bad-rule": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a", "targeting": {"nope": []}},
            "bad-state": {"state": "ON", "variants": {"a": 1}, "defaultVariant": "a"},
            "no-variants": {"state": "ENABLED", "variants": {}, "defaultVariant": "a"},
            "ghost-default": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "b"},
            "bool-default": {"state": "ENABLED", "variants": {"true": "T", "false": "F"}, "defaultVariant": false}
          }
        }
        """#)

    static let context: JSON = ["targetingKey": "u1", "tier": "gold"]

    @Test func problemsArePointedAtAndOtherFlagsStillWork() throws {
        let flags = try FlagSet(document: Self.document)
        #expect(flags.flagKeys.count == 9)
        #expect(
            flags.problems.map(\.pointer) == [
                "/flags/bad-rule/targeting/nope", "/flags/bad-state/state", "/flags/no-variants/variants",
                "/flags/ghost-default/defaultVariant",
            ])
        #expect(flags.metadata == ["flagSetId": "shop", "version": "7"])
        for key in ["bad-rule", "bad-state", "no-variants"] {
            let result = flags.resolve(flagKey: key, context: Self.context, timestamp: 0)
            #expect(result.reason == .error && result.errorCode == .parseError, "\(key)")
        }
        let ghost = flags.resolve(flagKey: "ghost-default", context: Self.context, timestamp: 0)
        #expect(ghost.errorCode == .general)
    }

    @Test func resolvesAsFlagdDoes() throws {
        let flags = try FlagSet(document: Self.document)
        func resolve(_ key: String, _ context: JSON = Self.context, _ type: FlagValueType? = nil) -> FlagResolution {
            flags.resolve(flagKey: key, context: context, timestamp: 1_700_000_000, expecting: type)
        }
        let gold = resolve("checkout")
        #expect(gold.value == ["enabled": true] && gold.variant == "new" && gold.reason == .targetingMatch)
        #expect(gold.metadata == ["flagSetId": "shop", "version": 2, "owner": "payments"])
        let other = resolve("checkout", ["targetingKey": "u2"])
        #expect(other.variant == "old" && other.reason == .default && other.errorCode == nil)
        #expect(resolve("static").reason == .static && resolve("static").value == true)
        let disabled = resolve("off")
        #expect(disabled.reason == .disabled && disabled.value == .null && disabled.variant == nil)
        let noDefault = resolve("no-default")
        #expect(noDefault.reason == .default && noDefault.variant == nil && noDefault.value == .null)
        #expect(resolve("no-default", ["pick": "a"]).value == 1)
        let unknownVariant = resolve("no-default", ["pick": "zzz"])
        #expect(unknownVariant.reason == .error && unknownVariant.errorCode == .general)
        #expect(resolve("no-default", ["pick": ["a"]]).errorCode == .general)
        #expect(resolve("bool-default").variant == "false")
        let missing = resolve("nowhere")
        #expect(missing.reason == .error && missing.errorCode == .flagNotFound && missing.metadata.isEmpty)
        #expect(resolve("static", .null).value == true) // a non-object context counts as empty
    }

    @Test func typedResolutionChecksTheVariant() throws {
        let flags = try FlagSet(document: Self.document)
        #expect(flags.resolve(flagKey: "static", context: .null, timestamp: 0, expecting: .boolean).value == true)
        let mismatch = flags.resolve(flagKey: "static", context: .null, timestamp: 0, expecting: .string)
        #expect(mismatch.errorCode == .typeMismatch && mismatch.value == .null && mismatch.variant == nil)
        #expect(
            flags.resolve(flagKey: "checkout", context: Self.context, timestamp: 0, expecting: .object).variant == "new"
        )
        #expect(
            flags.resolve(flagKey: "no-default", context: .null, timestamp: 0, expecting: .string).reason == .default)
        #expect(flags.resolve(flagKey: "off", context: .null, timestamp: 0, expecting: .string).reason == .disabled)
        #expect(
            flags.resolve(flagKey: "no-default", context: ["pick": "a"], timestamp: 0, expecting: .float).value == 1)
        #expect(
            flags.resolve(flagKey: "no-default", context: ["pick": "a"], timestamp: 0, expecting: .integer).value == 1)
    }

    /// A whole real converts to an integer without loss; a fraction does not.
    @Test func typedIntegersTakeWholeRealsAndNoFractions() throws {
        let flags = try FlagSet(
            document: json(
                #"""
                {"flags": {"n": {"state": "ENABLED", "variants": {"two": 2.0, "half": 0.5, "big": 1e300}, "defaultVariant": "two",
                                 "targeting": {"var": "pick"}}}}
                """#))
        let two = flags.resolve(flagKey: "n", context: .null, timestamp: 0, expecting: .integer)
        #expect(two.value == .integer(2) && two.variant == "two" && two.reason == .default)
        #expect(flags.resolve(flagKey: "n", context: .null, timestamp: 0, expecting: .float).value == .real(2.0))
        #expect(flags.resolve(flagKey: "n", context: .null, timestamp: 0).value == .real(2.0))
        for pick in ["half", "big"] {
            let result = flags.resolve(
                flagKey: "n", context: ["pick": .string(pick)], timestamp: 0, expecting: .integer)
            #expect(result.errorCode == .typeMismatch && result.value == .null, "\(pick)")
        }
    }

    /// A `$ref` to an evaluator that does not exist, or to one that cannot
    /// compile, makes that flag ERROR / PARSE_ERROR; the other flags resolve.
    @Test func unknownReferencesBreakOnlyTheirFlag() throws {
        let flags = try FlagSet(
            document: json(
                #"""
                {"$evaluators": {"ok": {"==": [{"var": "tier"}, "gold"]}, "broken": {"$ref": "nowhere"}},
                 "flags": {
                   "missing": {"state": "ENABLED", "variants": {"a": 1, "b": 2}, "defaultVariant": "a",
                               "targeting": {"if": [true, "a", {"$ref": "nowhere"}]}},
                   "via-broken": {"state": "ENABLED", "variants": {"a": 1, "b": 2}, "defaultVariant": "a",
                                  "targeting": {"if": [{"$ref": "broken"}, "a", "b"]}},
                   "fine": {"state": "ENABLED", "variants": {"a": 1, "b": 2}, "defaultVariant": "b",
                            "targeting": {"if": [{"$ref": "ok"}, "a", "b"]}}
                 }}
                """#))
        for key in ["missing", "via-broken"] {
            let result = flags.resolve(flagKey: key, context: ["tier": "gold"], timestamp: 0)
            #expect(result.reason == .error && result.errorCode == .parseError, "\(key)")
        }
        let fine = flags.resolve(flagKey: "fine", context: ["tier": "gold"], timestamp: 0)
        #expect(fine.variant == "a" && fine.reason == .targetingMatch)
        #expect(Set(flags.unusableFlags.keys) == ["missing", "via-broken"])
        #expect(flags.unusableFlags["missing"]?.pointer == "/flags/missing/targeting/if/2/$ref")
        #expect(flags.problems.map(\.pointer).contains("/$evaluators/broken/$ref"))
    }

    @Test func resolveAllKeepsDocumentOrder() throws {
        let flags = try FlagSet(document: Self.document)
        let all = flags.resolveAll(context: Self.context, timestamp: 0)
        #expect(all.map(\.flagKey) == flags.flagKeys)
        for result in all {
            #expect(result == flags.resolve(flagKey: result.flagKey, context: Self.context, timestamp: 0))
        }
    }

    @Test func flagsMayBeAnArrayWithKeys() throws {
        let flags = try FlagSet(
            document: json(
                #"""
                {"flags": [
                  {"key": "a", "state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"},
                  {"key": "a", "state": "ENABLED", "variants": {"on": false}, "defaultVariant": "on"},
                  {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}
                ]}
                """#))
        #expect(flags.flagKeys == ["a"])
        #expect(flags.problems.map(\.pointer) == ["/flags/1/key", "/flags/2/key"])
        #expect(flags.resolve(flagKey: "a", context: .null, timestamp: 0).value == true)
    }

    @Test func unusableDocumentsThrow() {
        for (document, pointer) in [
            (json("[]"), ""), (json(#"{"banners": []}"#), ""), (json(#"{"flags": 3}"#), "/flags"),
            (json(#"{"flags": {}, "$evaluators": []}"#), "/$evaluators"),
            (json(#"{"flags": {}, "metadata": 1}"#), "/metadata"),
        ] {
            do {
                _ = try FlagSet(document: document, pointerPrefix: "")
                Issue.record("\(document.encodedString()) was accepted")
            } catch {
                #expect(error.pointer == pointer)
            }
        }
    }

    @Test func timestampAndFlagKeyReachTheRule() throws {
        let flags = try FlagSet(
            document: json(
                #"""
                {"flags": {"clock": {"state": "ENABLED", "variants": {"late": 1, "early": 0}, "defaultVariant": "early",
                  "targeting": {"if": [{"and": [{">": [{"var": "$flagd.timestamp"}, 100]}, {"==": [{"var": "$flagd.flagKey"}, "clock"]}]}, "late", "early"]}}}}
                """#))
        #expect(flags.resolve(flagKey: "clock", context: .null, timestamp: 101).variant == "late")
        #expect(flags.resolve(flagKey: "clock", context: .null, timestamp: 100).variant == "early")
    }

    @Test func evaluationFailuresAreGeneralErrors() throws {
        let flags = try FlagSet(
            document: json(
                #"""
                {"flags": {"loop": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a",
                  "targeting": {"if": [{"map": [{"var": "xs"}, {"var": ""}]}, "a", "a"]}}}}
                """#))
        let xs = JSON.array((0..<50).map { JSON.int($0) })
        let result = flags.resolve(
            flagKey: "loop", context: ["xs": xs], timestamp: 0, limits: EvaluationLimits(maxSteps: 10))
        #expect(result.errorCode == .general && result.errorMessage?.contains("work budget of 10 units") == true)
    }
}
