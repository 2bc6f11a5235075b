import BuntingJSON
import Foundation
import Testing
@testable import BuntingTemplates

/// Inputs the Liquid fuzz target (fuzz/Sources/fuzz-liquid) once failed on,
/// kept in fuzz/crashes/liquid/, run through the same calls and checks.
@Suite struct LiquidFuzzRegressionTests {
    static let crashes = TestPaths.packageRoot.appendingPathComponent("fuzz/crashes/liquid")

    static let small = TemplateLimits(
        maxTemplateBytes: 8192, maxNesting: 12, maxSteps: 4000, maxOutputBytes: 4096, maxCapturedBytes: 4096,
        maxStringBytes: 4096, maxArrayLength: 400, maxStrftimeWidth: 64, maxContentBlockDepth: 3)

    static var inputs: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: crashes.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func thereAreInputs() {
        #expect(!Self.inputs.isEmpty, "no inputs in \(Self.crashes.path)")
    }

    /// The template (up to a NUL byte) renders within the small limits, or
    /// fails with an error inside its text.
    @Test(arguments: inputs)
    func renderStaysWithinItsLimits(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.crashes.appendingPathComponent(name)))
        let source = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        do {
            let text = try Template(source, limits: Self.small).render(RenderContext(now: 0, limits: Self.small))
            #expect(text.utf8.count <= Self.small.maxOutputBytes)
        } catch {
            #expect(error.offset >= 0 && error.offset <= source.utf8.count)
            #expect(error.line >= 1 && error.column >= 1)
        }
    }

    /// The first input found: plain text longer than the output limit was
    /// returned whole, since plain text skips the renderer.
    @Test func plainTextIsHeldToTheOutputLimit() throws {
        let limits = TemplateLimits(maxOutputBytes: 10)
        #expect(try Template("0123456789").render(RenderContext(now: 0, limits: limits)) == "0123456789")
        let error = Result { try Template("0123456789A").render(RenderContext(now: 0, limits: limits)) }
        guard case .failure(let failure as TemplateError) = error else {
            Issue.record("11 bytes of plain text rendered past a 10-byte limit")
            return
        }
        #expect(failure.reason == .limit && failure.phase == .render)
    }
}
