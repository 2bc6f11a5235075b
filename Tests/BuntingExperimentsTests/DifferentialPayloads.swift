import BuntingJSON

/// Payloads and contexts for the GrowthBook differential test, generated
/// from a seed: conditions over every operator, force rules with rollouts,
/// experiments with weights, coverage, meta, passthrough, namespaces,
/// filters, bucket versions and fallback attributes, prerequisites (cycles
/// included), saved groups, contextual bandits, and contexts with URLs,
/// forced variations and sticky documents.
///
/// What the generator leaves out is where `growthbook` 4.0.0 differs from
/// the JavaScript SDK on purpose or by mistake (see
/// `GrowthBookDifferentialTests.knownDifferencesAreReal`): attributes keep
/// one type each and are present wherever a comparison coerces, booleans
/// and objects are never hash values, coverages are never a bucket exactly,
/// `force` is never null, unknown operators stand alone, and stored sticky
/// documents, forced variations and query-string overrides name experiments
/// without conditions.
struct DifferentialPayloads {
    var generator: SeededGenerator
    /// Experiment keys made so far, with whether the rule had a condition
    /// and its meta keys (for sticky documents).
    private(set) var experiments:
        [(
            key: String, hashAttribute: String, fallback: String?, conditioned: Bool, metaKeys: [String],
            bucketVersion: Int
        )] = []
    private var booleanFeatures: [String] = []
    private var experimentCount = 0

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    static let countries = ["US", "GB", "FR", "DE", "ca"]
    static let plans = ["free", "pro", "enterprise"]
    static let versions = ["1.2.3", "1.10.0", "1.10.0-beta.1", "v2.0.0", "0.9", "2.0.0+build.5", "1.2.3-rc.1"]
    static let tags = ["a", "b", "news", "beta", "vip"]

    // MARK: - Payload

    mutating func payload(featureCount: Int) -> JSON {
        var features = JSONObject()
        // Boolean features first, so that prerequisites can name them (later ones too).
        let names = (0..<featureCount).map { "feature-\($0)" }
        booleanFeatures = names.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        for (index, name) in names.enumerated() {
            features[name] = feature(boolean: index % 3 == 0)
        }
        let savedGroups: JSON = [
            "premium": ["pro", "enterprise"],
            "vips": .array((0..<40).map { .string("u\($0 * 7)") }),
        ]
        let bandits: JSON = [
            "cb-1": [
                "banditVersion": 3,
                "contexts": [
                    ["leafId": 1, "condition": ["country": "US"], "weights": [0.8, 0.2]],
                    ["leafId": 2, "condition": ["plan": ["$in": ["pro"]]], "weights": [0.1, 0.9]],
                ],
            ],
            "cb-2": ["contexts": [["leafId": 7, "condition": [:], "weights": [0.25, 0.25, 0.5]]]],
        ]
        return ["features": .object(features), "savedGroups": savedGroups, "contextualBandits": bandits]
    }

    private mutating func value(boolean: Bool) -> JSON {
        if boolean { return .bool(generator.chance(0.5)) }
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return .string(generator.pick(["on", "off", "red", "blue", ""]))
        case 1: return .int(Int.random(in: -3...20, using: &generator))
        case 2: return .real(Double(Int.random(in: 0...100, using: &generator)) / 8)
        case 3:
            return [
                "color": .string(generator.pick(["green", "blue"])),
                "size": .int(Int.random(in: 1...4, using: &generator)),
            ]
        case 4: return .null
        default: return .bool(generator.chance(0.5))
        }
    }

    private mutating func feature(boolean: Bool) -> JSON {
        var feature = JSONObject()
        if generator.chance(0.9) { feature["defaultValue"] = value(boolean: boolean) }
        var rules: [JSON] = []
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            rules.append(generator.chance(0.45) ? forceRule(boolean: boolean) : experimentRule(boolean: boolean))
        }
        feature["rules"] = .array(rules)
        return .object(feature)
    }

    private mutating func commonParts(_ rule: inout JSONObject) {
        if generator.chance(0.2) { rule["id"] = .string("fr_\(Int.random(in: 0..<1000, using: &generator))") }
        if generator.chance(0.2), !booleanFeatures.isEmpty {
            var parents: [JSON] = []
            for _ in 0..<Int.random(in: 1...2, using: &generator) {
                let id = generator.chance(0.05) ? "no-such-feature" : generator.pick(booleanFeatures)
                let condition: JSON = generator.pick([
                    ["value": true], ["value": false], ["value": ["$exists": true]], ["value": ["$ne": true]],
                ])
                var parent: JSONObject = ["id": .string(id), "condition": condition]
                if generator.chance(0.4) { parent["gate"] = true }
                parents.append(.object(parent))
            }
            rule["parentConditions"] = .array(parents)
        }
        if generator.chance(0.1) { rule["filters"] = filters() }
    }

    private mutating func filters() -> JSON {
        var filter: JSONObject = ["seed": .string("filter-\(Int.random(in: 0..<5, using: &generator))")]
        let start = Double(Int.random(in: 0...6, using: &generator)) / 10
        filter["ranges"] = [[.real(start), .real(start + 0.3)]]
        if generator.chance(0.5) { filter["hashVersion"] = .int(generator.pick([1, 2])) }
        if generator.chance(0.3) { filter["attribute"] = .string(generator.pick(["id", "company"])) }
        return [.object(filter)]
    }

    /// A coverage that is never a hash value exactly (GrowthBook's Python
    /// package includes the bucket equal to the coverage; JavaScript does too,
    /// with `<=`, in rollouts only).
    private mutating func coverage() -> Double {
        generator.pick([0, 1, Double(Int.random(in: 1...999, using: &generator)) / 1000 + 0.00003])
    }

    private mutating func forceRule(boolean: Bool) -> JSON {
        var rule: JSONObject = [:]
        commonParts(&rule)
        if generator.chance(0.6) { rule["condition"] = condition(depth: 0) }
        let forced = value(boolean: boolean)
        rule["force"] = forced.isNull ? "forced" : forced
        if generator.chance(0.4) {
            if generator.chance(0.3) {
                let start = Double(Int.random(in: 0...5, using: &generator)) / 10
                rule["range"] = [.real(start), .real(start + 0.25)]
            } else {
                rule["coverage"] = .real(coverage())
            }
            if generator.chance(0.5) { rule["hashVersion"] = .int(generator.pick([1, 2])) }
            if generator.chance(0.4) { rule["seed"] = .string("seed-\(Int.random(in: 0..<9, using: &generator))") }
            if generator.chance(0.3) { rule["hashAttribute"] = .string(generator.pick(["company", "deviceId"])) }
        }
        return .object(rule)
    }

    private mutating func experimentRule(boolean: Bool) -> JSON {
        var rule: JSONObject = [:]
        commonParts(&rule)
        experimentCount += 1
        let key = "exp-\(experimentCount)"
        let bandit = !boolean && generator.chance(0.12)
        let count = bandit ? (generator.chance(0.5) ? 2 : 3) : Int.random(in: 2...4, using: &generator)
        let variations: [JSON] = (0..<count).map { index in
            boolean
                ? .bool(index % 2 == 1)
                : generator.pick([.string("v\(index)"), .int(index * 10), ["variant": .int(index)]])
        }
        if bandit {
            rule["contextualVariations"] = .array(variations)
            rule["contextualBanditRef"] = .string(count == 2 ? generator.pick(["cb-1", "cb-missing"]) : "cb-2")
        } else {
            rule["variations"] = .array(variations)
        }
        if generator.chance(0.7) || bandit { rule["key"] = .string(key) }
        if generator.chance(0.6) || bandit {
            var weights = (0..<count).map { _ in Double(Int.random(in: 1...10, using: &generator)) }
            let total = weights.reduce(0, +)
            weights = weights.map { ($0 / total * 1000).rounded() / 1000 }
            weights[count - 1] = ((1 - weights.dropLast().reduce(0, +)) * 1000).rounded() / 1000
            rule["weights"] = .array(weights.map { .real($0) })
        }
        if generator.chance(0.4) { rule["coverage"] = .real(generator.pick([1, 0.5, 0.85, 0.2])) }
        var metaKeys = (0..<count).map(String.init)
        if generator.chance(0.7) {
            metaKeys = (0..<count).map { "\(key)-m\($0)" }
            var meta: [JSON] = metaKeys.map { ["key": .string($0)] }
            if generator.chance(0.2) { meta[0] = ["key": .string(metaKeys[0]), "passthrough": true] }
            if generator.chance(0.2) { meta[count - 1] = ["key": .string(metaKeys[count - 1]), "name": "Treatment"] }
            rule["meta"] = .array(meta)
        }
        let hashAttribute = generator.chance(0.75) ? "id" : generator.pick(["company", "deviceId"])
        if hashAttribute != "id" || generator.chance(0.3) { rule["hashAttribute"] = .string(hashAttribute) }
        var fallback: String?
        if generator.chance(0.25) {
            fallback = hashAttribute == "deviceId" ? "company" : "deviceId"
            rule["fallbackAttribute"] = .string(fallback!)
        }
        rule["hashVersion"] = .int(generator.pick([1, 2, 2]))
        if generator.chance(0.5) { rule["seed"] = .string("s-\(key)") }
        if rule["filters"] == nil, generator.chance(0.15) {
            let start = Double(Int.random(in: 0...5, using: &generator)) / 10
            rule["namespace"] = [
                .string("ns-\(Int.random(in: 0..<3, using: &generator))"), .real(start), .real(start + 0.5),
            ]
        }
        let conditioned = generator.chance(0.35)
        if conditioned { rule["condition"] = condition(depth: 0) }
        if generator.chance(0.1), !bandit {
            var start = 0.0
            rule["ranges"] = .array(
                (0..<count).map { _ in
                    defer { start += 1 / Double(count) }
                    return [.real(start), .real(start + 0.5 / Double(count))]
                })
        }
        var bucketVersion = 0
        if generator.chance(0.2) {
            bucketVersion = Int.random(in: 0...2, using: &generator)
            rule["bucketVersion"] = .int(bucketVersion)
            if generator.chance(0.5) {
                rule["minBucketVersion"] = .int(Int.random(in: 0...bucketVersion, using: &generator))
            }
        }
        if generator.chance(0.05) { rule["disableStickyBucketing"] = true }
        if generator.chance(0.2) { rule["name"] = .string("Experiment \(experimentCount)") }
        if generator.chance(0.2) { rule["phase"] = .string(String(Int.random(in: 0...3, using: &generator))) }
        experiments.append(
            (
                key: rule["key"]?.stringValue ?? "", hashAttribute: hashAttribute, fallback: fallback,
                conditioned: conditioned, metaKeys: metaKeys, bucketVersion: bucketVersion
            ))
        return .object(rule)
    }

    // MARK: - Conditions

    mutating func condition(depth: Int) -> JSON {
        var condition = JSONObject()
        for _ in 0..<Int.random(in: 1...2, using: &generator) {
            if depth < 2, generator.chance(0.2) {
                let name = generator.pick(["$or", "$and", "$nor", "$not"])
                condition[name] =
                    name == "$not"
                    ? self.condition(depth: depth + 1)
                    : .array(
                        (0..<Int.random(in: 0...3, using: &generator)).map { _ in self.condition(depth: depth + 1) })
            } else {
                let (path, test) = leaf(topLevel: depth == 0)
                condition[path] = test
            }
        }
        return .object(condition)
    }

    private mutating func leaf(topLevel: Bool) -> (String, JSON) {
        switch Int.random(in: 0..<11, using: &generator) {
        case 0:
            let country = JSON.string(generator.pick(Self.countries))
            let list = JSON.array((0..<2).map { _ in .string(generator.pick(Self.countries)) })
            return (
                "country",
                generator.pick([
                    country, ["$eq": country], ["$ne": country], ["$in": list], ["$nin": list],
                    ["$ini": ["us", "Ca"]], ["$nini": ["gb"]], ["$gt": "E"], ["$lte": "GB"],
                    ["$regex": "^[A-Z]{2}$"], ["$regexi": "^(us|ca)$"], ["$type": "string"], ["$exists": true],
                ])
            )
        case 1:
            let age = JSON.int(Int.random(in: 10...70, using: &generator))
            return (
                "age",
                generator.pick([
                    age, ["$gt": age], ["$gte": age], ["$lt": age], ["$lte": age, "$gt": 15], ["$in": [age, 30, 31]],
                    ["$ne": age], ["$type": "number"], ["$not": ["$gt": 40]],
                ])
            )
        case 2:
            return (
                "plan",
                generator.pick([
                    "pro", ["$inGroup": "premium"], ["$notInGroup": "premium"], ["$in": ["free"]],
                    ["$inGroup": "nothing"],
                ])
            )
        case 3:
            let version = JSON.string(generator.pick(Self.versions))
            return (
                "version",
                generator.pick([
                    ["$veq": version], ["$vne": version], ["$vgt": version], ["$vgte": version], ["$vlt": version],
                    ["$vlte": version],
                ])
            )
        case 4:
            let tag = JSON.string(generator.pick(Self.tags))
            return (
                "tags",
                generator.pick([
                    ["$elemMatch": ["$eq": tag]], ["$size": .int(Int.random(in: 0...3, using: &generator))],
                    ["$size": ["$gt": 1]],
                    ["$all": [tag, "a"]], ["$alli": ["A"]], ["$in": [tag]], ["$nin": [tag]], ["$type": "array"],
                    ["a", "b"], ["$elemMatch": ["$in": ["news", "vip"]]],
                ])
            )
        case 5:
            return ("beta", generator.pick([true, false, ["$eq": true], ["$ne": false], ["$exists": true]]))
        case 6:
            return (
                generator.pick(["profile.score", "profile.region"]),
                generator.pick([
                    ["$gt": 50], ["$lt": 20], ["$exists": true], ["$type": "number"], ["$in": ["north", "south"]],
                ])
            )
        case 7:
            return (
                "id",
                generator.pick([
                    ["$inGroup": "vips"], ["$notInGroup": "vips"], ["$regex": "^u1"], ["$exists": true],
                ])
            )
        case 8:
            return ("email", generator.pick([["$regex": "@example\\.com$"], ["$regexi": "^ADA"], ["$regex": "("]]))
        case 9:
            return ("ghost", ["$exists": false])
        default:
            return topLevel && generator.chance(0.3) ? ("country", ["$unknown": 1]) : ("profile", ["$type": "object"])
        }
    }

    // MARK: - Contexts

    mutating func context(index: Int) -> JSON {
        var attributes = JSONObject()
        if generator.chance(0.93) {
            attributes["id"] = generator.chance(0.85) ? .string("u\(index)") : .int(index + 1)
        }
        if generator.chance(0.6) { attributes["deviceId"] = .string("d\(Int.random(in: 0..<5000, using: &generator))") }
        if generator.chance(0.5) { attributes["company"] = .string("c\(Int.random(in: 0..<300, using: &generator))") }
        attributes["country"] = .string(generator.pick(Self.countries))
        attributes["age"] =
            generator.chance(0.8)
            ? .int(Int.random(in: 10...80, using: &generator))
            : .real(Double(Int.random(in: 100...800, using: &generator)) / 10)
        attributes["plan"] = .string(generator.pick(Self.plans))
        attributes["version"] = .string(generator.pick(Self.versions))
        attributes["tags"] = .array(
            (0..<Int.random(in: 0...3, using: &generator)).map { _ in .string(generator.pick(Self.tags)) })
        attributes["beta"] = .bool(generator.chance(0.5))
        attributes["profile"] = [
            "score": .int(Int.random(in: 0...100, using: &generator)),
            "region": .string(generator.pick(["north", "south", "east"])),
        ]
        attributes["email"] = .string(generator.pick(["ada@example.com", "bob@example.org", "Ada@Example.com"]))
        var context: JSONObject = ["attributes": .object(attributes)]
        let unconditioned = experiments.filter { !$0.conditioned && !$0.key.isEmpty }
        if generator.chance(0.08), let experiment = unconditioned.randomElement(using: &generator) {
            context["url"] = .string(
                "https://shop.example/p?\(experiment.key)=\(Int.random(in: 0...2, using: &generator))#top")
        }
        if generator.chance(0.05), let experiment = unconditioned.randomElement(using: &generator) {
            context["forcedVariations"] = [experiment.key: .int(Int.random(in: 0...1, using: &generator))]
        }
        if generator.chance(0.4) {
            var documents: [JSON] = []
            for experiment in experiments
            where !experiment.conditioned && !experiment.key.isEmpty && generator.chance(0.15) {
                let attribute =
                    experiment.fallback.flatMap { generator.chance(0.4) ? $0 : nil } ?? experiment.hashAttribute
                guard let value = attributes[attribute],
                    let text = value.stringValue ?? value.integerValue.map({ String($0) })
                else { continue }
                let version =
                    generator.chance(0.8) ? experiment.bucketVersion : Int.random(in: 0...2, using: &generator)
                let variation = generator.chance(0.9) ? generator.pick(experiment.metaKeys) : "stale"
                documents.append([
                    "attributeName": .string(attribute), "attributeValue": .string(text),
                    "assignments": .object(JSONObject([("\(experiment.key)__\(version)", .string(variation))])),
                ])
            }
            context["stickyDocs"] = .array(documents)
        }
        return .object(context)
    }
}
