import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// GrowthBook features and conditions.
enum FeatureMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate(EvaluateFeatureParams.self) { params throws(RPCError) in
                try engineCall("evaluateFeature") { () throws(EngineError) in
                    try engine.evaluateFeature(params.featureKey, attributes: params.attributes)
                }
            },
            .immediate(EvaluateFeaturesParams.self) { params throws(RPCError) in
                let features = try engineCall("evaluateFeatures") { () throws(EngineError) in
                    try engine.evaluateFeatures(keys: params.featureKeys, attributes: params.attributes)
                }
                return .object(["features": .object(features)])
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
