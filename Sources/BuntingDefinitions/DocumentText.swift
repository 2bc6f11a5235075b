import BuntingRuntime
import BuntingSchema

/// The text of a definitions document while it loads, held here alone, so
/// that what has been compiled of it can be given back before the rest is.
///
/// At the peak of loading a large document the whole text sat beside
/// everything compiled from it (at 20,000 content cards, 6.9 MB of text
/// beside about 12 MB compiled): what the peak is measured against, the
/// memory once loaded, holds no text. When the caller has given the text up
/// (`mayGiveBack`), the loader gives back the whole pages of each batch of
/// flags, banners or cards once it is compiled without a problem (`giveBack`);
/// those pages then read as zeros. A batch with a problem keeps its text,
/// so that the problem is found in it, and the lines and columns of places
/// after text given back are counted from `checkpoints`, made while that
/// text was there.
final class DocumentText {
    /// A place in the text, its 1-based line and column (in code points, as
    /// `JSONSourceLocator` counts them).
    private struct Checkpoint {
        let offset: Int
        let line: Int
        let column: Int
    }

    private(set) var bytes: [UInt8]
    /// Whether pages may be given back: the caller does not read the text
    /// again (were it shared after all, giving back copies it first: safe,
    /// and what `copiedToGiveBack` tells a test).
    let mayGiveBack: Bool
    /// Whether any page has been given back (and reads as zeros).
    private(set) var hasGivenBack = false
    /// How many bytes have been given back.
    private(set) var bytesGivenBack = 0
    /// Whether giving back found the text shared and copied it (for tests).
    private(set) var copiedToGiveBack = false
    /// Places whose line and column are known, in the order of the text: the
    /// start, each place counted to, and the end of each stretch given back,
    /// so that counting from the last one before a place never reads text
    /// given back.
    private var checkpoints = [Checkpoint(offset: 0, line: 1, column: 1)]
    /// The pages given back last.
    private var lastGivenBack: Range<Int>?

    init(_ bytes: consuming [UInt8], mayGiveBack: Bool = false) {
        self.bytes = bytes
        self.mayGiveBack = mayGiveBack
    }

    var count: Int { bytes.count }

    func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let result = bytes.withUnsafeBytes { text in Swift.Result { () throws(Failure) -> Result in try body(text) } }
        return try result.get()
    }

    /// Gives back the whole pages of `range`, text that will not be read
    /// again; nothing when giving back is not allowed. The line and column
    /// just past them are counted first.
    func giveBack(_ range: Range<Int>) {
        guard mayGiveBack, range.upperBound <= bytes.count else { return }
        // What was given back last time is not counted twice.
        var range = range
        if let last = lastGivenBack, range.contains(last.upperBound) { range = last.upperBound..<range.upperBound }
        guard !range.isEmpty else { return }
        var checkpoints = self.checkpoints
        let before = bytes.withUnsafeBytes { $0.baseAddress }
        let given = bytes.withUnsafeMutableBytes { text -> Range<Int>? in
            guard let pages = wholePages(in: UnsafeRawBufferPointer(rebasing: text[range])) else { return nil }
            let end = range.lowerBound + pages.upperBound
            _ = Self.place(end, in: UnsafeRawBufferPointer(text), checkpoints: &checkpoints)
            let given = (range.lowerBound + pages.lowerBound)..<end
            guard giveBackPages(UnsafeMutableRawBufferPointer(rebasing: text[given])) else { return nil }
            return given
        }
        if bytes.withUnsafeBytes({ $0.baseAddress }) != before { copiedToGiveBack = true }
        self.checkpoints = checkpoints
        guard let given else { return }
        hasGivenBack = true
        bytesGivenBack += given.count
        lastGivenBack = given
    }

    /// Line and column of a byte offset (clamped to the text), as
    /// `JSONSourceLocator.location(ofOffset:)` gives them, counted from the
    /// last checkpoint before it: the offset must not lie in text given back
    /// (no problem points there), and then no text given back lies between.
    func location(ofOffset offset: Int) -> JSONSourceLocation {
        let end = max(0, min(offset, bytes.count))
        var checkpoints = self.checkpoints
        let place = bytes.withUnsafeBytes { Self.place(end, in: $0, checkpoints: &checkpoints) }
        self.checkpoints = checkpoints
        return JSONSourceLocation(line: place.line, column: place.column, offset: offset)
    }

    /// Checkpoints are left this far apart as text is counted, so that no
    /// lookup counts further than this past one (a document may have
    /// thousands of problems, not in the order of the text).
    private static let checkpointStride = 64 << 10

    /// The line and column at `offset`, counted from the last checkpoint at
    /// or before it; the checkpoints met on the way are added.
    private static func place(_ offset: Int, in text: UnsafeRawBufferPointer, checkpoints: inout [Checkpoint])
        -> Checkpoint
    {
        // The last checkpoint at or before the offset.
        var low = 0
        var high = checkpoints.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if checkpoints[middle].offset <= offset { low = middle } else { high = middle - 1 }
        }
        var place = checkpoints[low]
        var insertAt = low + 1
        while place.offset < offset {
            let next = min(offset, place.offset + checkpointStride)
            place = advance(place, to: next, in: text)
            if insertAt < checkpoints.count && checkpoints[insertAt].offset == place.offset {
                insertAt += 1
            } else {
                checkpoints.insert(place, at: insertAt)
                insertAt += 1
            }
        }
        return place
    }

    /// `from` moved on to `offset`: a line for each `\n`, a column for each
    /// byte that does not continue a UTF-8 sequence since the last one.
    /// Eight bytes at a time, counted in the bytes of a word (a byte-by-byte
    /// count was a tenth of loading 20,000 flags, callgrind).
    private static func advance(_ from: Checkpoint, to offset: Int, in text: UnsafeRawBufferPointer) -> Checkpoint {
        guard let lineStart = lastLineStart(in: text, from.offset..<offset) else {
            let continuing = count(in: text, from.offset..<offset, continuations) { $0 & 0xC0 == 0x80 }
            return Checkpoint(offset: offset, line: from.line, column: from.column + offset - from.offset - continuing)
        }
        let feeds = count(in: text, from.offset..<lineStart, lineFeeds) { $0 == UInt8(ascii: "\n") }
        let continuing = count(in: text, lineStart..<offset, continuations) { $0 & 0xC0 == 0x80 }
        return Checkpoint(offset: offset, line: from.line + feeds, column: 1 + offset - lineStart - continuing)
    }

    /// Where the last line that starts in `range` starts (just after its
    /// `\n`), searched from the end; nil when `range` holds no `\n`.
    private static func lastLineStart(in text: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        var index = range.upperBound
        while index - range.lowerBound >= 8 {
            index -= 8
            // Byte k of the text is byte k of the word, its bits 8k to 8k+7.
            let word = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let feeds = lineFeeds(word)
            if feeds != 0 { return index + (63 - feeds.leadingZeroBitCount) / 8 + 1 }
        }
        while index > range.lowerBound {
            index -= 1
            if text[index] == UInt8(ascii: "\n") { return index + 1 }
        }
        return nil
    }

    /// How many bytes of `range` are of a kind: `select` marks them with the
    /// high bit of each byte of a word, `isOne` tells a byte. Words are
    /// added up in the bytes of one (up to 255 before they could carry).
    private static func count(
        in text: UnsafeRawBufferPointer, _ range: Range<Int>, _ select: (UInt64) -> UInt64, _ isOne: (UInt8) -> Bool
    ) -> Int {
        var total = 0
        var index = range.lowerBound
        while range.upperBound - index >= 8 {
            var lanes: UInt64 = 0
            var words = 0
            while words < 255 && range.upperBound - index >= 8 {
                lanes &+= select(text.loadUnaligned(fromByteOffset: index, as: UInt64.self)) >> 7
                index += 8
                words += 1
            }
            // The eight byte counts (up to 255 each) added in 16-bit lanes, then across.
            let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes >> 8) & 0x00FF_00FF_00FF_00FF)
            total += Int((pairs &* 0x0001_0001_0001_0001) >> 48)
        }
        while index < range.upperBound {
            if isOne(text[index]) { total += 1 }
            index += 1
        }
        return total
    }

    /// The high bit of each byte of `word` that is `\n`.
    private static func lineFeeds(_ word: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let other = word ^ 0x0A0A_0A0A_0A0A_0A0A
        return ~(((other & low7) &+ low7) | other | low7)
    }

    /// The high bit of each byte of `word` that continues a UTF-8 sequence (10xxxxxx).
    private static func continuations(_ word: UInt64) -> UInt64 {
        word & ~(word << 1) & 0x8080_8080_8080_8080
    }
}
