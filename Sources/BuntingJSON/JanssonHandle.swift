import CJansson

/// Owns one reference to a jansson value and gives it back in `deinit`.
///
/// This is the only place a `json_t*` lives longer than a function call, and it
/// never leaves this module: the rest of Bunting sees `JSON`.
final class JanssonHandle {
    let pointer: UnsafeMutablePointer<json_t>

    /// Takes over a new reference (jansson's constructors and `json_loadb`
    /// return one), which `deinit` releases.
    init(taking pointer: UnsafeMutablePointer<json_t>) {
        self.pointer = pointer
    }

    deinit {
        json_decref(pointer)
    }
}
