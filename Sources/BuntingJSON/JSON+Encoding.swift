import CJansson

extension JSON {
    /// The compact UTF-8 text of this value (no white space between tokens,
    /// object keys in insertion order), as jansson writes it.
    public func encoded() -> [UInt8] {
        var output: [UInt8] = []
        encode(appendingTo: &output)
        return output
    }

    /// The compact text as a Swift string.
    public func encodedString() -> String {
        String(decoding: encoded(), as: UTF8.self)
    }

    /// Appends the compact text to `output`, so that a writer can put framing
    /// and several messages into one buffer.
    ///
    /// Reals are written with the fewest digits that read back to the same
    /// Double for the value that needs the most (jansson takes one precision per
    /// call), so `0.1` is written as `0.1`. NaN and infinities, which JSON cannot
    /// express, are written as `null`.
    ///
    /// A value without reals is written in Swift (`JSONWriter`, the same
    /// bytes), and so is one whose reals jansson writes as their shortest
    /// text (`ShortestReals`); any other is written by jansson.
    public func encode(appendingTo output: inout [UInt8]) {
        // A scalar first (a real without an exponent too), then any value
        // whose reals agree in Swift, then jansson.
        if appendScalarText(to: &output) { return }
        let start = output.count
        if JSONWriter.write(self, to: &output, shortestReals: true) { return }
        output.removeSubrange(start...)
        encodeWithJansson(appendingTo: &output)
    }

    /// Scalars whose text JSON fixes are written here, byte for byte as
    /// jansson writes them (`ScalarTextTests` holds the two equal for every
    /// case): `null`, booleans, integers, reals Swift writes without an
    /// exponent, and strings of printable ASCII without a quote or a
    /// backslash, which need no escaping. For those, building a
    /// jansson node and dumping it cost far more than the text; a result
    /// written member by member has many of them. Anything else is jansson's.
    func appendScalarText(to output: inout [UInt8]) -> Bool {
        switch self {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .integer(let number):
            output.append(contentsOf: String(number).utf8)
        case .real(let number):
            // Swift's shortest round-trip form, where it has no exponent, is
            // what jansson writes with the precision `digitsToRoundTrip` picks.
            guard number.isFinite else { return false }
            let text = number.description
            guard !text.utf8.contains(UInt8(ascii: "e")) else { return false }
            output.append(contentsOf: text.utf8)
        case .string(var text):
            let plain = text.withUTF8 { bytes in
                bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
            }
            guard plain else { return false }
            output.append(UInt8(ascii: "\""))
            text.withUTF8 { output.append(contentsOf: $0) }
            output.append(UInt8(ascii: "\""))
        default:
            return false
        }
        return true
    }

    /// Jansson's dump of the value, for every value: the reference
    /// `JSONWriter` and `appendScalarText` are held to.
    @_spi(Fuzzing) public func encodeWithJansson(appendingTo output: inout [UInt8]) {
        var builder = JanssonTreeBuilder()
        let tree = builder.build(self)
        let flags = bunting_json_encode_flags(Int32(builder.realPrecision))
        // Most messages are small: jansson writes them into a buffer on the
        // stack in one call, and one copy appends them. A larger one is
        // measured by that first call and written again into a buffer of its size.
        let needed = withUnsafeTemporaryAllocation(byteCount: Self.stackBufferSize, alignment: 1) { buffer -> Int in
            let size = json_dumpb(
                tree.pointer, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count, flags)
            if size <= buffer.count {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<size]))
                return 0
            }
            return size
        }
        guard needed > 0 else { return }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: needed))
        output.withUnsafeMutableBytes { bytes in
            let destination = bytes.baseAddress!.advanced(by: start).assumingMemoryBound(to: CChar.self)
            _ = json_dumpb(tree.pointer, destination, needed, flags)
        }
    }

    /// Replies and notifications are mostly a few hundred bytes.
    static let stackBufferSize = 8192
}

/// Builds a jansson tree from a `JSON` value and works out the real precision
/// the dump needs.
private struct JanssonTreeBuilder {
    /// Significant digits for `%.*g`; 1 is jansson's smallest, 17 always round-trips.
    private(set) var realPrecision = 1

    mutating func build(_ value: JSON) -> JanssonHandle {
        JanssonHandle(taking: make(value))
    }

    private mutating func make(_ value: JSON) -> UnsafeMutablePointer<json_t> {
        switch value {
        case .null:
            return json_null()
        case .bool(let flag):
            return flag ? json_true() : json_false()
        case .integer(let number):
            return json_integer(json_int_t(number)) ?? json_null()
        case .real(let number):
            guard number.isFinite, let real = json_real(number) else { return json_null() }
            realPrecision = max(realPrecision, ShortestReals.digitsToRoundTrip(number))
            return real
        case .string(var text):
            let string = text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    bunting_json_stringn(chars.baseAddress, chars.count)
                }
            }
            return string ?? json_null()
        case .array(let elements):
            guard let array = json_array() else { return json_null() }
            for element in elements { json_array_append_new(array, make(element)) }
            return array
        case .object(let members):
            guard let object = json_object() else { return json_null() }
            for (var key, member) in members {
                let child = make(member)
                key.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        _ = bunting_json_object_set(object, chars.baseAddress, chars.count, child)
                    }
                }
            }
            return object
        }
    }
}
