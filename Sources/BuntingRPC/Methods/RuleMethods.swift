import BuntingCore
import BuntingJSON
import BuntingRules

/// Evaluation for people writing rules: `evaluate` runs a JSONLogic rule,
/// `evaluateFlag` resolves one flag of the current definitions as flagd
/// would. Neither touches user state or logs anything.
public enum RuleMethods {
    public static func register(in table: inout MethodTable, engine: Engine) {
        table.register("evaluate", fields: ["rule", "data"]) { params throws(RPCError) in
            let rule = try params.requiredValue("rule")
            let data = params.value("data") ?? .null
            return .object(["result": try evaluate(rule, data: data)])
        }
        table.register("evaluateFlag", fields: ["flagKey", "context"]) { params throws(RPCError) in
            let flagKey = try params.string("flagKey")
            guard !flagKey.isEmpty else { throw .invalidParams(field: "flagKey", "must not be empty") }
            let context = try params.object("context")
            if let key = context["targetingKey"], key.stringValue == nil {
                throw .invalidParams(field: "context", "targetingKey must be a string, not \(key.typeName)")
            }
            return .object(engine.evaluateFlag(flagKey, context: .object(context)))
        }
    }

    /// Compiles and evaluates; any failure is INVALID_RULE naming `rule`.
    public static func evaluate(_ rule: JSON, data: JSON) throws(RPCError) -> JSON {
        let compiled: JSONLogicRule
        do {
            compiled = try JSONLogicRule(rule)
        } catch {
            throw invalidRule(error.pointer.isEmpty ? error.message : "\(error.pointer): \(error.message)")
        }
        do {
            return try compiled.evaluate(data)
        } catch {
            throw invalidRule(error.description)
        }
    }

    static func invalidRule(_ why: String) -> RPCError {
        RPCError(
            code: .invalidRule, reason: "INVALID_RULE", message: "Invalid rule: rule: \(why)",
            details: ["field": "rule", "why": .string(why)])
    }
}
