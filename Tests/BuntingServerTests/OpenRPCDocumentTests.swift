import BuntingCore
import BuntingDefinitions
import BuntingJSON
import BuntingJSONRPC
import BuntingRuntime
import BuntingServer
import Foundation
import Testing

/// The OpenRPC document is the contract: it must be valid OpenRPC, built into
/// the binary unchanged, and declare exactly the methods and params of the
/// live method table — the table dispatch and param checking read.
@Suite struct OpenRPCDocumentTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func document() throws -> JSON {
        try JSON.parse(Array(Data(contentsOf: packageRoot.appendingPathComponent("schemas/openrpc.json"))))
    }

    @Test func theEmbeddedDocumentIsTheFile() throws {
        #expect(ServerMethods.openRPCDocument() == (try Self.document()))
    }

    @Test func theDocumentDeclaresExactlyTheLiveTable() throws {
        let document = try Self.document()
        let schemas = document["components"]?["schemas"]?.objectValue ?? [:]
        /// A schema with its `$ref`s followed.
        func resolved(_ schema: JSON?) -> JSON? {
            var schema = schema
            while let ref = schema?["$ref"]?.stringValue, let name = ref.split(separator: "/").last {
                schema = schemas[String(name)]
            }
            return schema
        }
        var documented: [String: JSON] = [:]
        for method in document["methods"]?.arrayValue ?? [] {
            if let name = method["name"]?.stringValue { documented[name] = method }
        }
        let table = LiveTable().table
        #expect(Set(documented.keys) == Set(table.names), "methods")
        for method in table.methods {
            guard let entry = documented[method.name] else { continue }
            let params = entry["params"]?.arrayValue ?? []
            #expect(
                params.compactMap { $0["name"]?.stringValue } == method.params.map(\.name),
                "params of \(method.name), in order")
            for spec in method.params {
                let where_ = "\(method.name).\(spec.name)"
                guard let param = params.first(where: { $0["name"]?.stringValue == spec.name }) else { continue }
                #expect((param["required"]?.boolValue ?? false) == spec.required, "required of \(where_)")
                let schema = resolved(param["schema"])
                #expect(
                    schema?["type"]?.stringValue == (spec.kind == .any ? nil : spec.kind.rawValue), "type of \(where_)")
                #expect(
                    schema?["enum"]?.arrayValue?.compactMap(\.stringValue).sorted() == spec.allowedValues?.sorted(),
                    "enum of \(where_)")
                let minimum = spec.kind == .array ? "minItems" : "minLength"
                let maximum = spec.kind == .array ? "maxItems" : "maxLength"
                #expect(schema?[minimum]?.integerValue.map(Int.init) == spec.minLength, "\(minimum) of \(where_)")
                // The number of placements is the engine's to check: it is configurable.
                let engineLimit =
                    where_ == "refresh.placementIds" ? Engine.Configuration().maxPlacementsPerRefresh : nil
                #expect(
                    schema?[maximum]?.integerValue.map(Int.init) == (spec.maxLength ?? engineLimit),
                    "\(maximum) of \(where_)")
                #expect((schema?["uniqueItems"]?.boolValue ?? false) == spec.uniqueItems, "uniqueItems of \(where_)")
                let items = resolved(schema?["items"])
                #expect(items?["type"]?.stringValue == spec.itemKind?.rawValue, "item type of \(where_)")
                #expect(
                    items?["maxLength"]?.integerValue.map(Int.init) == spec.itemMaxLength,
                    "items' maxLength of \(where_)")
            }
        }
    }

    /// Runs the Python checker: meta-schema validation, every `$ref`
    /// resolving, and every example matching its method's schemas.
    @Test func theDocumentIsValidOpenRPCAndItsExamplesMatchItsSchemas() throws {
        let python = Self.packageRoot.appendingPathComponent(".build/venv/tools/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            Issue.record("the Python test tools are missing: run scripts/setup --test")
            return
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [
            Self.packageRoot.appendingPathComponent("Tests/python/check_openrpc.py").path,
            Self.packageRoot.appendingPathComponent("schemas/openrpc.json").path,
            Self.packageRoot.appendingPathComponent("Tests/python/openrpc-meta-schema.json").path,
        ]
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "check_openrpc.py: \(text)")
    }
}

/// The method table `bunting serve` uses, over an engine on a loop run by hand.
final class LiveTable {
    let loop = EventLoop(clock: ManualClock())
    let engine: Engine
    let table: MethodTable

    init() {
        engine = Engine(
            configuration: Engine.Configuration(), loop: loop, worker: InlineWorker(), source: EmptySource(),
            compile: Definitions.compiler, sink: nil, store: MemoryStore()
        ) { _ in }
        let context = ServerContext(loop: loop, stopInput: {}) { _ in }
        table = BuntingMethods.table(engine: engine, context: context)
    }
}

/// A source with an empty document.
final class EmptySource: DefinitionsSource {
    let location = "(empty)"
    var isLocal: Bool { true }
    func fetch(ifChangedSince version: SourceVersion?) -> SourceFetchResult {
        version == nil ? .fetched(Array("{}".utf8), SourceVersion(fingerprint: "empty")) : .unchanged
    }
}
