import BuntingJSON
import Foundation

/// Paths of the package and its test data, found from this file so that the
/// tests run from any working directory.
enum TestPaths {
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    static let fixtures = packageRoot.appendingPathComponent("Tests/BuntingExperimentsTests/Fixtures")

    static func fixture(_ relativePath: String) -> URL {
        fixtures.appendingPathComponent(relativePath)
    }
}

func loadJSON(_ url: URL) throws -> JSON {
    try JSON.parse(Array(try Data(contentsOf: url)))
}

func json(_ text: String) -> JSON {
    do { return try JSON.parse(text) } catch { fatalError("bad JSON in test: \(text): \(error)") }
}

/// Equality for expectations: numbers by value (1 and 1.0 are the same),
/// objects by members whatever their order, everything else exactly.
func sameJSON(_ lhs: JSON, _ rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.integer, .integer), (.integer, .real), (.real, .integer), (.real, .real):
        return lhs.doubleValue == rhs.doubleValue
    case (.array(let a), .array(let b)):
        return a.count == b.count && zip(a, b).allSatisfy(sameJSON)
    case (.object(let a), .object(let b)):
        return a.count == b.count && a.allSatisfy { key, value in b[key].map { sameJSON(value, $0) } ?? false }
    default:
        return lhs == rhs
    }
}
