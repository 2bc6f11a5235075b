import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// GrowthBook features and conditions. Results are written as text, member
/// by member (see `FeatureResult.encoded`).
enum FeatureMethods {
    private static let featuresKey = EncodedJSON.Key("features")

    static func methods(_ engine: Engine) -> [Method] {
        [
            .encoded(EvaluateFeatureParams.self) { params throws(RPCError) in
                let result = try engineCall("evaluateFeature") { () throws(EngineError) in
                    try engine.evaluateFeature(params.featureKey, attributes: params.attributes)
                }
                // An explanation is read from the result as a tree: rarely asked for, it may cost that.
                guard params.explain == true, case .object(var explained) = result.value else { return result }
                explained["explain"] = .object(Explanation.feature(.object(explained)))
                return EncodedJSON(.object(explained))
            },
            .encoded(EvaluateFeaturesParams.self) { params throws(RPCError) in
                try MemberKeys.check(params.featureKeys, field: "featureKeys")
                let features = try engineCall("evaluateFeatures") { () throws(EngineError) in
                    try engine.evaluateFeatures(keys: params.featureKeys, attributes: params.attributes)
                }
                // A key asked for twice is answered once, as an object holds it.
                var seen = Set<ExactString>()
                var object = EncodedJSON.ObjectBuilder()
                for (key, result) in features where seen.insert(ExactString(key)).inserted { object.add(key, result) }
                var reply = EncodedJSON.ObjectBuilder()
                reply.add(featuresKey, object.finish())
                return reply.finish()
            },
            .immediate(EvaluateConditionParams.self) { params throws(RPCError) in
                switch engine.evaluateCondition(
                    .object(params.condition), attributes: .object(params.attributes),
                    savedGroups: params.savedGroups.map(JSON.object)
                ) {
                case .success(let result): return .object(["result": .bool(result)])
                case .failure(let error):
                    throw RPCError(
                        code: .invalidRule, reason: "INVALID_RULE",
                        message: "Invalid rule: condition: \(error.description)",
                        details: ["field": "condition", "why": .string(error.description)])
                }
            },
        ]
    }
}
