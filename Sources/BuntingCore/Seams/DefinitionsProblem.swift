import BuntingJSON

/// One thing wrong with a definitions document: where (a JSON pointer, and
/// the line and column in the text) and what.
public struct DefinitionsProblem: Equatable, Sendable, CustomStringConvertible {
    /// RFC 6901 pointer into the document; "" for the document as a whole.
    public var pointer: String
    /// 1-based; 0 when the text could not be read as JSON at all.
    public var line: Int
    public var column: Int
    public var message: String

    public init(pointer: String, line: Int, column: Int, message: String) {
        self.pointer = pointer
        self.line = line
        self.column = column
        self.message = message
    }

    /// `/flags/checkout/state (12:16): value "ON" is not one of …`
    public var description: String {
        let place = pointer.isEmpty ? "(document)" : pointer
        return line > 0 ? "\(place) (\(line):\(column)): \(message)" : "\(place): \(message)"
    }
}

extension DefinitionsProblem {
    /// `{pointer, line, column, message}`, as `status` lists it.
    public var json: JSON {
        .object(["pointer": .string(pointer), "line": .int(line), "column": .int(column), "message": .string(message)])
    }
}
