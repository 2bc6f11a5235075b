import BuntingCore
@_spi(Fuzzing) import BuntingDefinitions
import BuntingJSON
import FuzzSupport

/// Users the document is evaluated for: one with the attributes the examples
/// target, one with nothing at all.
private let subjects = [
    EvaluationSubject(
        targetingKey: "ada",
        attributes: [
            "tier": "gold", "country": "NZ", "age": 36, "email": "ada@example.com", "appVersion": "2.4.1",
            "beta": true, "score": 0.75,
        ]),
    EvaluationSubject(targetingKey: "", attributes: [:]),
]

/// Before every schedule, inside most, and after every expiry.
private let times: [Double] = [0, 1_764_600_000.5, 4_102_444_800]

/// Loads the input as a definitions document, as `bunting validate` and every
/// refresh do, and evaluates what loads. Checks:
/// - the document read one section at a time, as loading reads it, is the
///   document jansson reads whole, and a text that one refuses the other does;
/// - a refused document lists at least one problem, each with a pointer into
///   the document and a line within the text;
/// - a loaded one evaluates the same twice; its channel flags are flags of the
///   document, each once; its banners fill known placements; every flag
///   resolves with a reason; the evaluation report survives encoding.
func checkDefinitions(_ bytes: UnsafeRawBufferPointer) {
    let text = Array(bytes)
    // Loading reads the document one section at a time: it must read every
    // text as jansson reads it whole.
    require(
        Definitions.readInSections(text) == (try? JSON.parse(text)),
        "read in sections, the text reads otherwise than whole")
    switch Definitions.load(text) {
    case .failure(let failure):
        require(!failure.problems.isEmpty, "a document refused without a problem")
        let lines = text.count { $0 == UInt8(ascii: "\n") } + 1
        for problem in failure.problems {
            require(isPointer(problem.pointer), "problem pointer \(problem.pointer)")
            require(
                problem.line >= 0 && problem.line <= lines,
                "problem line \(problem.line) in a text of \(lines) lines")
            require(!problem.message.isEmpty, "a problem without a message at \(problem.pointer)")
        }
    case .success(let definitions):
        for subject in subjects {
            for now in times { evaluate(definitions, subject, now) }
        }
        checkServedFromNote(text, definitions)
    }
}

/// The same document served from a note, before its full load
/// (`DeferredDefinitions`): each flag, read and compiled from its own text
/// and what flags share, answers exactly as in the whole document.
private func checkServedFromNote(_ text: [UInt8], _ definitions: Definitions) {
    guard
        let deferred = DeferredDefinitions(
            bytes: text, problems: definitions.problems, strict: false, beginLoading: false)
    else {
        require(false, "a document that loads cannot be read member by member")
        return
    }
    for subject in subjects {
        let context = JSON.object(subject.attributes.merging(["targetingKey": .string(subject.targetingKey)]))
        for key in definitions.flagSet.flagKeys.prefix(50) + ["no such flag"] {
            for now in times {
                let whole = definitions.encodedFlagResult(key, context: context, type: nil, at: now)
                let alone = deferred.encodedFlagResult(key, context: context, type: nil, at: now)
                require(
                    alone.bytes == whole.bytes,
                    "flag \(key.debugDescription) answers otherwise read alone than in its document")
            }
        }
    }
    require(!deferred.isLoaded, "answering one flag loaded the whole document")
}

private func evaluate(_ definitions: Definitions, _ subject: EvaluationSubject, _ now: Double) {
    let flags = definitions.featureFlags(for: subject, at: now)
    require(definitions.featureFlags(for: subject, at: now) == flags, "feature flags differ between two evaluations")
    let keys = Set(definitions.flagSet.flagKeys.map { ExactString($0) })
    var seen = Set<ExactString>()
    for flag in flags {
        require(
            keys.contains(ExactString(flag.id)),
            "the channel lists \(flag.id), which is not a flag of the document")
        require(seen.insert(ExactString(flag.id)).inserted, "the channel lists \(flag.id) twice")
    }

    let banners = definitions.banners(for: subject, at: now)
    require(definitions.banners(for: subject, at: now) == banners, "banners differ between two evaluations")
    for placement in banners.keys {
        require(
            definitions.placementIds.contains { $0.sameBytes(as: placement.string) },
            "a banner fills the unknown placement \(placement)")
    }
    let cards = definitions.contentCards(for: subject, at: now)
    require(definitions.contentCards(for: subject, at: now) == cards, "content cards differ between two evaluations")

    let contextObject = subject.attributes.merging(["targetingKey": .string(subject.targetingKey)])
    let context = JSON.object(contextObject)
    for key in definitions.flagSet.flagKeys.prefix(50) {
        let result = definitions.evaluateFlag(key, context: context, at: now)
        require(result["reason"]?.stringValue != nil, "flag \(key) resolved without a reason")
    }

    let report = JSON.object(definitions.evaluation(for: contextObject, at: now))
    require((try? JSON.parse(report.encoded())) == report, "the evaluation report does not survive encoding")
}

extension JSONObject {
    fileprivate func merging(_ other: JSONObject) -> JSONObject {
        var copy = self
        copy.merge(other)
        return copy
    }
}
