/// `[e0,e1,…]` of values that write their own text, not yet written: a
/// builder appends it in place, so that a snapshot or stored cache of
/// thousands of items is written once, straight into the text that carries
/// it, instead of into an array text of its own that is then copied.
///
/// Inlinable so that it is specialized for the caller's element type: no
/// witness call, and no copy of the element, per item.
public struct EncodedArray<Elements: Collection>: JSONText where Elements.Element: JSONText {
    @usableFromInline let elements: Elements

    @inlinable
    public init(_ elements: Elements) {
        self.elements = elements
    }

    @inlinable
    public func appendEncoded(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            element.appendEncoded(to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Brackets, commas and the elements' own text.
    @inlinable
    public var encodedCount: Int {
        var count = 2 + Swift.max(0, elements.count - 1)
        for element in elements { count += element.encodedCount }
        return count
    }
}
