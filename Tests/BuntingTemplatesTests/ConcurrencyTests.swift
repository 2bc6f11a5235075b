import BuntingJSON
import Testing
@testable import BuntingTemplates

/// Templates are values: parsed on any thread, rendered on any other.
@Suite struct ConcurrencyTests {
    @Test func parseOnManyThreadsRenderOnOthers() async throws {
        let sources = (0..<32).map { "{% for i in (1..\($0 % 5 + 1)) %}{{ ${name} | append: i }}{% endfor %}" }
        let templates = try await withThrowingTaskGroup(of: (Int, Template).self) { group in
            for (index, source) in sources.enumerated() {
                group.addTask { (index, try Template(source)) }
            }
            var parsed: [Int: Template] = [:]
            for try await (index, template) in group { parsed[index] = template }
            return parsed
        }
        let texts = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, template) in templates {
                group.addTask { (index, try template.render(RenderContext(attributes: ["name": "n"], now: 0))) }
            }
            var rendered: [Int: String] = [:]
            for try await (index, text) in group { rendered[index] = text }
            return rendered
        }
        for index in sources.indices {
            let count = index % 5 + 1
            #expect(texts[index] == (1...count).map { "n\($0)" }.joined(), "template \(index)")
        }
    }
}
