#if canImport(Glibc)
import Glibc
#endif

/// Descriptors 0, 1 and 2, made sure to be open before anything else is.
///
/// A process started with one of them closed hands that number to the
/// next file it opens: the storage directory's lock file would then be read
/// as requests (0), be written the replies (1) or the log (2). Each closed
/// one is opened on /dev/null instead, so that what would have gone to it
/// goes nowhere and reading it is the end of input.
enum StandardDescriptors {
    /// Returns whether all three are open (or could be filled).
    @discardableResult
    static func guardOpen() -> Bool {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
            // The lowest free number: `fd` itself, the ones below it being open.
            let null = open("/dev/null", O_RDWR)
            guard null == fd else {
                if null >= 0 { close(null) }
                return false
            }
        }
        return true
    }
}
