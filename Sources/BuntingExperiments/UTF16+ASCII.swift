/// Copies the UTF-16 code units of `text` into `buffer` (which has room for
/// `text.utf16.count`), through the UTF-8 bytes when they are all ASCII (the
/// usual case, and several times faster than the UTF-16 view).
func copyCodeUnits(of text: String, into buffer: UnsafeMutableBufferPointer<UInt16>) {
    let copied = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
        for (index, byte) in bytes.enumerated() {
            guard byte < 0x80 else { return false }
            buffer[index] = UInt16(byte)
        }
        return true
    }
    if copied == true { return }
    var index = 0
    for unit in text.utf16 {
        buffer[index] = unit
        index += 1
    }
}

extension UInt16 {
    /// The UTF-16 code unit of an ASCII character, for readable comparisons
    /// with JavaScript strings' code units.
    init(ascii scalar: Unicode.Scalar) {
        self = UInt16(truncatingIfNeeded: scalar.value)
    }
}
