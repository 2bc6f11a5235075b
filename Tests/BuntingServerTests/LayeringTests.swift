import Foundation
import Testing

/// The README's table of modules is the layering: each module's imports
/// there are exactly its dependencies in Package.swift.
@Suite struct LayeringTests {
    @Test func theReadmeTableMatchesPackageSwift() throws {
        let root = OpenRPCDocumentTests.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var documented: [String: Set<String>] = [:]
        // The Layout section alone: it ends where the next section starts.
        let afterHeading = readme.components(separatedBy: "\n## Layout").dropFirst().first ?? ""
        let section = afterHeading.components(separatedBy: "\n## ").first ?? ""
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            let names = cells[0].split(separator: ",").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: " `"))
            }
            let imports =
                cells[2] == "—"
                ? []
                : cells[2].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            for name in names { documented[name] = Set(imports) }
        }
        // Read from the manifest's text (`swift package dump-package` would
        // wait for the build lock that the running tests hold).
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var declared: [String: Set<String>] = [:]
        for kind in [".target(", ".executableTarget(", ".systemLibrary("] {
            for declaration in manifest.components(separatedBy: kind).dropFirst() {
                // The declaration runs to the parenthesis that closes it.
                var depth = 1
                var end = declaration.startIndex
                while depth > 0, end < declaration.endIndex {
                    if declaration[end] == "(" { depth += 1 } else if declaration[end] == ")" { depth -= 1 }
                    end = declaration.index(after: end)
                }
                let body = declaration[..<end]
                guard let nameRange = body.range(of: #"name: "([^"]+)""#, options: .regularExpression) else { continue }
                let name = body[nameRange].dropFirst(7).dropLast()
                var dependencies: Set<String> = []
                if let list = body.range(of: #"dependencies: \[[^\]]*\]"#, options: .regularExpression) {
                    for quoted in body[list].split(separator: "\"").enumerated() where quoted.offset % 2 == 1 {
                        dependencies.insert(String(quoted.element))
                    }
                }
                declared[String(name)] = dependencies
            }
        }
        // Benchmarks are not layers.
        for name in declared.keys where name.hasSuffix("-bench") { declared[name] = nil }
        #expect(!declared.isEmpty, "swift package dump-package answered")
        #expect(Set(documented.keys) == Set(declared.keys), "modules")
        for (name, dependencies) in declared {
            #expect(documented[name] == dependencies, "imports of \(name)")
        }
    }
}
