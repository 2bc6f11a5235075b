import BuntingCrypto
import BuntingJSON
import Foundation
import Testing
@testable import BuntingExperiments

/// GrowthBook's cross-SDK suite (`Fixtures/growthbook/cases.json`, spec
/// 0.8.0), every section but `urlRedirect`. A case is an array:
///
/// - evalCondition: [name, condition, attributes, expected, savedGroups?]
/// - hash: [seed, value, hashVersion, expected or null]
/// - getBucketRange: [name, [variations, coverage, weights or null], expected ranges]
/// - feature, contextualBandit: [name, context, featureKey, expected FeatureResult]
/// - run: [name, context, experiment, value, inExperiment, hashUsed]
/// - chooseVariation: [name, n, ranges, expected]
/// - getQueryStringOverride: [name, experimentKey, url, variations, expected or null]
/// - inNamespace: [name, hashValue, [id, start, end], expected]
/// - getEqualWeights: [n, expected]
/// - decrypt: [name, "iv.ciphertext", key, expected plaintext or null (must fail)]
/// - stickyBucket: [name, context, stored documents, featureKey, expected experimentResult or null, expected documents]
///
/// Results compare whole (the `experiment` object included), numbers by
/// value and bucket ranges to six decimals, as GrowthBook's own harness does.
@Suite struct GrowthBookCasesTests {
    static let skippedSections: Set<String> = ["specVersion", "urlRedirect"]

    @Test func everyCasePasses() throws {
        let cases = try loadJSON(TestPaths.fixture("growthbook/cases.json"))
        guard case .object(let sections) = cases else {
            Issue.record("cases.json is not an object")
            return
        }
        var passed = 0
        var failures: [String] = []
        for (section, list) in sections where !Self.skippedSections.contains(section) {
            guard case .array(let entries) = list else { continue }
            for entry in entries {
                guard case .array(let fields) = entry else { continue }
                let name = "\(section): \(fields.first?.stringValue ?? fields.first?.encodedString() ?? "?")"
                if let failure = Self.check(section, fields) {
                    failures.append("\(name): \(failure)")
                } else {
                    passed += 1
                }
            }
        }
        print("growthbook cases: \(passed) passed, \(failures.count) failed")
        for failure in failures.prefix(40) { print("  \(failure)") }
        #expect(failures.isEmpty, "\(failures.count) cases failed; first: \(failures.first ?? "")")
        #expect(passed == 513, "513 cases expected, \(passed) passed")
    }

    /// Nil when the case passes, else what differed.
    static func check(_ section: String, _ fields: [JSON]) -> String? {
        switch section {
        case "evalCondition": return evalCondition(fields)
        case "hash": return hash(fields)
        case "getBucketRange": return bucketRange(fields)
        case "feature", "contextualBandit": return feature(fields)
        case "run": return run(fields)
        case "chooseVariation": return chooseVariation(fields)
        case "getQueryStringOverride": return queryStringOverride(fields)
        case "inNamespace": return inNamespace(fields)
        case "getEqualWeights": return equalWeights(fields)
        case "decrypt": return decrypt(fields)
        case "stickyBucket": return stickyBucket(fields)
        default: return "unknown section"
        }
    }

    static func evalCondition(_ fields: [JSON]) -> String? {
        var problems: [PayloadProblem] = []
        let groups = SavedGroups(fields.count > 4 ? fields[4] : nil, at: .root, problems: &problems)
        do {
            let condition = try Condition(fields[1], savedGroups: groups)
            let result = condition.evaluate(fields[2])
            return result == fields[3].boolValue ? nil : "got \(result)"
        } catch {
            return "does not compile: \(error)"
        }
    }

    static func hash(_ fields: [JSON]) -> String? {
        let n = Bucketing.hash(
            seed: fields[0].stringValue ?? "", value: fields[1].stringValue ?? "", version: fields[2].doubleValue ?? 0)
        let got: JSON = n.map { .real($0) } ?? .null
        return sameJSON(got, fields[3]) ? nil : "got \(got.encodedString())"
    }

    static func bucketRange(_ fields: [JSON]) -> String? {
        guard case .array(let arguments) = fields[1] else { return "bad case" }
        let weights = arguments[2].arrayValue?.compactMap(\.doubleValue)
        let ranges = Bucketing.bucketRanges(
            count: Int(arguments[0].integerValue ?? 0), coverage: arguments[1].doubleValue ?? 1, weights: weights)
        guard case .array(let expected) = fields[2], expected.count == ranges.count else { return "got \(ranges)" }
        for (range, pair) in zip(ranges, expected) {
            guard let start = pair[0]?.doubleValue, let end = pair[1]?.doubleValue,
                abs(start - range.start) < 1e-6, abs(end - range.end) < 1e-6
            else { return "got \(ranges)" }
        }
        return nil
    }

    static func chooseVariation(_ fields: [JSON]) -> String? {
        let ranges = (fields[2].arrayValue ?? []).map {
            BucketRange(start: $0[0]?.doubleValue ?? 0, end: $0[1]?.doubleValue ?? 0)
        }
        let got = Bucketing.chooseVariation(fields[1].doubleValue ?? 0, ranges: ranges)
        return got == Int(fields[3].integerValue ?? 99) ? nil : "got \(got)"
    }

    static func queryStringOverride(_ fields: [JSON]) -> String? {
        let got = QueryStringOverride.variation(
            experimentKey: fields[1].stringValue ?? "", url: fields[2].stringValue ?? "",
            variationCount: Int(fields[3].integerValue ?? 0))
        let expected = fields[4].integerValue.map { Int($0) }
        return got == expected ? nil : "got \(String(describing: got))"
    }

    static func inNamespace(_ fields: [JSON]) -> String? {
        guard case .array(let parts) = fields[2], parts.count == 3 else { return "bad case" }
        let namespace = Namespace(
            id: parts[0].stringValue ?? "", start: parts[1].doubleValue ?? 0, end: parts[2].doubleValue ?? 0)
        let got = Bucketing.inNamespace(fields[1].stringValue ?? "", namespace)
        return got == fields[3].boolValue ? nil : "got \(got)"
    }

    static func equalWeights(_ fields: [JSON]) -> String? {
        let got = JSON.array(Bucketing.equalWeights(Int(fields[0].integerValue ?? 0)).map { .real($0) })
        guard case .array(let expected) = fields[1], case .array(let weights) = got, expected.count == weights.count
        else {
            return "got \(got.encodedString())"
        }
        for (a, b) in zip(weights, expected) where abs((a.doubleValue ?? 0) - (b.doubleValue ?? 9)) > 1e-6 {
            return "got \(got.encodedString())"
        }
        return nil
    }

    static func decrypt(_ fields: [JSON]) -> String? {
        let expected = fields[3].stringValue
        do {
            let plaintext = try PayloadDecryption.decrypt(fields[1].stringValue ?? "", key: fields[2].stringValue ?? "")
            let text = String(decoding: plaintext, as: UTF8.self)
            return text == expected ? nil : "got \(text)"
        } catch {
            return expected == nil ? nil : "failed: \(error)"
        }
    }

    // MARK: - Contexts

    /// A payload and an evaluation context from a case's context object.
    static func evaluator(_ context: JSON, stickyStore: InMemoryStickyBucketStore? = nil) -> GrowthBookEvaluator {
        let payload = GrowthBookPayload(
            features: context["features"], savedGroups: context["savedGroups"],
            contextualBandits: context["contextualBandits"])
        var forced: [String: Int] = [:]
        if case .object(let members)? = context["forcedVariations"] {
            for (key, value) in members { forced[key] = value.integerValue.map { Int($0) } }
        }
        let evaluation = EvaluationContext(
            attributes: context["attributes"] ?? .object(JSONObject()), url: context["url"]?.stringValue ?? "",
            forcedVariations: forced, enabled: context["enabled"]?.boolValue ?? true,
            qaMode: context["qaMode"]?.boolValue ?? false)
        let documents = stickyStore.map { $0.documents(for: payload, attributes: evaluation.attributes) }
        return GrowthBookEvaluator(payload: payload, context: evaluation, stickyDocuments: documents)
    }

    static func feature(_ fields: [JSON]) -> String? {
        var evaluator = evaluator(fields[1])
        let result = evaluator.evaluateFeature(fields[2].stringValue ?? "")
        let got = result.json
        guard sameJSON(got, fields[3]) else { return "got \(got.encodedString())" }
        // The reply's text is written without a tree, and twice for an experiment's reused text.
        for text in [result.encoded, result.encoded] where text != EncodedJSON(got) {
            return "its text \(String(decoding: text.bytes, as: UTF8.self)) is not its JSON's"
        }
        return nil
    }

    static func run(_ fields: [JSON]) -> String? {
        var evaluator = evaluator(fields[1])
        let experiment: ExperimentDefinition
        do {
            experiment = try evaluator.payload.experiment(fields[2])
        } catch {
            return "does not compile: \(error)"
        }
        let result = evaluator.run(experiment)
        let got: JSON = [result.value, .bool(result.inExperiment), .bool(result.hashUsed)]
        return sameJSON(got, .array(Array(fields[3...5]))) ? nil : "got \(got.encodedString())"
    }

    static func stickyBucket(_ fields: [JSON]) -> String? {
        let stored = (fields[2].arrayValue ?? []).compactMap(StickyAssignmentsDocument.init(json:))
        var store = InMemoryStickyBucketStore(stored)
        var evaluator = evaluator(fields[1], stickyStore: store)
        let result = evaluator.evaluateFeature(fields[3].stringValue ?? "")
        let changed = evaluator.takeChangedStickyDocuments()
        store.save(changed)
        let got = result.experimentResult?.json ?? .null
        guard sameJSON(got, fields[4]) else { return "got \(got.encodedString())" }
        guard result.encoded == EncodedJSON(result.json) else { return "its text is not its JSON's" }
        // The user's documents: those read for the evaluation, as saved after it.
        var documents = JSONObject()
        for document in evaluator.currentStickyDocuments {
            documents[document.key] =
                store.document(attributeName: document.attributeName, attributeValue: document.attributeValue)?.json
        }
        return sameJSON(.object(documents), fields[5]) ? nil : "documents \(JSON.object(documents).encodedString())"
    }
}
