import BuntingJSON

/// The benchmark's payloads and users, generated from a seed so that both
/// sides, and every run, evaluate the same thing.
///
/// Features come in eight kinds, in turn: a flag targeted by country, a
/// percentage rollout, a 50/50 experiment, a value chosen by two targeted
/// rules, a version gate, a three-way experiment with a condition and
/// partial coverage, a feature behind a prerequisite, and a saved group
/// with a regular expression: what a GrowthBook payload holds.
enum Workload {
    static let seed: UInt64 = 0x6B_BE7C
    static let countries = ["US", "GB", "FR", "DE", "NZ", "JP", "BR", "CA"]
    static let plans = ["free", "pro", "enterprise"]
    static let versions = ["1.9.0", "2.0.0", "2.1.3", "2.0.0-beta.2", "3.0.1"]

    static func featureKey(_ index: Int) -> String { "feature-\(index)" }

    static func payload(features count: Int) -> JSON {
        var generator = SplitMix64(seed: seed &+ UInt64(count))
        var features = JSONObject()
        for index in 0..<count {
            features[featureKey(index)] = feature(index, &generator)
        }
        let testers = JSON.array((0..<200).map { .string("user-\($0 * 13)") })
        return ["features": .object(features), "savedGroups": ["beta-testers": testers], "dateUpdated": "2026-12-01T00:00:00Z"]
    }

    private static func feature(_ index: Int, _ generator: inout SplitMix64) -> JSON {
        let some = countries.shuffled(using: &generator).prefix(3).map { JSON.string($0) }
        switch index % 8 {
        case 0:
            return ["defaultValue": false, "rules": [["id": .string("fr_\(index)"), "condition": ["country": ["$in": .array(some)]], "force": true]]]
        case 1:
            return ["defaultValue": false, "rules": [["force": true, "coverage": .real(Double(generator.next() % 100) / 100), "hashAttribute": "id"]]]
        case 2:
            return ["defaultValue": "control", "rules": [[
                "key": .string("exp-\(index)"), "variations": ["control", "treatment"], "weights": [0.5, 0.5],
                "meta": [["key": "0"], ["key": "1"]], "hashAttribute": "id", "hashVersion": 2, "seed": .string("exp-\(index)"),
            ]]]
        case 3:
            return ["defaultValue": "basic", "rules": [
                ["condition": ["plan": "pro"], "force": "pro-layout"],
                ["condition": ["age": ["$gte": .int(Int(generator.next() % 40) + 20)], "tags": ["$elemMatch": ["$eq": "news"]]], "force": "news-layout"],
            ]]
        case 4:
            return ["defaultValue": false, "rules": [["condition": ["version": ["$vgte": "2.0.0"]], "force": true]]]
        case 5:
            return ["defaultValue": ["color": "grey", "size": 1], "rules": [[
                "key": .string("exp-\(index)"), "condition": ["country": ["$nin": .array(some)]], "coverage": 0.8,
                "variations": [["color": "grey", "size": 1], ["color": "green", "size": 2], ["color": "blue", "size": 3]],
                "weights": [0.34, 0.33, 0.33], "meta": [["key": "a"], ["key": "b"], ["key": "c"]], "hashVersion": 2,
            ]]]
        case 6:
            return ["defaultValue": 0, "rules": [[
                "parentConditions": [["id": .string(featureKey(index - 6)), "condition": ["value": true]]], "force": .int(index),
            ]]]
        default:
            return ["defaultValue": "standard", "rules": [
                ["condition": ["id": ["$inGroup": "beta-testers"]], "force": "beta"],
                ["condition": ["email": ["$regex": "@example\\.com$"], "plan": ["$ne": "free"]], "force": "staff"],
            ]]
        }
    }

    static func users(count: Int) -> [JSON] {
        var generator = SplitMix64(seed: seed ^ 0xA77)
        return (0..<count).map { index in
            let tags = ["news", "sports", "beta", "deals"].filter { _ in generator.next() % 2 == 0 }
            return [
                "id": .string("user-\(index)"),
                "country": .string(countries[Int(generator.next() % UInt64(countries.count))]),
                "plan": .string(plans[Int(generator.next() % UInt64(plans.count))]),
                "age": .int(Int(generator.next() % 60) + 16),
                "version": .string(versions[Int(generator.next() % UInt64(versions.count))]),
                "email": .string(generator.next() % 3 == 0 ? "u\(index)@example.com" : "u\(index)@mail.test"),
                "tags": .array(tags.map { .string($0) }),
            ]
        }
    }
}

/// SplitMix64: a small generator whose sequence depends only on the seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
