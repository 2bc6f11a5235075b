import BuntingJSON

/// Scans over a message's JSON text that jansson has no call for, on
/// BuntingJSON's one token scanner. They assume well-formed JSON (the text is
/// parsed too, and its errors come from the parser) and never read out of bounds.
enum JSONScan {
    /// The number of elements of a top-level array, counting no further than
    /// `limit + 1`; nil when the text is not an array.
    static func batchLength(_ bytes: UnsafeRawBufferPointer, stoppingAfter limit: Int) -> Int? {
        var scanner = JSONTokenScanner(bytes)
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        if scanner.take(UInt8(ascii: "]")) { return 0 }
        var count = 1
        while count <= limit {
            scanner.skipWhitespace()
            guard scanner.skipValue(), scanner.take(UInt8(ascii: ",")) else { return count }
            count += 1
        }
        return count
    }

    /// The text of each numeric `id` member: of the top-level object, or of
    /// each object element of a top-level array (nil where there is none).
    static func idTexts(_ bytes: UnsafeRawBufferPointer) -> [String?] {
        var scanner = JSONTokenScanner(bytes)
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "{") { return [idText(ofObjectAt: &scanner)] }
        guard scanner.take(UInt8(ascii: "[")) else { return [] }
        var texts: [String?] = []
        while !scanner.atEnd, scanner.current != UInt8(ascii: "]") {
            if scanner.current == UInt8(ascii: "{") {
                texts.append(idText(ofObjectAt: &scanner))
            } else {
                texts.append(nil)
                guard scanner.skipValue() else { return texts }
            }
            _ = scanner.take(UInt8(ascii: ","))
        }
        return texts
    }

    /// Reads the object at the scanner (moving past it) and returns the text
    /// of its `id` member when that is a number.
    private static func idText(ofObjectAt scanner: inout JSONTokenScanner) -> String? {
        var found: String?
        _ = scanner.take(UInt8(ascii: "{"))
        while true {
            scanner.skipWhitespace()
            let keyStart = scanner.position
            guard scanner.current == UInt8(ascii: "\""), scanner.skipString() else {
                _ = scanner.take(UInt8(ascii: "}"))
                return found
            }
            let isID =
                scanner.position - keyStart == 4 && scanner.bytes[keyStart + 1] == UInt8(ascii: "i")
                && scanner.bytes[keyStart + 2] == UInt8(ascii: "d")
            guard scanner.take(UInt8(ascii: ":")) else { return found }
            scanner.skipWhitespace()
            let valueStart = scanner.position
            guard scanner.skipValue() else { return found }
            let first = scanner.bytes[valueStart]
            if isID, first == UInt8(ascii: "-") || (first >= 48 && first <= 57) {
                let text = UnsafeRawBufferPointer(rebasing: scanner.bytes[valueStart..<scanner.position])
                found = String(decoding: text, as: UTF8.self)
            }
            _ = scanner.take(UInt8(ascii: ","))
        }
    }
}
