import BuntingJSON
import Foundation

/// Files the tests read: the fixtures beside this file, and the repository's schemas.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")
    static let flagdJSON = directory.appendingPathComponent("flagd-schemas/json")
    static let repository = directory.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }

    static func json(_ url: URL) throws -> JSON {
        try JSON.parse(Array(Data(contentsOf: url)))
    }

    /// The `.json` files directly in `directory`, by name.
    static func jsonFiles(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
