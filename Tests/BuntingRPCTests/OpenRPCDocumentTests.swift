import BuntingJSON
import BuntingRPC
import Foundation
import Testing

/// The OpenRPC document is the contract: it must be valid OpenRPC, built into
/// the binary unchanged, and list exactly the methods and params the server has.
@Suite struct OpenRPCDocumentTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func document() throws -> JSON {
        try JSON.parse(Array(Data(contentsOf: packageRoot.appendingPathComponent("schemas/openrpc.json"))))
    }

    @Test func theEmbeddedDocumentIsTheFile() throws {
        #expect(ServerMethods.openRPCDocument() == (try Self.document()))
    }

    @Test func methodsAndParamsMatchTheDispatcher() throws {
        let methods = try #require(try Self.document()["methods"]?.arrayValue)
        var documented: [String: [String]] = [:]
        for method in methods {
            let name = try #require(method["name"]?.stringValue)
            documented[name] = method["params"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        }
        #expect(Set(documented.keys) == Set(ProtocolMethods.fields.keys))
        for (name, fields) in ProtocolMethods.fields {
            #expect(Set(documented[name] ?? []) == Set(fields), "params of \(name)")
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
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "check_openrpc.py: \(text)")
    }
}
