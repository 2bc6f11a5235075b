import BuntingJSON
import Foundation
@testable import BuntingTemplates

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

    static let fixtures = packageRoot.appendingPathComponent("Tests/BuntingTemplatesTests/Fixtures")
}

/// 2026-03-14 09:26:53.5 UTC: the clock of the tests.
let testNow = 1_773_480_413.5

func json(_ text: String) -> JSON {
    do { return try JSON.parse(text) } catch { fatalError("bad JSON in test: \(text): \(error)") }
}

/// Parses and renders in one go.
func render(
    _ source: String, data: JSON = [:], attributes: JSON = [:], userId: String? = nil, now: Double = testNow,
    blocks: [String: String] = [:], limits: TemplateLimits = .default
) throws(TemplateError) -> String {
    let template = try Template(source, limits: limits)
    var contentBlocks = ContentBlocks()
    for (name, text) in blocks { contentBlocks[name] = try Template(text, limits: limits) }
    let context = RenderContext(
        attributes: attributes.objectValue ?? JSONObject(), data: data.objectValue ?? JSONObject(), userId: userId,
        now: now,
        contentBlocks: contentBlocks, limits: limits)
    return try template.render(context)
}

/// The error a template gives, parsing or rendering; nil when it renders.
func failure(
    _ source: String, data: JSON = [:], attributes: JSON = [:], blocks: [String: String] = [:],
    limits: TemplateLimits = .default
) -> TemplateError? {
    do {
        _ = try render(source, data: data, attributes: attributes, blocks: blocks, limits: limits)
        return nil
    } catch {
        return error
    }
}
