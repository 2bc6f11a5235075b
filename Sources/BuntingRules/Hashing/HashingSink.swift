/// The MurmurHash3 of a concatenation, fed piece by piece.
struct HashingSink: ConcatenationSink {
    var hasher = MurmurHash3()
    private(set) var byteCount = 0

    mutating func append(_ text: String) {
        hasher.combine(text)
        byteCount += text.utf8.count
    }
}
