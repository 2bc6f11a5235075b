extension UInt16 {
    /// The UTF-16 code unit of an ASCII character, for readable comparisons
    /// with JavaScript strings' code units.
    init(ascii scalar: Unicode.Scalar) {
        self = UInt16(truncatingIfNeeded: scalar.value)
    }
}
