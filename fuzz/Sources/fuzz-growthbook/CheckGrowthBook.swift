import BuntingExperiments
import BuntingJSON
import FuzzSupport

/// Limits far below the defaults, so that each input runs in well under a
/// millisecond and the fuzzer reaches the limits themselves.
private let limits = PayloadLimits(
    maxPayloadBytes: 1 << 16, maxConditionDepth: 12, maxVariations: 64, maxPatternLength: 128,
    maxEvaluationSteps: 20_000)
/// A budget so small that most evaluations run out.
private let starved = PayloadLimits(
    maxPayloadBytes: 1 << 16, maxConditionDepth: 12, maxVariations: 64, maxPatternLength: 128, maxEvaluationSteps: 12)

/// Users the payload is evaluated for when the input gives none.
private let users: [JSON] = [
    [
        "id": "ada", "country": "NZ", "age": 36, "tags": ["beta", "news"], "version": "2.4.1",
        "email": "ada@example.com", "beta": true,
    ],
    ["deviceId": "d-1", "company": 7],
    [:],
]

/// Loads a GrowthBook payload and evaluates every feature. The input is a
/// JSON text: `{"payload": P, "attributes": A, "url": U, "forcedVariations":
/// F, "stickyDocs": [D…]}` (each member optional), or a bare payload
/// evaluated for three fixed users. Checks:
/// - a refused payload says why; each problem's pointer names a value of
///   the payload or a member missing from one;
/// - evaluation is deterministic: two evaluators give the same results,
///   exposures and sticky documents;
/// - results are of known kinds: an experiment's value is its result's, an
///   unknown feature is one the payload has not compiled, `on` is the
///   value's truthiness, variations are in range, exposures are of
///   experiments run by hash;
/// - budgets are kept: an evaluation that did not run out of steps answers
///   as one with ten thousand times the budget;
/// - sticky assignments hold: evaluating again with the documents saved
///   gives the same values and changes no document;
/// - every result survives encoding.
func checkGrowthBook(_ bytes: UnsafeRawBufferPointer) {
    guard let document = try? JSON.parse(bytes) else { return }
    let (payloadJSON, contexts, stickyDocuments) = unpack(document)
    let payload: GrowthBookPayload
    do {
        payload = try GrowthBookPayload(document: payloadJSON, limits: limits)
    } catch {
        require(!error.message.isEmpty, "a payload refused without a reason")
        return
    }
    for problem in payload.problems {
        let pointer = problem.pointer
        require(
            pointer.resolve(in: payloadJSON) != nil || pointer.parent.flatMap { $0.resolve(in: payloadJSON) } != nil,
            "problem pointer \(pointer) names nothing in the payload")
    }
    let starvedPayload = try? GrowthBookPayload(document: payloadJSON, limits: starved)
    let stable = stickyAssignmentsAreStable(payloadJSON, stickyDocuments ?? [])
    for context in contexts {
        check(payload, starvedPayload, context, stickyDocuments, stickyIsStable: stable)
    }
}

/// Whether saved sticky assignments must give the same values again: each
/// experiment key belongs to one rule, no rule excludes the bucket version
/// it saves (`minBucketVersion` above `bucketVersion`), and a rule's meta,
/// if any, gives every variation a key of its own (the SDK stores the key
/// and finds the first variation with it), and every assignment the input's
/// documents hold names one of its rule's variations (one past them is no
/// variation: the SDK answers outside the experiment and saves variation 0's
/// key in its place). Otherwise an assignment can rightly come back as
/// another variation, or block another rule's.
private func stickyAssignmentsAreStable(_ payload: JSON, _ documents: [StickyAssignmentsDocument]) -> Bool {
    var keys = Set<String>()
    var variationKeys: [String: Set<String>] = [:]
    for (featureKey, feature) in payload["features"]?.objectValue ?? JSONObject() {
        for rule in feature["rules"]?.arrayValue ?? []
        where rule["variations"] != nil || rule["contextualVariations"] != nil {
            let key = rule["key"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? featureKey
            guard keys.insert(key).inserted else { return false }
            if (rule["minBucketVersion"]?.doubleValue ?? 0) > (rule["bucketVersion"]?.doubleValue ?? 0) { return false }
            let variations = (rule["contextualVariations"] ?? rule["variations"])?.arrayValue?.count ?? 0
            if let meta = rule["meta"]?.arrayValue {
                let metaKeys = meta.prefix(variations).compactMap { $0["key"]?.stringValue }.filter { !$0.isEmpty }
                if metaKeys.count < variations || Set(metaKeys).count != metaKeys.count { return false }
                variationKeys[key] = Set(metaKeys)
            } else {
                variationKeys[key] = Set((0..<variations).map { String($0) })
            }
        }
    }
    for document in documents {
        for (assignmentKey, value) in document.assignments {
            // The key is the experiment's key, "__" and the bucket version.
            let parts = assignmentKey.split(separator: "__", omittingEmptySubsequences: false)
            guard parts.count >= 2, let named = variationKeys[parts.dropLast().joined(separator: "__")] else {
                continue
            }
            guard let variation = value.stringValue, named.contains(variation) else { return false }
        }
    }
    return true
}

private func check(
    _ payload: GrowthBookPayload, _ starvedPayload: GrowthBookPayload?, _ context: EvaluationContext,
    _ documents: [StickyAssignmentsDocument]?, stickyIsStable: Bool
) {
    let first = evaluate(payload, context, documents)
    let second = evaluate(payload, context, documents)
    require(first.results.map(\.json) == second.results.map(\.json), "two evaluations differ")
    require(first.exposures == second.exposures, "two evaluations expose differently")
    require(first.changed == second.changed, "two evaluations change sticky documents differently")

    for result in first.results {
        require(result.on == isTruthy(result.value), "on is not the value's truthiness for \(result.key)")
        switch result.source {
        case .experiment:
            guard let outcome = result.experimentResult, let experiment = result.experiment else {
                require(false, "an experiment result without its experiment for \(result.key)")
                continue
            }
            require(
                outcome.inExperiment && outcome.passthrough == nil,
                "an experiment's value from outside it for \(result.key)")
            require(outcome.value == result.value, "the value is not the experiment's for \(result.key)")
            let count = experiment["variations"]?.arrayValue?.count ?? 0
            require(
                outcome.variationId >= 0 && outcome.variationId < count,
                "variation \(outcome.variationId) of \(count)")
        case .unknownFeature:
            require(
                payload.brokenFeatureKeys.contains(result.key) || !payload.featureKeys.contains(result.key),
                "a compiled feature evaluated as unknown: \(result.key)")
        default:
            require(
                result.experimentResult == nil && result.experiment == nil,
                "an experiment on a \(result.source) result")
        }
        let encoded = result.json.encoded()
        require((try? JSON.parse(encoded)) == result.json, "a result does not survive encoding")
    }
    for exposure in first.exposures {
        require(exposure.variationId >= 0, "an exposure of variation \(exposure.variationId)")
    }

    // A budget that was not exhausted changed nothing.
    if let starvedPayload {
        let cut = evaluate(starvedPayload, context, documents)
        for (short, full) in zip(cut.results, first.results) where !short.exhaustedBudget {
            require(short.json == full.json, "\(short.key) answers otherwise with a small budget it did not exhaust")
        }
    }

    // Sticky assignments hold once saved.
    if documents != nil, stickyIsStable {
        var saved: [String: StickyAssignmentsDocument] = [:]
        for document in (documents ?? []) + first.changed { saved[document.key] = document }
        let again = evaluate(payload, context, Array(saved.values))
        for (later, earlier) in zip(again.results, first.results)
        where !later.exhaustedBudget && !earlier.exhaustedBudget {
            require(later.value == earlier.value, "\(later.key) changes value once its sticky documents are saved")
        }
        require(again.changed.isEmpty, "saved sticky documents change again")
    }
}

private struct Evaluation {
    let results: [FeatureResult]
    let exposures: [Exposure]
    let changed: [StickyAssignmentsDocument]
}

private func evaluate(
    _ payload: GrowthBookPayload, _ context: EvaluationContext, _ documents: [StickyAssignmentsDocument]?
) -> Evaluation {
    var evaluator = GrowthBookEvaluator(payload: payload, context: context, stickyDocuments: documents)
    let results = evaluator.evaluateAll() + [evaluator.evaluateFeature("no-such-feature")]
    return Evaluation(
        results: results, exposures: evaluator.takeExposures(), changed: evaluator.takeChangedStickyDocuments())
}

private func unpack(_ document: JSON) -> (JSON, [EvaluationContext], [StickyAssignmentsDocument]?) {
    guard case .object(let members) = document, let payload = members["payload"] else {
        return (document, users.map { EvaluationContext(attributes: $0) }, nil)
    }
    var forced: [String: Int] = [:]
    if case .object(let entries)? = members["forcedVariations"] {
        for (key, value) in entries {
            if let index = value.integerValue, let small = Int(exactly: index) { forced[key] = small }
        }
    }
    let attributes = members["attributes"].flatMap { $0.objectValue != nil ? $0 : nil }
    let context = EvaluationContext(
        attributes: attributes ?? .object(JSONObject()), url: members["url"]?.stringValue ?? "",
        forcedVariations: forced)
    let documents = members["stickyDocs"]?.arrayValue?.compactMap(StickyAssignmentsDocument.init(json:))
    return (payload, [context], documents)
}

private func isTruthy(_ value: JSON) -> Bool {
    switch value {
    case .null: return false
    case .bool(let flag): return flag
    case .integer(let number): return number != 0
    case .real(let number): return number != 0 && !number.isNaN
    case .string(let text): return !text.isEmpty
    case .array, .object: return true
    }
}
