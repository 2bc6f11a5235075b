#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` to standard error (file descriptor 2) at once, unbuffered,
/// so that it is out before an abort.
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
