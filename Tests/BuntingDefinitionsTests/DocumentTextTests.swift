import BuntingCore
@testable import BuntingDefinitions
import BuntingSchema
import Testing

/// A document's text held while it loads: the whole pages of a stretch
/// compiled are given back, nothing else changes, and lines and columns
/// past them are what they were.
@Suite struct DocumentTextTests {
    /// `count` bytes of lines of varied length, with two- to four-byte characters among ASCII.
    private static func text(_ count: Int, seed: UInt64, lineFeeds: Bool = true) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var pieces: [[UInt8]] = [
            Array("abc".utf8), Array(" ".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8),
            Array("{\"k\": 1},".utf8),
        ]
        if lineFeeds { pieces += [Array("\n".utf8), Array("\n\n".utf8)] }
        var bytes: [UInt8] = []
        while bytes.count < count { bytes += pieces.randomElement(using: &random)! }
        return Array(bytes.prefix(count))
    }

    /// Over many short lines, and over one line (a document written without line feeds).
    @Test(arguments: [true, false])
    func linesAndColumnsAreTheLocatorsInAnyOrder(lineFeeds: Bool) {
        let bytes = Self.text(300_000, seed: 7, lineFeeds: lineFeeds)
        let locator = JSONSourceLocator(bytes)
        let text = DocumentText(bytes)
        var random = SplitMix64(seed: 8)
        var offsets = (0..<400).map { _ in Int.random(in: 0...bytes.count, using: &random) }
        offsets += [0, 1, bytes.count, bytes.count + 5]
        for offset in offsets {
            let expected = locator.location(ofOffset: offset)
            let found = text.location(ofOffset: offset)
            #expect(
                [found.line, found.column, found.offset] == [expected.line, expected.column, expected.offset],
                "offset \(offset)")
        }
    }

    @Test func theWholePagesOfAStretchAreGivenBackAndTheRestIsAsItWas() throws {
        let original = Self.text(200_000, seed: 11)
        let locator = JSONSourceLocator(original)
        let text = DocumentText(original.map { $0 }, mayGiveBack: true)
        let stretches = [1_000..<60_000, 90_001..<150_000]
        for stretch in stretches { text.giveBack(stretch) }
        #expect(text.hasGivenBack)
        #expect(!text.copiedToGiveBack)
        // Whole pages only: up to a page short at each end of each stretch.
        let page = 4096
        #expect(text.bytesGivenBack % page == 0)
        #expect(text.bytesGivenBack > stretches.reduce(0) { $0 + $1.count } - 4 * page)
        var zeros = 0
        for (index, byte) in text.bytes.enumerated() {
            if stretches.contains(where: { $0.contains(index) }) {
                if byte == 0 { zeros += 1 } else { #expect(byte == original[index], "byte \(index)") }
            } else {
                #expect(byte == original[index], "byte \(index) outside what was given back")
            }
        }
        #expect(zeros == text.bytesGivenBack)
        // Places outside what was given back are where they were.
        for offset in [0, 500, 999, 60_000, 75_000, 90_000, 150_000, 170_000, 199_999, 200_000] {
            let expected = locator.location(ofOffset: offset)
            let found = text.location(ofOffset: offset)
            #expect([found.line, found.column] == [expected.line, expected.column], "offset \(offset)")
        }
    }

    /// A text its caller still holds is copied before anything is given
    /// back: the caller's bytes are never touched.
    @Test func aSharedTextIsCopiedNotZeroed() {
        let original = Self.text(100_000, seed: 3)
        let kept = original
        let text = DocumentText(original, mayGiveBack: true)
        text.giveBack(0..<90_000)
        #expect(text.copiedToGiveBack)
        #expect(text.bytesGivenBack > 0)
        #expect(kept == Self.text(100_000, seed: 3))
    }

    @Test func nothingIsGivenBackUnlessAllowed() {
        let original = Self.text(100_000, seed: 5)
        let text = DocumentText(original.map { $0 })
        text.giveBack(0..<90_000)
        #expect(!text.hasGivenBack && text.bytesGivenBack == 0)
        #expect(text.bytes == original)
    }
}
