import BuntingJSON

/// The benchmark's flags and contexts: typical targeting rules (attribute
/// comparisons, `in`, `sem_ver`, `starts_with`, `fractional`, a compound
/// rule) and users with the attributes those rules read. Deterministic, so
/// that runs compare.
enum Workload {
    static let timestamp: Int64 = 1_750_000_000

    /// The targeting rule of flag `index`.
    static func rule(_ index: Int) -> JSON {
        switch index % 8 {
        case 0:
            return ["if": [["==": [["var": "tier"], "gold"]], "on", "off"]]
        case 1:
            return ["if": [[">=": [["var": "age"], .int(18 + index % 30)]], "on", "off"]]
        case 2:
            return ["if": [["in": [["var": "country"], ["US", "CA", "GB", "DE", "FR", "NL", "SE", "NO"]]], "on", "off"]]
        case 3:
            return ["if": [["sem_ver": [["var": "appVersion"], ">=", .string("2.\(index % 10).0")]], "on", "off"]]
        case 4:
            return ["if": [["starts_with": [["var": "email"], "admin"]], "on", "off"]]
        case 5:
            return ["fractional": [["on", 50], ["off", 50]]]
        case 6:
            return ["if": [
                ["and": [["==": [["var": "plan"], "pro"]], ["<": [["var": "age"], 40]]]], "on",
                ["in": ["beta", ["var": "email"]]], "on",
                "off",
            ]]
        default:
            return ["fractional": [["cat": [["var": "$flagd.flagKey"], ["var": "userId"]]], ["on", 10], ["off", 90]]]
        }
    }

    static func flagKey(_ index: Int) -> String { "flag-\(index)" }

    /// A flagd document with `count` flags.
    static func document(flags count: Int) -> JSON {
        var flags = JSONObject()
        for index in 0..<count {
            flags[flagKey(index)] = [
                "state": "ENABLED",
                "variants": ["on": true, "off": false],
                "defaultVariant": "off",
                "targeting": rule(index),
            ]
        }
        return ["flags": .object(flags)]
    }

    /// Users with varied attributes, from a fixed seed.
    static func contexts(count: Int) -> [JSON] {
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let tiers: [JSON] = ["gold", "silver", "bronze"]
        let countries: [JSON] = ["US", "CA", "BR", "DE", "JP", "IN", "FR", "SE"]
        let plans: [JSON] = ["free", "pro", "team"]
        let prefixes = ["admin", "ana", "bo", "beta.tester", "chen"]
        return (0..<count).map { index in
            [
                "targetingKey": .string("user-\(index)-\(next(1_000_000))"),
                "userId": .string("u\(next(10_000_000))"),
                "email": .string("\(prefixes[next(prefixes.count)])\(next(1000))@example.com"),
                "tier": tiers[next(tiers.count)],
                "age": .int(13 + next(60)),
                "country": countries[next(countries.count)],
                "plan": plans[next(plans.count)],
                "appVersion": .string("\(1 + next(3)).\(next(12)).\(next(5))"),
            ]
        }
    }
}
