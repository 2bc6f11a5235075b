import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it on deinit.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bunting-storage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    var database: String { file("bunting.sqlite3") }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }

    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
}
