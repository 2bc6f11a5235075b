import BuntingJSON

/// A result's JSON text written member by member, without a tree: what
/// `evaluateFeature` answers. Member names, sources and booleans are written
/// once; what an experiment fixes (the experiment, and per variation its
/// meta key, value and name) once per experiment (`ResultTexts`). The text
/// is the one `json` encodes to, member for member: the conformance cases
/// check that for every result.
extension FeatureResult {
    /// Bytes of a result's text besides its experiment and values: member
    /// names and short values, with room to spare.
    static let textRoom = 384

    public var encoded: EncodedJSON {
        let shared = experimentResult.flatMap { $0.sharedTexts }
        if let shared, let text = experimentText(shared) { return text }
        if experimentResult == nil, experiment == nil, let fixedText { return fixedText.text { memberText(nil) } }
        return memberText(shared)
    }

    /// Any result, member by member: its value, `on`, `off`, source and
    /// rule id, then its experiment and the experiment's result when it has them.
    private func memberText(_ shared: (texts: ResultTexts, variation: ResultTexts.Variation)?) -> EncodedJSON {
        var text: [UInt8] = []
        // Room for all of it at once: growing the text member by member costs more than writing it.
        text.reserveCapacity(
            Self.textRoom + (shared?.texts.experiment.bytes.count ?? 0) + 2 * (shared?.variation.value.bytes.count ?? 0)
        )
        text.append(contentsOf: #"{"value":"#.utf8)
        // An experiment's result has its variation's value.
        if source == .experiment, let shared {
            text.append(contentsOf: shared.variation.value.bytes)
        } else {
            value.encode(appendingTo: &text)
        }
        text.append(
            contentsOf: on ? #","on":true,"off":false,"source":"#.utf8 : #","on":false,"off":true,"source":"#.utf8)
        text.append(contentsOf: TextPieces.source(source).bytes)
        text.append(contentsOf: #","ruleId":"#.utf8)
        JSON.string(ruleId).encode(appendingTo: &text)
        if let shared, unchangedExperiment != nil, unchangedExperiment === experimentResult?.definition {
            text.append(contentsOf: #","experiment":"#.utf8)
            text.append(contentsOf: shared.texts.experiment.bytes)
        } else if let experiment {
            text.append(contentsOf: #","experiment":"#.utf8)
            JSON.object(experiment).encode(appendingTo: &text)
        }
        if let experimentResult {
            text.append(contentsOf: #","experimentResult":"#.utf8)
            text.append(contentsOf: experimentResult.encoded(shared).bytes)
        }
        text.append(UInt8(ascii: "}"))
        return EncodedJSON(trustedText: text)
    }

    /// The usual result of an experiment rule (its experiment unchanged, the
    /// value its variation's, the rule and feature its own, the hash on the
    /// experiment's attribute) written from the runs of text its variation
    /// fixes, with only what differs per user written now: the hash value,
    /// bucket and flags. Nil for any other result, which is written member by member.
    private func experimentText(_ shared: (texts: ResultTexts, variation: ResultTexts.Variation)) -> EncodedJSON? {
        let variation = shared.variation
        guard source == .experiment, let result = experimentResult, unchangedExperiment === result.definition,
            let head = variation.head, let rule = result.definition.rule, ruleId == rule.id,
            result.featureId == rule.featureKey, shared.texts.hashAttribute == result.hashAttribute
        else { return nil }
        var text: [UInt8] = []
        text.reserveCapacity(head.count + variation.resultMiddle.count + Self.textRoom)
        text.append(contentsOf: head)
        text.append(contentsOf: result.inExperiment ? TextPieces.inExperimentTrue : TextPieces.inExperimentFalse)
        text.append(contentsOf: result.hashUsed ? TextPieces.hashUsedTrue : TextPieces.hashUsedFalse)
        text.append(contentsOf: variation.resultMiddle)
        result.hashValue.encode(appendingTo: &text)
        result.appendTail(variation, to: &text)
        text.append(contentsOf: TextPieces.closeTwice)
        return EncodedJSON(trustedText: text)
    }
}

extension ExperimentResult {
    public var encoded: EncodedJSON { encoded(sharedTexts) }

    /// The experiment's texts and this result's variation among them.
    var sharedTexts: (texts: ResultTexts, variation: ResultTexts.Variation)? {
        let texts = definition.resultTexts
        guard variationId >= 0, variationId < texts.variations.count else { return nil }
        return (texts, texts.variations[variationId])
    }

    func encoded(_ shared: (texts: ResultTexts, variation: ResultTexts.Variation)?) -> EncodedJSON {
        var builder = EncodedJSON.ObjectBuilder()
        builder.reserveCapacity(FeatureResult.textRoom + (shared?.variation.value.bytes.count ?? 0))
        if let shared {
            builder.add(TextPieces.key, shared.variation.key)
        } else {
            builder.add(TextPieces.key, JSON.string(key))
        }
        builder.add(TextPieces.featureId, featureId.map { JSON.string($0) } ?? .null)
        builder.add(TextPieces.inExperiment, TextPieces.boolean(inExperiment))
        builder.add(TextPieces.hashUsed, TextPieces.boolean(hashUsed))
        builder.add(TextPieces.variationId, JSON.int(variationId))
        if let shared {
            builder.add(TextPieces.value, shared.variation.value)
        } else {
            builder.add(TextPieces.value, value)
        }
        if let shared, shared.texts.hashAttribute == hashAttribute {
            builder.add(TextPieces.hashAttribute, shared.texts.hashAttributeText)
        } else {
            builder.add(TextPieces.hashAttribute, JSON.string(hashAttribute))
        }
        builder.add(TextPieces.hashValue, hashValue)
        builder.add(TextPieces.stickyBucketUsed, TextPieces.boolean(stickyBucketUsed))
        if let shared {
            if let name = shared.variation.name { builder.add(TextPieces.name, name) }
        } else if let name {
            builder.add(TextPieces.name, name)
        }
        if let bucket { builder.add(TextPieces.bucket, Bucket(bucket)) }
        if let shared {
            if let passthrough = shared.variation.passthrough { builder.add(TextPieces.passthrough, passthrough) }
        } else if let passthrough {
            builder.add(TextPieces.passthrough, passthrough)
        }
        if let bandit { appendBandit(bandit, to: &builder) }
        return builder.finish()
    }

    private func appendBandit(_ bandit: BanditAssignment, to builder: inout EncodedJSON.ObjectBuilder) {
        builder.add(TextPieces.leafId, JSON.int(bandit.leafId))
        builder.add(TextPieces.variationWeights, bandit.variationWeightsJSON)
        if let version = bandit.banditVersion { builder.add(TextPieces.banditVersion, JSON.int(version)) }
    }

    /// The members from `stickyBucketUsed` on, each with its comma: it,
    /// name, bucket, passthrough and a bandit's assignment.
    fileprivate func appendTail(_ variation: ResultTexts.Variation, to text: inout [UInt8]) {
        if variation.name == nil, let bucket {
            // The usual tail: the flag and the bucket, their names in one run.
            text.append(contentsOf: stickyBucketUsed ? TextPieces.stickyTrueBucket : TextPieces.stickyFalseBucket)
            Bucket(bucket).appendEncoded(to: &text)
        } else {
            text.append(contentsOf: stickyBucketUsed ? TextPieces.stickyTrue : TextPieces.stickyFalse)
            if let name = variation.name {
                text.append(contentsOf: TextPieces.nameMember)
                text.append(contentsOf: name.bytes)
            }
            if let bucket {
                text.append(contentsOf: TextPieces.bucketMember)
                Bucket(bucket).appendEncoded(to: &text)
            }
        }
        if let passthrough = variation.passthrough {
            text.append(contentsOf: TextPieces.passthroughMember)
            text.append(contentsOf: passthrough.bytes)
        }
        if let bandit {
            // Rare: written member by member, then spliced without its braces.
            var builder = EncodedJSON.ObjectBuilder()
            appendBandit(bandit, to: &builder)
            let members = builder.finish().bytes
            text.append(UInt8(ascii: ","))
            text.append(contentsOf: members[1..<(members.count - 1)])
        }
    }
}

/// A bucket as JavaScript writes it. Buckets are whole ten-thousandths (a
/// hash of version 2 is `n % 10000 / 10000`, of version 1 thousandths), so
/// the shortest text that reads back as the same number is its decimal
/// digits, written here without formatting a double; any other number is
/// written as every real is.
struct Bucket: JSONText {
    let value: Double

    init(_ value: Double) { self.value = value }

    func appendEncoded(to output: inout [UInt8]) {
        let scaled = (value * 10_000).rounded()
        guard value >= 0, value < 1, scaled / 10_000 == value else {
            JSON.number(value).encode(appendingTo: &output)
            return
        }
        var digits = Int(scaled)
        // A whole number is written as an integer (`JSON.number`).
        guard digits > 0 else {
            output.append(UInt8(ascii: "0"))
            return
        }
        output.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: ".")])
        var count = 4
        while digits % 10 == 0 {
            digits /= 10
            count -= 1
        }
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(digits / divisor % 10))
            divisor /= 10
        }
    }

    var encodedCount: Int { 6 }
}

/// Member names and values every result writes, each written once (by jansson).
private enum TextPieces {
    static let value = EncodedJSON.Key("value")
    static let key = EncodedJSON.Key("key")
    static let featureId = EncodedJSON.Key("featureId")
    static let inExperiment = EncodedJSON.Key("inExperiment")
    static let hashUsed = EncodedJSON.Key("hashUsed")
    static let variationId = EncodedJSON.Key("variationId")
    static let hashAttribute = EncodedJSON.Key("hashAttribute")
    static let hashValue = EncodedJSON.Key("hashValue")
    static let stickyBucketUsed = EncodedJSON.Key("stickyBucketUsed")
    static let name = EncodedJSON.Key("name")
    static let bucket = EncodedJSON.Key("bucket")
    static let passthrough = EncodedJSON.Key("passthrough")
    static let leafId = EncodedJSON.Key("leafId")
    static let variationWeights = EncodedJSON.Key("variationWeights")
    static let banditVersion = EncodedJSON.Key("banditVersion")

    static let inExperimentTrue = Array(#","inExperiment":true"#.utf8)
    static let inExperimentFalse = Array(#","inExperiment":false"#.utf8)
    static let hashUsedTrue = Array(#","hashUsed":true"#.utf8)
    static let hashUsedFalse = Array(#","hashUsed":false"#.utf8)
    static let stickyTrue = Array(#","stickyBucketUsed":true"#.utf8)
    static let stickyFalse = Array(#","stickyBucketUsed":false"#.utf8)
    static let stickyTrueBucket = Array(#","stickyBucketUsed":true,"bucket":"#.utf8)
    static let stickyFalseBucket = Array(#","stickyBucketUsed":false,"bucket":"#.utf8)
    static let nameMember = Array(#","name":"#.utf8)
    static let bucketMember = Array(#","bucket":"#.utf8)
    static let passthroughMember = Array(#","passthrough":"#.utf8)
    static let closeTwice = Array("}}".utf8)

    static let trueText = EncodedJSON(.bool(true))
    static let falseText = EncodedJSON(.bool(false))
    static func boolean(_ value: Bool) -> EncodedJSON { value ? trueText : falseText }

    /// By `FeatureSource.allCases` order.
    static let sources = FeatureSource.allCases.map { EncodedJSON(.string($0.rawValue)) }
    static func source(_ source: FeatureSource) -> EncodedJSON { sources[source.ordinal] }
}
