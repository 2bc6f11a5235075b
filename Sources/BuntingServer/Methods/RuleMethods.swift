import BuntingCore
import BuntingJSON
import BuntingJSONRPC
import BuntingRules

/// Evaluation for people writing rules: `evaluate` runs a JSONLogic rule,
/// `evaluateFlag` resolves one flag of the current definitions as flagd
/// would. Neither touches user state or logs anything.
public enum RuleMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate(EvaluateParams.self) { params throws(RPCError) in
                .object(["result": try evaluate(params.rule, data: params.data ?? .null)])
            },
            .encoded(EvaluateFlagParams.self) { params throws(RPCError) in
                try checkTargetingKey(params.context)
                guard params.explain == true else {
                    return engine.encodedFlagResult(params.flagKey, context: .object(params.context), type: params.type)
                }
                var result = engine.evaluateFlag(params.flagKey, context: .object(params.context), type: params.type)
                result["explain"] = .object(
                    engine.explainFlag(params.flagKey, context: .object(params.context))
                        ?? ["why": .string(result["errorMessage"]?.stringValue ?? "no definitions are loaded")])
                return EncodedJSON(.object(result))
            },
            .immediate(EvaluateFlagsParams.self) { params throws(RPCError) in
                try checkTargetingKey(params.context)
                try MemberKeys.check(params.flagKeys, field: "flagKeys")
                return .object(engine.evaluateFlags(context: .object(params.context), flagKeys: params.flagKeys))
            },
        ]
    }

    /// A flagd evaluation context's `targetingKey`, if given, is a string.
    static func checkTargetingKey(_ context: JSONObject) throws(RPCError) {
        if let key = context["targetingKey"], key.stringValue == nil {
            throw .invalidParams(field: "context", "targetingKey must be a string, not \(key.typeName)")
        }
    }

    /// Compiles and evaluates; any failure is INVALID_RULE naming `rule`.
    public static func evaluate(_ rule: JSON, data: JSON) throws(RPCError) -> JSON {
        let compiled: JSONLogicRule
        do {
            compiled = try JSONLogicRule(rule)
        } catch {
            throw .invalidRule(error.pointer.isEmpty ? error.message : "\(error.pointer): \(error.message)")
        }
        do {
            return try compiled.evaluate(data)
        } catch {
            throw .invalidRule(error.description)
        }
    }
}
