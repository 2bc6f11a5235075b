/// Where `cat` puts its pieces: the string being built, or a hash of it.
protocol ConcatenationSink {
    /// UTF-8 bytes so far.
    var byteCount: Int { get }
    mutating func append(_ text: String)
}

extension String: ConcatenationSink {
    var byteCount: Int { utf8.count }
}
