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
            .immediate("evaluate", params: [.any("rule", required: true), .any("data")]) { params throws(RPCError) in
                .object(["result": try evaluate(try params.requiredValue("rule"), data: params.value("data") ?? .null)])
            },
            .encoded("evaluateFlag", params: [
                CommonParams.id("flagKey"), .object("context", required: true),
                .string("type", oneOf: FlagType.allCases.map(\.rawValue)),
            ]) { params throws(RPCError) in
                let flagKey = try params.string("flagKey")
                let context = try flagdContext(params)
                let type = params.optionalString("type").flatMap(FlagType.init(rawValue:))
                return engine.encodedFlagResult(flagKey, context: .object(context), type: type)
            },
            .immediate("evaluateFlags", params: [
                .object("context", required: true),
                .stringArray(
                    "flagKeys", itemMaxLength: CommonParams.maxIdLength, maxLength: CommonParams.maxFlagKeys, uniqueItems: true),
            ]) { params throws(RPCError) in
                .object(engine.evaluateFlags(context: .object(try flagdContext(params)), flagKeys: params.optionalStringArray("flagKeys")))
            },
        ]
    }

    /// A flagd evaluation context: attributes, and `targetingKey` a string if given.
    static func flagdContext(_ params: Params) throws(RPCError) -> JSONObject {
        let context = try params.object("context")
        if let key = context["targetingKey"], key.stringValue == nil {
            throw .invalidParams(field: "context", "targetingKey must be a string, not \(key.typeName)")
        }
        return context
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
