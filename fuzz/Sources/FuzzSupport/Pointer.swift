/// Whether `text` has the form of a JSON pointer: empty, or starting with a
/// slash. Checked on the bytes: as a `Character`, a slash followed by a
/// combining mark is not "/", so `hasPrefix("/")` would say no.
public func isPointer(_ text: String) -> Bool {
    text.isEmpty || text.utf8.first == UInt8(ascii: "/")
}
