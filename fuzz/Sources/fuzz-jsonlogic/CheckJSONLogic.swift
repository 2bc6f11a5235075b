import BuntingJSON
import BuntingRules
import FuzzSupport

/// Limits far below the defaults, so that each input runs in well under a
/// millisecond and the fuzzer reaches the limits themselves.
private let limits = EvaluationLimits(maxSteps: 20_000, maxStringLength: 1 << 14, maxArrayLength: 2_000)

/// A nesting limit low enough to be reached often.
private let shallowDepth = 8

/// Compiles and evaluates a JSONLogic rule. The input is a JSON text:
/// `{"rule": R, "data": D, "$evaluators": {...}, "fractionalHashing": H}`,
/// or `[R, D, ...]` as the official tests write their cases, or a bare rule
/// evaluated against null. Checks:
/// - compiling with a low depth limit either fails or gives a rule that
///   evaluates as the one compiled with the default limit;
/// - evaluating twice gives the same outcome, and the result holds no
///   NaN or infinity;
/// - truthiness asked directly (`isSatisfied`, which takes short cuts)
///   agrees with the truthiness of the value (an infinity, returned as
///   null, is truthy), unless a limit cut one short;
/// - the result encodes and parses back to itself.
func checkJSONLogic(_ bytes: UnsafeRawBufferPointer) {
    guard let document = try? JSON.parse(bytes) else { return }
    let (rule, data, evaluatorsObject, hashing) = unpack(document)
    let evaluators = evaluatorsObject.map { RuleEvaluators($0) } ?? .none

    let compiled: JSONLogicRule
    do {
        compiled = try JSONLogicRule(rule, evaluators: evaluators, fractionalHashing: hashing)
    } catch {
        require(isPointer(error.pointer), "compile error pointer \(error.pointer)")
        return
    }
    let flagd = FlagdProperties(flagKey: "fuzz-flag", timestamp: 1_764_600_000)
    let outcome = evaluate(compiled, data, flagd)
    require(evaluate(compiled, data, flagd) == outcome, "two evaluations of one rule differ")

    if case .success(let value) = outcome {
        require(!containsNonFinite(value), "the result holds a non-finite number")
        let encoded = value.encoded()
        require(
            (try? JSON.parse(encoded)) == value,
            "the result does not survive encoding: \(value.encodedString().prefix(200))")
    }

    let satisfied = Result { () throws(RuleEvaluationError) -> Bool in
        try compiled.isSatisfied(by: data, flagd: flagd, limits: limits)
    }
    switch (outcome, satisfied) {
    case (.success(.null), .success(true)):
        // An infinity comes back as null, yet is truthy: then the value the
        // rule computed must not have been null.
        let strictlyNull = JSON.object(["===": .array([rule, .null])])
        if let check = try? JSONLogicRule(strictlyNull, evaluators: evaluators, fractionalHashing: hashing) {
            require(
                evaluate(check, data, flagd) == .success(.bool(false)),
                "isSatisfied says true where the value is null")
        }
    case (.success(let value), .success(let truthy)):
        require(
            value.isTruthy == truthy,
            "isSatisfied says \(truthy) for the value \(value.encodedString().prefix(200))")
    case (.success, .failure(let error)) where !isLimit(error):
        require(false, "isSatisfied failed with \(error) where evaluate succeeded")
    case (.failure(let error), .success) where !isLimit(error):
        require(false, "evaluate failed with \(error) where isSatisfied succeeded")
    default:
        break
    }

    if let shallow = try? JSONLogicRule(
        rule, evaluators: evaluators, fractionalHashing: hashing, maxDepth: shallowDepth)
    {
        require(
            evaluate(shallow, data, flagd) == outcome,
            "the rule compiled with a low depth limit evaluates differently")
    }
}

private func evaluate(_ rule: JSONLogicRule, _ data: JSON, _ flagd: FlagdProperties) -> Result<
    JSON, RuleEvaluationError
> {
    Result { () throws(RuleEvaluationError) -> JSON in try rule.evaluate(data, flagd: flagd, limits: limits) }
}

private func isLimit(_ error: RuleEvaluationError) -> Bool {
    switch error {
    case .tooManySteps, .stringTooLong, .arrayTooLong: return true
    case .thrown, .invalidOperand: return false
    }
}

private func unpack(_ document: JSON) -> (rule: JSON, data: JSON, evaluators: JSONObject?, hashing: FractionalHashing) {
    if case .object(let members) = document, let rule = members["rule"] {
        let hashing = members["fractionalHashing"]?.stringValue.flatMap(FractionalHashing.init(rawValue:)) ?? .default
        return (rule, members["data"] ?? .null, members["$evaluators"]?.objectValue, hashing)
    }
    if case .array(let elements) = document, (2...3).contains(elements.count) {
        return (elements[0], elements[1], nil, .default)
    }
    return (document, .null, nil, .default)
}

private func containsNonFinite(_ value: JSON) -> Bool {
    var pending = [value]
    while let current = pending.popLast() {
        switch current {
        case .real(let number) where !number.isFinite: return true
        case .array(let elements): pending.append(contentsOf: elements)
        case .object(let members): pending.append(contentsOf: members.map(\.value))
        default: break
        }
    }
    return false
}
