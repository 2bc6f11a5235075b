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
    private static func advance(_ from: Checkpoint, to offset: Int, in text: UnsafeRawBufferPointer) -> Checkpoint {
        var line = from.line
        var lineStart: Int?
        for index in from.offset..<offset where text[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        var column = lineStart == nil ? from.column : 1
        for index in (lineStart ?? from.offset)..<offset where text[index] & 0xC0 != 0x80 { column += 1 }
        return Checkpoint(offset: offset, line: line, column: column)
    }
}
