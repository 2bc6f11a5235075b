import BuntingJSON
@testable import BuntingRules

/// Where flagd-core's Python (the differential tests' oracles) answers
/// differently from the flagd daemon, and BuntingRules follows the daemon.
///
/// Each difference is a rewrite of the oracle's input — its flag document,
/// its contexts — to input on which the oracle's rules and the daemon's give
/// the same answer, so that the comparison stays exact: BuntingRules on the
/// original input against the oracle on the rewritten one. The README's
/// compatibility notes describe each; `knownDifferencesAreReal` checks that
/// the oracles really do answer the original input differently.
struct KnownDifference: Sendable {
    let name: String
    /// The oracle generations that differ (both, unless noted).
    let generations: Set<FractionalHashing>
    /// The oracle's flag definitions (nil: unchanged).
    let flag: (@Sendable (_ key: String, _ definition: JSON, _ type: FlagValueType?) -> JSON?)?
    /// The oracle's context (nil: unchanged).
    let context: (@Sendable (JSON) -> JSON?)?

    static let all: [KnownDifference] = [
        partialVersionWithSuffix, unknownReferenceNotEvaluated, wholeRealWeight, nonStringTargetingKey,
        wholeRealAsInteger,
    ]

    /// The daemon's semver package takes a partial version only as numbers
    /// alone (`"1.2"`), never with a prerelease or build (`"1.2-rc.1"`,
    /// `"1+build"`), which flagd-core pads to `1.2.0-rc.1` and `1.0.0+build`.
    /// Rewritten: such versions become "not-a-version" for the oracle.
    static let partialVersionWithSuffix = KnownDifference(
        name: "sem_ver: a partial version with a prerelease or build is no version",
        generations: Set(FractionalHashing.allCases),
        flag: { _, definition, _ in
            rewriteTargeting(definition) { name, arguments in
                guard name == "sem_ver", case .array(let operands) = arguments else { return nil }
                return .array(operands.map { isPartialWithSuffix($0) ? "not-a-version" : $0 })
            }
        },
        context: { context in
            guard let version = context["version"], isPartialWithSuffix(version) else { return nil }
            var object = context.objectValue!
            object["version"] = "not-a-version"
            return .object(object)
        })

    /// The daemon refuses a `$ref` to an evaluator that does not exist when
    /// it loads the flags (PARSE_ERROR for that flag); flagd-core only fails
    /// when it evaluates the `$ref`, so a branch never taken goes unnoticed.
    /// Rewritten: such a flag's targeting becomes the bare `$ref`, which the
    /// oracle evaluates every time.
    static let unknownReferenceNotEvaluated = KnownDifference(
        name: "$ref to an evaluator that does not exist, in a branch not taken",
        generations: Set(FractionalHashing.allCases),
        flag: { _, definition, _ in
            guard let targeting = definition["targeting"], let name = unknownReference(in: targeting),
                targeting != ["$ref": .string(name)]
            else { return nil }
            var object = definition.objectValue!
            object["targeting"] = ["$ref": .string(name)]
            return .object(object)
        },
        context: nil)

    /// The daemon reads every JSON number as a double, so a weight of `50.0`
    /// is 50; flagd-core's Python refuses a float weight (null).
    /// Rewritten: whole real weights become integers, in the rules and in
    /// the data that reaches `fractional` as a fraction: the generated
    /// context's `bucket`, which a rule passes as `fractional`'s first
    /// argument (an array there is a fraction, not a bucketing value; where it
    /// is hashed, the CBOR generation writes whole reals as integers anyway).
    static let wholeRealWeight = KnownDifference(
        name: "fractional: a weight written as a whole real (50.0) counts as that integer",
        generations: Set(FractionalHashing.allCases),
        flag: { _, definition, _ in
            rewriteTargeting(definition) { name, arguments in
                guard name == "fractional", case .array(let operands) = arguments else { return nil }
                return .array(operands.map { integerWeight($0) ?? $0 })
            }
        },
        context: { context in
            guard let bucket = context["bucket"], let rewritten = integerWeight(bucket) else { return nil }
            var object = context.objectValue!
            object["bucket"] = rewritten
            return .object(object)
        })

    /// `[variant, 50.0]` as `[variant, 50]`; nil for anything else.
    static func integerWeight(_ fraction: JSON) -> JSON? {
        guard case .array(let pair) = fraction, pair.count == 2, case .real(let weight) = pair[1],
            weight.rounded(.towardZero) == weight, abs(weight) < 1e15
        else { return nil }
        return [pair[0], .integer(Int64(weight))]
    }

    /// flagd buckets the shorthand `fractional` by a string targeting key
    /// only, null otherwise; flagd-core 1.x concatenates flag key and
    /// targeting key with Python's `+`, which fails (GENERAL) on a number.
    /// Rewritten: a targeting key that is not a string is left out, which
    /// changes nothing else the generated rules read (none reads
    /// `targetingKey` but the shorthand `fractional`).
    static let nonStringTargetingKey = KnownDifference(
        name: "fractional shorthand with a targeting key that is not a string",
        generations: [.murmur3String],
        flag: nil,
        context: { context in
            guard let key = context["targetingKey"], key.stringValue == nil else { return nil }
            var object = context.objectValue!
            object["targetingKey"] = nil
            return .object(object)
        })

    /// The daemon hands out a whole real (`2.0`) asked for as an integer as
    /// that integer (flagd's numeric-coercion decision: lossless conversions
    /// only); flagd-core's Python answers TYPE_MISMATCH.
    /// Rewritten: such variants become integers for the oracle.
    static let wholeRealAsInteger = KnownDifference(
        name: "a whole real asked for as an integer is that integer",
        generations: Set(FractionalHashing.allCases),
        flag: { _, definition, type in
            guard type == .integer, case .object(let variants)? = definition["variants"] else { return nil }
            var rewritten = JSONObject()
            var changed = false
            for (name, value) in variants {
                if case .real(let number) = value, FlagValueType.isWholeInteger(number) {
                    rewritten[name] = .integer(Int64(number))
                    changed = true
                } else {
                    rewritten[name] = value
                }
            }
            guard changed else { return nil }
            var object = definition.objectValue!
            object["variants"] = .object(rewritten)
            return .object(object)
        },
        context: nil)

    // MARK: - Reading rules and versions

    /// `"1.2-rc.1"`, `"v1+build"`: one or two numbers, then a prerelease or build.
    static func isPartialWithSuffix(_ value: JSON) -> Bool {
        guard case .string(var text) = value else { return false }
        if text.hasPrefix("v") || text.hasPrefix("V") { text.removeFirst() }
        guard let suffix = text.firstIndex(where: { $0 == "-" || $0 == "+" }) else { return false }
        return text[..<suffix].filter { $0 == "." }.count < 2
    }

    /// The first `$ref` naming none of the document's evaluators.
    static func unknownReference(in rule: JSON) -> String? {
        var found: String?
        _ = rewriteOperations(rule) { name, arguments in
            if name == "$ref", case .string(let target) = arguments,
                !DifferentialFixtures.evaluatorNames.contains(target),
                found == nil
            {
                found = target
            }
            return nil
        }
        return found
    }

    /// The definition with its targeting rewritten by `transform` (see
    /// `rewriteOperations`); nil when nothing changed.
    static func rewriteTargeting(_ definition: JSON, _ transform: (String, JSON) -> JSON?) -> JSON? {
        guard let targeting = definition["targeting"] else { return nil }
        let rewritten = rewriteOperations(targeting, transform)
        guard rewritten != targeting else { return nil }
        var object = definition.objectValue!
        object["targeting"] = rewritten
        return .object(object)
    }

    /// `rule` with each operation `{name: arguments}` for which `transform`
    /// gives new arguments rewritten, innermost first.
    static func rewriteOperations(_ rule: JSON, _ transform: (String, JSON) -> JSON?) -> JSON {
        switch rule {
        case .array(let elements):
            return .array(elements.map { rewriteOperations($0, transform) })
        case .object(let object):
            var rewritten = JSONObject()
            for (key, value) in object {
                let inner = rewriteOperations(value, transform)
                rewritten[key] = object.count == 1 ? transform(key, inner) ?? inner : inner
            }
            return .object(rewritten)
        default:
            return rule
        }
    }
}
