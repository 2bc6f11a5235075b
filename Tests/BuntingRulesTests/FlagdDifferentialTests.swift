import BuntingJSON
import Foundation
import Testing
@testable import BuntingRules

/// Resolves the same flags for the same contexts in-process and with
/// openfeature-flagd-core (1.0.0 for the string generation of `fractional`,
/// 2.0.0 for the CBOR one), and requires identical value, variant, reason and
/// error code (and metadata) for every flag and context.
///
/// Where the oracles answer differently from the flagd daemon, which
/// BuntingRules follows, the oracle is given input rewritten by the named
/// `KnownDifference`, never a looser comparison.
///
/// The oracles live in virtual environments under .build/venv (see
/// `setupCommand`); a missing one fails the test rather than skipping it.
@Suite(.serialized)
struct FlagdDifferentialTests {
    static let contextCount = 10_000

    struct Oracle: Sendable {
        let hashing: FractionalHashing
        let venv: String
        let package: String
    }

    static let oracles = [
        Oracle(hashing: .murmur3String, venv: "flagd-core-1", package: "openfeature-flagd-core==1.0.0"),
        Oracle(hashing: .murmur3CBOR, venv: "flagd-core-2", package: "openfeature-flagd-core==2.0.0"),
    ]

    static func setupCommand(_ oracle: Oracle) -> String {
        "python3 -m venv .build/venv/\(oracle.venv) && .build/venv/\(oracle.venv)/bin/pip install \(oracle.package)"
    }

    static func python(_ oracle: Oracle) -> URL? {
        let url = TestPaths.packageRoot.appendingPathComponent(".build/venv/\(oracle.venv)/bin/python")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

    @Test func generatedFlagsMatchBothOracles() throws {
        let (document, types) = DifferentialFixtures.document(seed: 0xF1A6D)
        let contexts = DifferentialFixtures.contexts(count: Self.contextCount, seed: 0xC0DE)
        let applied = try compareWithOracles(document: document, types: types, contexts: contexts, label: "generated")
        // Every known difference must still be exercised, or it is stale.
        for (oracle, counts) in applied {
            for difference in KnownDifference.all where difference.generations.contains(oracle.hashing) {
                #expect((counts[difference.name] ?? 0) > 0, "\(oracle.package): \"\(difference.name)\" applied nowhere")
            }
        }
    }

    @Test func flagdSchemaExamplesMatchBothOracles() throws {
        let examples = TestPaths.fixture("flagd-schemas/examples")
        let contexts = DifferentialFixtures.contexts(count: 2_000, seed: 0xE4A)
        for name in ["full.json", "minimal.json"] {
            let document = try loadJSON(examples.appendingPathComponent(name))
            _ = try compareWithOracles(document: document, types: [:], contexts: contexts, label: name)
        }
    }

    /// Each known difference on a small input of its own: the oracle, given
    /// the input unchanged, answers differently from BuntingRules, so the
    /// rewrite is needed (and the README's note is true).
    @Test func knownDifferencesAreReal() throws {
        let cases: [(KnownDifference, JSON, [String: FlagValueType], [JSON])] = [
            (
                .partialVersionWithSuffix,
                [
                    "flags": [
                        "f": [
                            "state": "ENABLED", "variants": ["true": "T", "false": "F", "d": "D"],
                            "defaultVariant": "d",
                            "targeting": ["sem_ver": [["var": "version"], "=", "1.2.0-rc.1"]],
                        ]
                    ]
                ],
                [:], [["version": "1.2-rc.1"], ["version": "v1+build"]]
            ),
            (
                .unknownReferenceNotEvaluated,
                [
                    "flags": [
                        "f": [
                            "state": "ENABLED", "variants": ["a": "A", "b": "B"], "defaultVariant": "a",
                            "targeting": ["if": [true, "a", ["$ref": "nowhere"]]],
                        ]
                    ]
                ],
                [:], [["targetingKey": "user-1"]]
            ),
            (
                .wholeRealWeight,
                [
                    "flags": [
                        "f": [
                            "state": "ENABLED", "variants": ["a": "A", "b": "B", "d": "D"], "defaultVariant": "d",
                            "targeting": ["fractional": [["a", 50.0], ["b", 50]]],
                        ]
                    ]
                ],
                [:], [["targetingKey": "user-1"], ["targetingKey": "user-2"]]
            ),
            (
                .nonStringTargetingKey,
                [
                    "flags": [
                        "f": [
                            "state": "ENABLED", "variants": ["a": "A", "b": "B", "d": "D"], "defaultVariant": "d",
                            "targeting": ["fractional": [["a", 1], ["b", 1]]],
                        ]
                    ]
                ],
                [:], [["targetingKey": 5]]
            ),
            (
                .wholeRealAsInteger,
                ["flags": ["f": ["state": "ENABLED", "variants": ["two": 2.0], "defaultVariant": "two"]]],
                ["f": .integer], [.object(JSONObject())]
            ),
        ]
        for (difference, document, types, contexts) in cases {
            let flagSets = try Self.oracles.map { try FlagSet(document: document, fractionalHashing: $0.hashing) }
            for (oracle, flagSet) in zip(Self.oracles, flagSets) where difference.generations.contains(oracle.hashing) {
                guard let python = Self.python(oracle) else {
                    Issue.record("\(oracle.package) is not installed: \(Self.setupCommand(oracle))")
                    continue
                }
                let run = try OracleRun(python: python, document: document, types: types, contexts: contexts)
                let results = try run.results(expectedKeys: flagSet.flagKeys + ["no-such-flag"], count: contexts.count)
                for (index, context) in contexts.enumerated() {
                    let mine = flagSet.resolve(
                        flagKey: "f", context: context, timestamp: DifferentialFixtures.timestamp, expecting: types["f"]
                    )
                    #expect(
                        Self.difference(mine, results.rows[index][0], metadata: results.metadata["f"]) != nil,
                        "\(difference.name) vs \(oracle.package): the oracle agrees on \(context.encodedString())")
                }
            }
        }
    }

    // MARK: - Running and comparing

    /// Compares every flag for every context with each oracle; returns, per
    /// oracle, how many flags and contexts each known difference rewrote.
    private func compareWithOracles(
        document: JSON, types: [String: FlagValueType], contexts generated: [JSON], label: String
    ) throws -> [(Oracle, [String: Int])] {
        for oracle in Self.oracles where Self.python(oracle) == nil {
            Issue.record(
                """
                The flagd-core oracle \(oracle.package) is not installed. From the package root run:
                  \(Self.setupCommand(oracle))
                """)
        }
        // Both sides read the contexts from the same text.
        let contexts = try generated.map { try JSON.parse($0.encodedString()) }

        var runs: [(Oracle, OracleRun, [String: Int])] = []
        for oracle in Self.oracles {
            guard let python = Self.python(oracle) else { continue }
            let differences = KnownDifference.all.filter { $0.generations.contains(oracle.hashing) }
            var applied: [String: Int] = [:]
            let oracleDocument = Self.rewrite(document, types: types, differences, applied: &applied)
            let oracleContexts = contexts.map { Self.rewrite($0, differences, applied: &applied) }
            let run = try OracleRun(python: python, document: oracleDocument, types: types, contexts: oracleContexts)
            runs.append((oracle, run, applied))
        }

        // The oracles run while the expected results are computed here.
        for (oracle, run, applied) in runs {
            let flagSet = try FlagSet(document: document, fractionalHashing: oracle.hashing)
            let keys = flagSet.flagKeys + ["no-such-flag"]
            let mine = contexts.map { context in
                keys.map { key in
                    flagSet.resolve(
                        flagKey: key, context: context, timestamp: DifferentialFixtures.timestamp, expecting: types[key]
                    )
                }
            }
            let results = try run.results(expectedKeys: keys, count: contexts.count)
            var compared = 0
            var mismatches: [String] = []
            for (index, row) in results.rows.enumerated() {
                for (position, key) in keys.enumerated() {
                    compared += 1
                    if let difference = Self.difference(
                        mine[index][position], row[position], metadata: results.metadata[key])
                    {
                        mismatches.append("\(key) for \(contexts[index].encodedString()):\n    \(difference)")
                    }
                }
            }
            let rewrites = applied.sorted { $0.key < $1.key }.map { "\"\($0.key)\" ×\($0.value)" }.joined(
                separator: ", ")
            print(
                "differential \(label) vs \(oracle.package): \(compared) resolutions, \(mismatches.count) "
                    + "mismatches; known differences rewrote: \(rewrites.isEmpty ? "nothing" : rewrites)")
            #expect(
                mismatches.count == 0,
                """
                \(label) vs \(oracle.package): \(mismatches.count) of \(compared) differ; first ones:
                \(mismatches.prefix(15).joined(separator: "\n"))
                """)
        }
        return runs.map { ($0.0, $0.2) }
    }

    /// The oracle's document: each flag as the differences rewrite it.
    static func rewrite(
        _ document: JSON, types: [String: FlagValueType], _ differences: [KnownDifference], applied: inout [String: Int]
    ) -> JSON {
        guard case .object(var root) = document, case .object(let flags)? = root["flags"] else { return document }
        var rewritten = JSONObject()
        for (key, definition) in flags {
            var current = definition
            for difference in differences {
                if let changed = difference.flag?(key, current, types[key]) {
                    current = changed
                    applied[difference.name, default: 0] += 1
                }
            }
            rewritten[key] = current
        }
        root["flags"] = .object(rewritten)
        return .object(root)
    }

    /// The oracle's context.
    static func rewrite(_ context: JSON, _ differences: [KnownDifference], applied: inout [String: Int]) -> JSON {
        var current = context
        for difference in differences {
            if let changed = difference.context?(current) {
                current = changed
                applied[difference.name, default: 0] += 1
            }
        }
        return current
    }

    /// Nil when the resolutions agree on value, variant, reason and error
    /// code (and metadata, unless the outcome is an error). `oracle` is
    /// [value, variant, reason, errorCode].
    static func difference(_ mine: FlagResolution, _ oracle: JSON, metadata: JSON?) -> String? {
        let variant: JSON = mine.variant.map { .string($0) } ?? .null
        let errorCode: JSON = mine.errorCode.map { .string($0.rawValue) } ?? .null
        let actual: JSON = [mine.value, variant, .string(mine.reason.rawValue), errorCode]
        var same = actual == oracle
        if same, mine.reason != .error {
            same = JSON.object(mine.metadata) == (metadata ?? .object(JSONObject()))
        }
        guard !same else { return nil }
        let message = mine.errorMessage.map { " (\($0))" } ?? ""
        return "mine:   \(actual.encodedString())\(message), metadata \(JSON.object(mine.metadata).encodedString())\n "
            + "   oracle: \(oracle.encodedString()), metadata \(metadata?.encodedString() ?? "none")"
    }
}

/// One run of `Tests/python/flagd_oracle.py` over a document and contexts,
/// written to a temporary directory; the oracle runs while the caller works.
final class OracleRun {
    struct Results {
        /// Per context, per flag key: [value, variant, reason, errorCode].
        var rows: [[JSON]]
        /// The metadata the oracle reports per flag key.
        var metadata: JSON
    }

    private let process: OracleProcess
    private let directory: URL

    init(python: URL, document: JSON, types: [String: FlagValueType], contexts: [JSON]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bunting-differential-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let flagsFile = directory.appendingPathComponent("flags.json")
        try Data(document.encoded()).write(to: flagsFile)
        let contextsFile = directory.appendingPathComponent("contexts.ndjson")
        var lines: [UInt8] = []
        for context in contexts {
            context.encode(appendingTo: &lines)
            lines.append(UInt8(ascii: "\n"))
        }
        try Data(lines).write(to: contextsFile)
        let typeArgument = JSON.object(JSONObject(types.map { ($0.key, JSON.string($0.value.rawValue)) }))
            .encodedString()
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/python/flagd_oracle.py")
        process = try OracleProcess(
            python: python, script: script,
            arguments: [flagsFile.path, String(DifferentialFixtures.timestamp), typeArgument], input: contextsFile)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Waits for the oracle and parses its answer for `count` contexts.
    func results(expectedKeys keys: [String], count: Int) throws -> Results {
        let output = try process.finish()
        guard let headerLine = output.first else { throw OracleProcess.OracleFailure(status: 0, stderr: "no output") }
        let header = try JSON.parse(String(headerLine))
        guard header["keys"] == .array(keys.map { .string($0) }) else {
            throw OracleProcess.OracleFailure(
                status: 0, stderr: "the oracle lists other flags: \(header["keys"]?.encodedString() ?? "none")")
        }
        guard output.count - 1 == count else {
            throw OracleProcess.OracleFailure(
                status: 0, stderr: "\(output.count - 1) result lines for \(count) contexts")
        }
        var rows: [[JSON]] = []
        rows.reserveCapacity(count)
        for line in output.dropFirst() {
            guard case .array(let row) = try JSON.parse(String(line)), row.count == keys.count else {
                throw OracleProcess.OracleFailure(status: 0, stderr: "bad result line: \(line.prefix(200))")
            }
            rows.append(row)
        }
        return Results(rows: rows, metadata: header["metadata"] ?? .null)
    }
}
