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
        result.appendTail(name: variation.name, passthrough: variation.passthrough, to: &text)
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
        var text: [UInt8] = []
        text.reserveCapacity(FeatureResult.textRoom + (shared?.variation.value.bytes.count ?? 0))
        text.append(contentsOf: #"{"key":"#.utf8)
        if let shared {
            text.append(contentsOf: shared.variation.key.bytes)
        } else {
            JSON.string(key).encode(appendingTo: &text)
        }
        text.append(contentsOf: #","featureId":"#.utf8)
        (featureId.map { JSON.string($0) } ?? .null).encode(appendingTo: &text)
        text.append(contentsOf: inExperiment ? TextPieces.inExperimentTrue : TextPieces.inExperimentFalse)
        text.append(contentsOf: hashUsed ? TextPieces.hashUsedTrue : TextPieces.hashUsedFalse)
        text.append(contentsOf: #","variationId":"#.utf8)
        JSON.int(variationId).encode(appendingTo: &text)
        text.append(contentsOf: #","value":"#.utf8)
        if let shared {
            text.append(contentsOf: shared.variation.value.bytes)
        } else {
            value.encode(appendingTo: &text)
        }
        text.append(contentsOf: #","hashAttribute":"#.utf8)
        if let shared, shared.texts.hashAttribute == hashAttribute {
            text.append(contentsOf: shared.texts.hashAttributeText.bytes)
        } else {
            JSON.string(hashAttribute).encode(appendingTo: &text)
        }
        text.append(contentsOf: #","hashValue":"#.utf8)
        hashValue.encode(appendingTo: &text)
        if let shared {
            appendTail(name: shared.variation.name, passthrough: shared.variation.passthrough, to: &text)
        } else {
            appendTail(name: name.map(EncodedJSON.init), passthrough: passthrough.map(EncodedJSON.init), to: &text)
        }
        text.append(UInt8(ascii: "}"))
        return EncodedJSON(trustedText: text)
    }

    /// The members from `stickyBucketUsed` on, each with its comma: it,
    /// name, bucket, passthrough and a bandit's assignment.
    fileprivate func appendTail(name: EncodedJSON?, passthrough: EncodedJSON?, to text: inout [UInt8]) {
        if name == nil, let bucket {
            // The usual tail: the flag and the bucket, their names in one run.
            text.append(contentsOf: stickyBucketUsed ? TextPieces.stickyTrueBucket : TextPieces.stickyFalseBucket)
            Bucket(bucket).appendEncoded(to: &text)
        } else {
            text.append(contentsOf: stickyBucketUsed ? TextPieces.stickyTrue : TextPieces.stickyFalse)
            if let name {
                text.append(contentsOf: #","name":"#.utf8)
                text.append(contentsOf: name.bytes)
            }
            if let bucket {
                text.append(contentsOf: #","bucket":"#.utf8)
                Bucket(bucket).appendEncoded(to: &text)
            }
        }
        if let passthrough {
            text.append(contentsOf: #","passthrough":"#.utf8)
            text.append(contentsOf: passthrough.bytes)
        }
        if let bandit {
            text.append(contentsOf: #","leafId":"#.utf8)
            JSON.int(bandit.leafId).encode(appendingTo: &text)
            text.append(contentsOf: #","variationWeights":"#.utf8)
            bandit.variationWeightsJSON.encode(appendingTo: &text)
            if let version = bandit.banditVersion {
                text.append(contentsOf: #","banditVersion":"#.utf8)
                JSON.int(version).encode(appendingTo: &text)
            }
        }
    }
}

/// A bucket as JavaScript writes it. Buckets are whole ten-thousandths (a
/// hash of version 2 is `n % 10000 / 10000`, of version 1 thousandths), so
/// the shortest text that reads back as the same number is its decimal
/// digits, written here without formatting a double; any other number is
/// written as every real is.
struct Bucket {
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
}

/// Runs of text many results write: a member with each of its boolean
/// values, and each source's text (written once, by jansson).
private enum TextPieces {
    static let inExperimentTrue = Array(#","inExperiment":true"#.utf8)
    static let inExperimentFalse = Array(#","inExperiment":false"#.utf8)
    static let hashUsedTrue = Array(#","hashUsed":true"#.utf8)
    static let hashUsedFalse = Array(#","hashUsed":false"#.utf8)
    static let stickyTrue = Array(#","stickyBucketUsed":true"#.utf8)
    static let stickyFalse = Array(#","stickyBucketUsed":false"#.utf8)
    static let stickyTrueBucket = Array(#","stickyBucketUsed":true,"bucket":"#.utf8)
    static let stickyFalseBucket = Array(#","stickyBucketUsed":false,"bucket":"#.utf8)
    static let closeTwice = Array("}}".utf8)

    /// By `FeatureSource.allCases` order.
    static let sources = FeatureSource.allCases.map { EncodedJSON(.string($0.rawValue)) }
    static func source(_ source: FeatureSource) -> EncodedJSON { sources[source.ordinal] }
}
