import BuntingJSON
@testable import BuntingRules

/// Generated flag documents and evaluation contexts for the differential
/// tests against flagd-core: typical targeting rules, and contexts whose
/// attributes vary in presence, type and value.
///
/// The contexts stay inside what JavaScript and the Python oracle agree on:
/// no "" where a number is compared, no null inside a `cat`, no booleans
/// compared with numbers by `===`/`in` (Python equates True and 1).
enum DifferentialFixtures {
    static let timestamp: Int64 = 1_750_000_000

    /// The evaluators of the generated document.
    static let evaluatorNames: Set<String> = ["goldAdult", "isGold", "brokenRef"]

    /// Flags with hand-written rules, then families with random parameters.
    static func document(seed: UInt64) -> (document: JSON, types: [String: FlagValueType]) {
        var random = SeededGenerator(seed: seed)
        var flags = JSONObject()
        var types: [String: FlagValueType] = [:]
        let onOff: JSON = ["on": true, "off": false]

        func add(
            _ key: String, _ variants: JSON, _ defaultVariant: JSON?, _ targeting: JSON?,
            state: String = "ENABLED", metadata: JSON? = nil
        ) {
            addFlag(key, variants, defaultVariant, targeting, state, metadata)
        }
        func addFlag(
            _ key: String, _ variants: JSON, _ defaultVariant: JSON?, _ targeting: JSON?,
            _ state: String, _ metadata: JSON?
        ) {
            var flag: JSONObject = ["state": .string(state), "variants": variants]
            if let defaultVariant { flag["defaultVariant"] = defaultVariant }
            if let targeting { flag["targeting"] = targeting }
            if let metadata { flag["metadata"] = metadata }
            flags[key] = .object(flag)
        }

        add("static-bool", onOff, "on", nil, metadata: ["team": "growth", "version": 3])
        add("static-empty-targeting", ["a": "A", "b": "B"], "b", .object(JSONObject()))
        add("disabled", onOff, "on", json(#"{"if": [true, "off", "on"]}"#), state: "DISABLED")
        add(
            "no-default-variant", ["gold": "G", "other": "O"], nil,
            json(#"{"if": [{"==": [{"var": "tier"}, "gold"]}, "gold", null]}"#))
        add(
            "bool-default-variant", ["true": "yes", "false": "no"], true,
            json(#"{"if": [{"==": [{"var": "tier"}, "silver"]}, false, null]}"#))
        add("default-variant-undefined", ["a": 1, "b": 2], "zzz", nil)
        add("tier-equals", onOff, "off", json(#"{"if": [{"==": [{"var": "tier"}, "gold"]}, "on", "off"]}"#))
        add(
            "tier-strict", ["g": "gold", "s": "silver", "x": "none"], "x",
            json(#"{"if": [{"===": [{"var": "tier"}, "gold"]}, "g", {"!==": [{"var": "tier"}, "silver"]}, "x", "s"]}"#))
        add(
            "age-bands", ["adult": "A", "teen": "T", "child": "C"], "adult",
            json(#"{"if": [{">=": [{"var": "age"}, 18]}, "adult", {"<": [{"var": "age"}, 13]}, "child", "teen"]}"#))
        add("age-between", onOff, "off", json(#"{"if": [{"<=": [20, {"var": "age"}, 40]}, "on", "off"]}"#))
        add(
            "country-in", ["eu": "EU", "na": "NA", "row": "ROW"], "row",
            json(
                #"{"if": [{"in": [{"var": "country"}, ["DE", "FR", "IT", "ES", "NL"]]}, "eu", {"in": [{"var": "country"}, ["US", "CA"]]}, "na", "row"]}"#
            ))
        add("plan-contains", onOff, "off", json(#"{"if": [{"in": ["beta", {"var": "plan"}]}, "on", "off"]}"#))
        add(
            "email-starts", ["admin": "A", "user": "U"], "user",
            json(#"{"if": [{"starts_with": [{"var": "email"}, "admin"]}, "admin", "user"]}"#))
        add("email-ends", onOff, "off", json(#"{"ends_with": [{"var": "email"}, "@example.com"]}"#))
        add(
            "semver-ge", ["new": "N", "old": "O"], "old",
            json(#"{"if": [{"sem_ver": [{"var": "version"}, ">=", "2.1.0"]}, "new", "old"]}"#))
        add(
            "semver-chain", ["eq": 1, "caret": 2, "tilde": 3, "lt": 4, "ne": 5], "ne",
            json(
                #"{"if": [{"sem_ver": [{"var": "version"}, "=", "v2.0"]}, "eq", {"sem_ver": [{"var": "version"}, "~", "1.2.0"]}, "tilde", {"sem_ver": [{"var": "version"}, "^", "2.0.0"]}, "caret", {"sem_ver": [{"var": "version"}, "<", "1.0.0-rc.1"]}, "lt", {"sem_ver": [{"var": "version"}, "!=", "3.0.0+build.7"]}, "ne", null]}"#
            ))
        add(
            "semver-le-gt", onOff, "off",
            json(
                #"{"or": [{"and": [{"sem_ver": [{"var": "version"}, "<=", "1.5"]}, "on"]}, {"and": [{"sem_ver": [{"var": "version"}, ">", "3.0.0-alpha"]}, "on"]}, "off"]}"#
            ))
        add(
            "fractional-shorthand", ["a": "A", "b": "B", "c": "C"], "a",
            json(#"{"fractional": [["a", 50], ["b", 30], ["c", 20]]}"#))
        add("fractional-unweighted", ["x": 1, "y": 2, "z": 3], "x", json(#"{"fractional": [["x"], ["y"], ["z"]]}"#))
        add(
            "fractional-zero-negative", ["a": "A", "b": "B", "c": "C"], "a",
            json(#"{"fractional": [["a", 0], ["b", -5], ["c", 10], ["a", 3]]}"#))
        add(
            "fractional-by-email", ["red": "R", "blue": "B"], "red",
            json(#"{"fractional": [{"var": "email"}, ["red", 1], ["blue", 1]]}"#))
        add(
            "fractional-by-bucket", ["red": "R", "blue": "B", "green": "G"], "green",
            json(#"{"fractional": [{"var": "bucket"}, ["red", 10], ["blue", 20], ["green", 70]]}"#))
        add(
            "fractional-by-cat", ["one": 1, "two": 2], "one",
            json(
                #"{"fractional": [{"cat": [{"var": "$flagd.flagKey"}, {"var": "userId"}]}, ["one", 25], ["two", 75]]}"#)
        )
        add(
            "fractional-nested", ["a": "A", "b": "B", "c": "C"], "c",
            json(#"{"if": [{"==": [{"var": "tier"}, "gold"]}, {"fractional": [["a", 1], ["b", 1]]}, "c"]}"#))
        add(
            "fractional-bool-variants", ["true": "T", "false": "F"], "false",
            json(#"{"fractional": [[true, 40], [false, 60]]}"#))
        add(
            "fractional-computed-weight", ["on": true, "off": false], "off",
            json(#"{"fractional": [["on", {"-": [{"var": "$flagd.timestamp"}, 1749999900]}], ["off", 100]]}"#))
        add("ref-gold", ["gold": "G", "std": "S"], "std", json(#"{"if": [{"$ref": "isGold"}, "gold", "std"]}"#))
        add("ref-nested", ["yes": true, "no": false], "no", json(#"{"if": [{"$ref": "goldAdult"}, "yes", "no"]}"#))
        add(
            "missing-variant", ["known": "K"], "known",
            json(#"{"if": [{"==": [{"var": "tier"}, "bronze"]}, "ghost", "known"]}"#))
        add("bool-result", ["true": "T", "false": "F"], "false", json(#"{"var": "beta"}"#))
        add("number-result", ["1": "one", "2": "two"], "1", json(#"{"if": [{"var": "vip"}, 1, 2]}"#))
        add(
            "object-variants",
            [
                "new": ["enabled": true, "properties": ["color": ["type": "string", "value": "green"]]],
                "old": ["enabled": false, "properties": .object(JSONObject())],
            ], "old", json(#"{"if": [{"$ref": "isGold"}, "new", "old"]}"#))
        add(
            "timestamp", ["past": -1, "future": 1, "now": 0], "now",
            json(
                #"{"if": [{">": [{"var": "$flagd.timestamp"}, {"var": "time"}]}, "past", {"<": [{"var": "$flagd.timestamp"}, {"var": "time"}]}, "future", "now"]}"#
            ))
        add(
            "flag-key", ["self": "S", "other": "O"], "other",
            json(#"{"if": [{"==": [{"var": "$flagd.flagKey"}, "flag-key"]}, "self", "other"]}"#))
        add(
            "missing-attributes", ["complete": "C", "incomplete": "I"], "complete",
            json(#"{"if": [{"missing": ["email", "country"]}, "incomplete", "complete"]}"#))
        add(
            "missing-some", ["ok": "O", "few": "F"], "ok",
            json(#"{"if": [{"missing_some": [2, ["email", "country", "tier"]]}, "few", "ok"]}"#))
        add(
            "groups-some", onOff, "off",
            json(#"{"if": [{"some": [{"var": "groups"}, {"==": [{"var": ""}, "beta"]}]}, "on", "off"]}"#))
        add("not-beta", onOff, "off", json(#"{"if": [{"!": {"var": "beta"}}, "on", "off"]}"#))
        add("typed-string-as-boolean", ["a": "A", "b": "B"], "a", json(#"{"if": [{"var": "vip"}, "b", "a"]}"#))
        types["typed-string-as-boolean"] = .boolean
        add(
            "typed-integer-as-float", ["one": 1, "half": 0.5], "one", json(#"{"if": [{"var": "vip"}, "half", "one"]}"#))
        types["typed-integer-as-float"] = .float
        add("typed-real-as-integer", ["one": 1, "two": 2.0], "one", json(#"{"if": [{"var": "vip"}, "two", "one"]}"#))
        types["typed-real-as-integer"] = .integer
        types["object-variants"] = .object
        types["static-bool"] = .boolean

        // Families with random parameters.
        for index in 0..<6 {
            var fractions: [JSON] = []
            for variant in ["a", "b", "c", "d"].prefix(Int.random(in: 1...4, using: &random)) {
                fractions.append([.string(variant), .int(Int.random(in: -2...100, using: &random))])
            }
            let bucketing: [JSON] = random.chance(0.5) ? [] : [json(#"{"var": "email"}"#)]
            add(
                "random-fractional-\(index)", ["a": "A", "b": "B", "c": "C", "d": "D"], "a",
                ["fractional": .array(bucketing + fractions)])
        }
        for index in 0..<4 {
            let operation = random.pick(["=", "!=", "<", "<=", ">", ">=", "^", "~"])
            let threshold = random.pick(["1.0.0", "2.0", "v2.1.3", "3.0.0-beta.2", "1.10.0", "0.9"])
            add(
                "random-semver-\(index)", onOff, "off",
                ["if": [["sem_ver": [["var": "version"], .string(operation), .string(threshold)]], "on", "off"]])
        }
        for index in 0..<4 {
            let operation = random.pick([">", ">=", "<", "<=", "==", "!="])
            let threshold = JSON.int(Int.random(in: 10...70, using: &random))
            add(
                "random-age-\(index)", onOff, "off",
                ["if": [[.init(stringLiteral: operation): [["var": "age"], threshold]], "on", "off"]])
        }

        brokenAndEdgeFlags(addFlag, &types)

        let evaluators: JSON = [
            // goldAdult refers to isGold, defined after it: flagd-core substitutes in order.
            "goldAdult": ["and": [["$ref": "isGold"], [">=": [["var": "age"], 18]]]],
            "isGold": ["==": [["var": "tier"], "gold"]],
            // An evaluator whose own `$ref` names nothing: the flags using it
            // are PARSE_ERROR, the others unaffected.
            "brokenRef": ["$ref": "nowhere"],
        ]
        let document: JSON = [
            "$schema": "https://flagd.dev/schema/v0/flags.json",
            "metadata": ["flagSetId": "differential", "version": "1", "live": true, "weight": 1.5],
            "flags": .object(flags),
            "$evaluators": evaluators,
        ]
        return (document, types)
    }

    /// Flags that use flagd's operators in ways they cannot answer (each
    /// gives null, so the default variant, reason DEFAULT), edge cases of
    /// `fractional`, partial, prefixed and numeric versions, `$ref`s to
    /// evaluators that do not exist, typed resolution and metadata.
    static func brokenAndEdgeFlags(
        _ add: (String, JSON, JSON?, JSON?, String, JSON?) -> Void, _ types: inout [String: FlagValueType]
    ) {
        let answers: JSON = ["true": "T", "false": "F", "fallback": "D"]
        func bare(_ key: String, _ rule: String) { add(key, answers, "fallback", json(rule), "ENABLED", nil) }

        // sem_ver: wrong argument counts, comparisons it does not know, versions it cannot read.
        bare("semver-bare", #"{"sem_ver": [{"var": "version"}, ">=", "2.0"]}"#)
        bare("semver-two-arguments", #"{"sem_ver": [{"var": "version"}, "="]}"#)
        bare("semver-four-arguments", #"{"sem_ver": [{"var": "version"}, "=", "1.0.0", "2.0.0"]}"#)
        bare("semver-one-argument", #"{"sem_ver": {"var": "version"}}"#)
        bare("semver-unknown-comparison", #"{"sem_ver": [{"var": "version"}, "===", "1.0.0"]}"#)
        bare("semver-number-comparison", #"{"sem_ver": [{"var": "version"}, 1, "1.0.0"]}"#)
        bare("semver-computed-comparison", #"{"sem_ver": [{"var": "version"}, {"var": "op"}, "1.2.0"]}"#)
        bare("semver-literal-left", #"{"sem_ver": ["v1.2", "<", {"var": "version"}]}"#)
        bare("semver-numeric-right", #"{"sem_ver": [{"var": "version"}, ">=", 1.5]}"#)
        bare("semver-integer-right", #"{"sem_ver": [{"var": "version"}, "=", 2]}"#)
        bare("semver-partial-right", #"{"sem_ver": [{"var": "version"}, "^", "1"]}"#)
        bare("semver-prefixed-partial-right", #"{"sem_ver": [{"var": "version"}, "~", "V1.2"]}"#)
        bare("semver-partial-suffix-right", #"{"sem_ver": [{"var": "version"}, "<", "2.1-rc.1"]}"#)
        bare("semver-unreadable-right", #"{"sem_ver": [{"var": "version"}, "<", "2.x"]}"#)
        add(
            "semver-in-if", ["new": "N", "old": "O", "fallback": "D"], "fallback",
            json(#"{"if": [{"sem_ver": [{"var": "version"}, ">", "1"]}, "new", "old"]}"#), "ENABLED", nil)

        // starts_with / ends_with: wrong argument counts, non-string arguments.
        bare("starts-with-bare", #"{"starts_with": [{"var": "id"}, "abc"]}"#)
        bare("starts-with-one-argument", #"{"starts_with": [{"var": "email"}]}"#)
        bare("starts-with-single-value", #"{"starts_with": "abc"}"#)
        bare("ends-with-three-arguments", #"{"ends_with": [{"var": "email"}, "a", "b"]}"#)
        bare("ends-with-number-affix", #"{"ends_with": [{"var": "id"}, 3]}"#)
        bare("ends-with-bare", #"{"ends_with": [{"var": "id"}, "xyz"]}"#)

        // fractional: no buckets, no weight, weights it cannot read, values it cannot bucket by.
        let abc: JSON = ["a": "A", "b": "B", "fallback": "D"]
        func fractional(_ key: String, _ rule: String) { add(key, abc, "fallback", json(rule), "ENABLED", nil) }
        fractional("fractional-no-arguments", #"{"fractional": []}"#)
        fractional("fractional-bucketing-value-only", #"{"fractional": [{"var": "email"}]}"#)
        fractional("fractional-zero-total", #"{"fractional": [["a", 0], ["b", 0]]}"#)
        fractional("fractional-zero-total-by-email", #"{"fractional": [{"var": "email"}, ["a", 0], ["b", -3]]}"#)
        fractional("fractional-whole-real-weight", #"{"fractional": [["a", 50.0], ["b", 50]]}"#)
        fractional(
            "fractional-whole-real-weight-by-email", #"{"fractional": [{"var": "email"}, ["a", 1.0], ["b", 3]]}"#)
        fractional("fractional-fraction-weight", #"{"fractional": [["a", 25.5], ["b", 1]]}"#)
        fractional("fractional-string-weight", #"{"fractional": [["a", "25"], ["b", 1]]}"#)
        fractional("fractional-boolean-weight", #"{"fractional": [["a", true], ["b", 1]]}"#)
        fractional("fractional-null-weight", #"{"fractional": [{"var": "email"}, ["a", null], ["b", 1]]}"#)
        fractional("fractional-three-elements", #"{"fractional": [["a", 1, 2], ["b", 1]]}"#)
        fractional("fractional-not-a-fraction", #"{"fractional": [{"var": "email"}, "b", ["a", 1]]}"#)
        fractional("fractional-by-missing-value", #"{"fractional": [{"var": "nothing"}, ["a", 1], ["b", 1]]}"#)
        fractional(
            "fractional-computed-variant", #"{"fractional": [{"var": "email"}, [{"var": "plan"}, 1], ["b", 1]]}"#)
        add(
            "fractional-null-variant", ["on": "ON", "off": "OFF"], "off",
            json(#"{"if": [{"fractional": [["yes", 50], [null, 50]]}, "on", "off"]}"#), "ENABLED", nil)

        // `$ref`s to evaluators that do not exist: that flag is PARSE_ERROR, not the set.
        add(
            "ref-missing", ["a": "A", "b": "B"], "a", json(#"{"if": [{"$ref": "nowhere"}, "a", "b"]}"#), "ENABLED", nil)
        add(
            "ref-missing-untaken", ["a": "A", "b": "B"], "b", json(#"{"if": [true, "a", {"$ref": "nowhere"}]}"#),
            "ENABLED", nil)
        add(
            "ref-broken-evaluator", ["a": "A", "b": "B"], "a", json(#"{"if": [{"$ref": "brokenRef"}, "a", "b"]}"#),
            "ENABLED", nil)

        // Typed resolution.
        add(
            "typed-fraction-as-integer", ["half": 0.5, "one": 1], "one",
            json(#"{"if": [{"var": "vip"}, "half", "one"]}"#), "ENABLED", nil)
        types["typed-fraction-as-integer"] = .integer
        add(
            "typed-array-as-object", ["list": [1, 2], "map": ["a": 1]], "map",
            json(#"{"if": [{"var": "vip"}, "list", "map"]}"#), "ENABLED", nil)
        types["typed-array-as-object"] = .object
        add(
            "typed-integer-as-boolean", ["one": 1, "yes": true], "yes",
            json(#"{"if": [{"var": "vip"}, "one", "yes"]}"#), "ENABLED", nil)
        types["typed-integer-as-boolean"] = .boolean
        add(
            "typed-default-without-variant", ["one": 1], nil, json(#"{"if": [{"var": "vip"}, "one", null]}"#),
            "ENABLED", nil)
        types["typed-default-without-variant"] = .string

        // Metadata: the flag's own over the flag set's.
        add(
            "metadata-override", ["on": true, "off": false], "on", nil, "ENABLED",
            ["version": 7, "owner": "growth", "ratio": 0.25, "live": false])
        add(
            "metadata-empty", ["on": true, "off": false], "off", json(#"{"if": [{"var": "vip"}, "on", "off"]}"#),
            "ENABLED",
            .object(JSONObject()))
        add("metadata-disabled", ["on": true, "off": false], "on", nil, "DISABLED", ["owner": "ops"])
    }

    /// A random JSON value exercising every CBOR width: integers around each
    /// size boundary, reals exact in half, single or double precision,
    /// strings and keys of many lengths, nested arrays and objects.
    static func randomBucketingValue(_ random: inout SeededGenerator, depth: Int) -> JSON {
        switch Int.random(in: 0..<(depth < 2 ? 9 : 6), using: &random) {
        case 0:
            let length = random.pick([0, 1, 5, 23, 24, 30, 255, 256, 300])
            return .string(String((0..<length).map { _ in random.pick(Array("abcxyzé€🙂 -_")) }))
        case 1:
            let magnitude = random.pick([
                Int64(23), 24, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, Int64.max,
            ])
            let number = Int64.random(in: 0...magnitude, using: &random)
            return .integer(random.chance(0.3) ? -number - 1 : number)
        case 2:
            // Exact in half precision: small multiples of 1/64.
            return .real(Double(Int.random(in: -4096...4096, using: &random)) / 64 + 1 / 128)
        case 3:
            // Exact in single precision, not in half.
            return .real(Double(Float(bitPattern: UInt32.random(in: 0x3380_0000...0x7f00_0000, using: &random))))
        case 4:
            return .real(Double.random(in: -1e12...1e12, using: &random))
        case 5:
            return random.pick([true, false, 0.0, -0.0, 1e300, 1.5e-300, 65504.0, 65520.5] as [JSON])
        case 6, 7:
            if random.chance(0.5) {
                return .array(
                    (0..<Int.random(in: 0...4, using: &random)).map { _ in
                        randomBucketingValue(&random, depth: depth + 1)
                    })
            }
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                let key = String((0..<random.pick([0, 1, 2, 3, 24, 25])).map { _ in random.pick(Array("abAB_é")) })
                object[key] = randomBucketingValue(&random, depth: depth + 1)
            }
            return .object(object)
        default:
            return .null
        }
    }

    /// Random contexts. Every attribute is sometimes absent.
    static func contexts(count: Int, seed: UInt64) -> [JSON] {
        var random = SeededGenerator(seed: seed)
        let names = ["ana", "bo", "chen", "dmitri", "eve", "admin", "adminx", "zoë", "ユーザー", "🙂", "o'neil"]
        let domains = ["example.com", "example.org", "test.io", "EXAMPLE.com", "example.com.evil"]
        let versions: [JSON] = [
            "1.0.0", "2.0.0", "2.0", "v2.0.0", "V2.1.3", "2.1.0", "2.1", "2.10.1", "1.2.9", "1.2", "1.3.0", "3.0.0",
            "3.0.0-alpha", "3.0.0-alpha.1", "3.0.0-beta.2", "3.0.0-rc.1", "3.0.0+build.7", "1.0.0-rc.1", "1.0.0-rc.2",
            "1.0.0-0", "1.0.0-alpha.beta", "0.9.9", "1.5.0", "1.5", "1", "2", "01.2.3", "1.2.3.4", "", "latest",
            "1.2.3-", "1.2.3+", "2.0.0-rc.1+meta", 2, 3, 1.5, 2.5, true, .null,
            // Partial and prefixed versions, with and without a suffix.
            "v1", "V1.2", "v0", "1.2-rc.1", "1-alpha", "1+build", "v2.1+b", "V3.0.0-rc.1+b", "vv1", "v", "1.", "1..2",
            // Numbers as Python writes them: 2.0 is "2.0", -0.0 is "-0.0", 1e16 is "1e+16".
            0, 1, 10, -1, 1.25, 1.05, 0.5, 2.0, 3.0, -0.0, 1e16, 9_999_999_999_999_998.0, 1e-5,
            ["1.0.0"], ["major": 1],
        ]
        let comparisons: [JSON] = ["=", "!=", "<", "<=", ">", ">=", "^", "~", "===", "", 3, .null, ["="]]
        let countries: [JSON] = ["DE", "FR", "US", "CA", "BR", "JP", "de", "NL", 49, ["DE"]]
        let plans: [JSON] = [
            "beta-tester", "pro", "free-beta", "BETA", "beta", ["beta", "pro"], ["alpha"], 42, ["beta": true],
        ]
        let tiers: [JSON] = ["gold", "silver", "bronze", "platinum", "Gold", 3, ["gold"], true]
        let ages: [JSON] = [
            0, 12, 13, 17, 18, 19, 20, 39, 40, 41, 65, 90, 17.5, 18.0, "18", " 25 ", "40", "abc", .null, true, false,
        ]
        let buckets: [JSON] = [
            "k1", "k2", "", 0, 1, -1, 42, 1.5, 0.1, 1e10, -2.5, 65504.0, 65520.0, 3.4028234663852886e38, 1e300,
            true, false, ["a", 1], ["x": 1, "yy": [true, .null]], ["b": 2, "a": 1, "aa": 3], 9_007_199_254_740_993,
        ]

        var contexts: [JSON] = []
        contexts.reserveCapacity(count)
        for index in 0..<count {
            var context = JSONObject()
            if random.chance(0.93) {
                context["targetingKey"] =
                    random.chance(0.03)
                    ? "" : .string("\(random.pick(names))-\(index)-\(Int.random(in: 0..<1_000_000, using: &random))")
                if random.chance(0.01) { context["targetingKey"] = random.pick([5, true, ["x"]] as [JSON]) }
            }
            context["userId"] = .string("user-\(Int.random(in: 0..<100_000, using: &random))")
            if random.chance(0.85) {
                context["email"] =
                    random.chance(0.05)
                    ? .int(Int.random(in: 0..<100, using: &random))
                    : .string("\(random.pick(names))\(Int.random(in: 0..<100, using: &random))@\(random.pick(domains))")
            }
            if random.chance(0.8) { context["tier"] = random.pick(tiers) }
            if random.chance(0.85) {
                context["age"] = random.chance(0.5) ? .int(Int.random(in: 0...99, using: &random)) : random.pick(ages)
            }
            if random.chance(0.8) { context["country"] = random.pick(countries) }
            if random.chance(0.7) { context["plan"] = random.pick(plans) }
            if random.chance(0.85) { context["version"] = random.pick(versions) }
            if random.chance(0.7) { context["op"] = random.pick(comparisons) }
            if random.chance(0.7) { context["beta"] = random.pick([true, false, .null, "yes", "true", 1] as [JSON]) }
            if random.chance(0.8) { context["vip"] = .bool(random.chance(0.3)) }
            if random.chance(0.7) { context["time"] = .integer(timestamp + Int64.random(in: -3...3, using: &random)) }
            if random.chance(0.6) {
                context["bucket"] = random.chance(0.2) ? random.pick(buckets) : randomBucketingValue(&random, depth: 0)
            }
            if random.chance(0.6) {
                context["groups"] = .array(
                    (0..<Int.random(in: 0...3, using: &random)).map { _ in
                        random.pick(["beta", "staff", "alpha", "Beta"] as [JSON])
                    })
            }
            // Attributes read by flagd's own example documents.
            if random.chance(0.5) { context["id"] = random.pick(["abc123", "abc", "123xyz", "xyz", "q", 3] as [JSON]) }
            if random.chance(0.3) { context["user"] = ["name": .string(random.pick(names))] }
            if random.chance(0.3) {
                context["fn"] = random.pick(["Sulisław", "Ana"] as [JSON])
                context["ln"] = random.pick(["Świętopełk", "Li"] as [JSON])
                context["customer"] = .bool(random.chance(0.5))
            }
            contexts.append(.object(context))
        }
        return contexts
    }
}
