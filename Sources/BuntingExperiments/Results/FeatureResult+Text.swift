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
        var builder = EncodedJSON.ObjectBuilder()
        // Room for all of it at once: growing the text member by member costs more than writing it.
        builder.reserveCapacity(
            Self.textRoom + (shared?.texts.experiment.bytes.count ?? 0) + 2 * (shared?.variation.value.bytes.count ?? 0)
        )
        // An experiment's result has its variation's value.
        if source == .experiment, let shared {
            builder.add(TextPieces.value, shared.variation.value)
        } else {
            builder.add(TextPieces.value, value)
        }
        builder.add(TextPieces.on, TextPieces.boolean(on))
        builder.add(TextPieces.off, TextPieces.boolean(off))
        builder.add(TextPieces.source, TextPieces.source(source))
        builder.add(TextPieces.ruleId, JSON.string(ruleId))
        if let shared, unchangedExperiment != nil, unchangedExperiment === experimentResult?.definition {
            builder.add(TextPieces.experiment, shared.texts.experiment)
        } else if let experiment {
            builder.add(TextPieces.experiment, JSON.object(experiment))
        }
        if let experimentResult { builder.add(TextPieces.experimentResult, experimentResult.encoded(shared)) }
        return builder.finish()
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
        if let bucket { builder.add(TextPieces.bucket, JSON.number(bucket)) }
        if let shared {
            if let passthrough = shared.variation.passthrough { builder.add(TextPieces.passthrough, passthrough) }
        } else if let passthrough {
            builder.add(TextPieces.passthrough, passthrough)
        }
        if let bandit {
            builder.add(TextPieces.leafId, JSON.int(bandit.leafId))
            builder.add(TextPieces.variationWeights, bandit.variationWeightsJSON)
            if let version = bandit.banditVersion { builder.add(TextPieces.banditVersion, JSON.int(version)) }
        }
        return builder.finish()
    }
}

/// Member names and values every result writes, each written once (by jansson).
private enum TextPieces {
    static let value = EncodedJSON.Key("value")
    static let on = EncodedJSON.Key("on")
    static let off = EncodedJSON.Key("off")
    static let source = EncodedJSON.Key("source")
    static let ruleId = EncodedJSON.Key("ruleId")
    static let experiment = EncodedJSON.Key("experiment")
    static let experimentResult = EncodedJSON.Key("experimentResult")
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

    static let trueText = EncodedJSON(.bool(true))
    static let falseText = EncodedJSON(.bool(false))
    static func boolean(_ value: Bool) -> EncodedJSON { value ? trueText : falseText }

    static let sources = Dictionary(
        uniqueKeysWithValues: FeatureSource.allCases.map { ($0, EncodedJSON(.string($0.rawValue))) })
    static func source(_ source: FeatureSource) -> EncodedJSON { sources[source]! }
}
