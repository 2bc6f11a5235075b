import BuntingJSON
import Foundation
import Testing
@testable import BuntingRules

/// Resolves the same flags for the same contexts in-process and with
/// openfeature-flagd-core (1.0.0 for the string generation of `fractional`,
/// 2.0.0 for the CBOR one), and requires identical value, variant, reason and
/// error code for every flag and context.
///
/// The oracles live in virtual environments under .build/venv (see
/// `setupCommand`); a missing one fails the test rather than skipping it.
@Suite(.serialized)
struct FlagdDifferentialTests {
    static let contextCount = 10_000

    struct Oracle {
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
        try compareWithOracles(document: document, types: types, contexts: contexts, label: "generated")
    }

    @Test func flagdSchemaExamplesMatchBothOracles() throws {
        let examples = TestPaths.fixture("flagd-schemas/examples")
        let contexts = DifferentialFixtures.contexts(count: 2_000, seed: 0xE4A)
        for name in ["full.json", "minimal.json"] {
            let document = try loadJSON(examples.appendingPathComponent(name))
            try compareWithOracles(document: document, types: [:], contexts: contexts, label: name)
        }
    }

    // MARK: - Running and comparing

    private func compareWithOracles(
        document: JSON, types: [String: FlagValueType], contexts: [JSON], label: String
    ) throws {
        let available = Self.oracles.compactMap { oracle in Self.python(oracle).map { (oracle, $0) } }
        for oracle in Self.oracles where Self.python(oracle) == nil {
            Issue.record("""
                The flagd-core oracle \(oracle.package) is not installed. From the package root run:
                  \(Self.setupCommand(oracle))
                """)
        }
        guard !available.isEmpty else { return }

        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bunting-differential-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let flagsFile = directory.appendingPathComponent("flags.json")
        try Data(document.encoded()).write(to: flagsFile)
        let contextsFile = directory.appendingPathComponent("contexts.ndjson")
        var lines: [UInt8] = []
        for context in contexts {
            context.encode(appendingTo: &lines)
            lines.append(UInt8(ascii: "\n"))
        }
        try Data(lines).write(to: contextsFile)
        let typeArgument = JSON.object(JSONObject(types.map { ($0.key, JSON.string($0.value.rawValue)) })).encodedString()

        // The oracles run while the expected results are computed here, one
        // thread per oracle.
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/python/flagd_oracle.py")
        let processes = try available.map { oracle, python in
            try OracleProcess(
                python: python, script: script,
                arguments: [flagsFile.path, String(DifferentialFixtures.timestamp), typeArgument],
                input: contextsFile)
        }
        let flagSets = try available.map { oracle, _ in try FlagSet(document: document, fractionalHashing: oracle.hashing) }
        let outcomes = Outcomes(count: available.count)
        DispatchQueue.concurrentPerform(iterations: available.count) { position in
            outcomes.record(position, Result {
                try Self.compare(flagSets[position], with: processes[position], types: types, contexts: contexts)
            })
        }

        for (position, (oracle, _)) in available.enumerated() {
            switch outcomes.results[position] {
            case .success(let comparison)?:
                print("differential \(label) vs \(oracle.package): \(comparison.compared) resolutions, \(comparison.mismatches.count) mismatches")
                #expect(comparison.mismatches.isEmpty, """
                    \(label) vs \(oracle.package): \(comparison.mismatches.count) of \(comparison.compared) differ; first ones:
                    \(comparison.mismatches.prefix(15).joined(separator: "\n"))
                    """)
            case .failure(let error)?:
                Issue.record("\(label) vs \(oracle.package): \(error)")
            case nil:
                Issue.record("\(label) vs \(oracle.package): no result")
            }
        }
    }

    struct Comparison {
        var compared = 0
        var mismatches: [String] = []
    }

    /// Results of the comparison threads; each writes its own slot, read
    /// after `concurrentPerform` returns.
    final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var results: [Result<Comparison, any Error>?]

        init(count: Int) { results = Array(repeating: nil, count: count) }

        func record(_ position: Int, _ result: Result<Comparison, any Error>) {
            lock.lock()
            results[position] = result
            lock.unlock()
        }
    }

    private static func compare(
        _ flagSet: FlagSet, with process: OracleProcess, types: [String: FlagValueType], contexts: [JSON]
    ) throws -> Comparison {
        let keys = flagSet.flagKeys + ["no-such-flag"]
        let mine = contexts.map { context in
            keys.map { key in
                flagSet.resolve(flagKey: key, context: context, timestamp: DifferentialFixtures.timestamp, expecting: types[key])
            }
        }
        let output = try process.finish()
        guard let headerLine = output.first else { throw OracleProcess.OracleFailure(status: 0, stderr: "no output") }
        let header = try JSON.parse(String(headerLine))
        guard header["keys"] == .array(keys.map { .string($0) }) else {
            throw OracleProcess.OracleFailure(status: 0, stderr: "the oracle lists other flags: \(header["keys"]?.encodedString() ?? "none")")
        }
        let metadata = header["metadata"] ?? .null
        var comparison = Comparison()
        guard output.count - 1 == contexts.count else {
            throw OracleProcess.OracleFailure(status: 0, stderr: "\(output.count - 1) result lines for \(contexts.count) contexts")
        }
        for (index, line) in output.dropFirst().enumerated() {
            guard case .array(let expected) = try JSON.parse(String(line)), expected.count == keys.count else {
                throw OracleProcess.OracleFailure(status: 0, stderr: "bad result line: \(line.prefix(200))")
            }
            for (position, key) in keys.enumerated() {
                comparison.compared += 1
                let resolution = mine[index][position]
                if let difference = difference(resolution, expected[position], metadata: metadata[key]) {
                    comparison.mismatches.append("\(key) for \(contexts[index].encodedString()):\n    \(difference)")
                }
            }
        }
        return comparison
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
        return "mine:   \(actual.encodedString())\(message), metadata \(JSON.object(mine.metadata).encodedString())\n    oracle: \(oracle.encodedString()), metadata \(metadata?.encodedString() ?? "none")"
    }
}
