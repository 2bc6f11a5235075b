#if canImport(Glibc)
import Glibc
#endif
import CRuntime

/// Starts a detached thread with a generous stack, named (as `top -H` and
/// debuggers show it) with the first 15 bytes of `name`.
///
/// Bunting's threads recurse over JSON values and rules that may nest a few
/// hundred levels; an explicit stack size keeps that safe whatever the
/// platform's default is.
public func startThread(name: String, stackSize: Int = 8 << 20, _ body: @escaping @Sendable () -> Void) {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, stackSize)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(ThreadStart(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, &attributes,
        { context in
            let start = Unmanaged<ThreadStart>.fromOpaque(context!).takeRetainedValue()
            _ = bunting_name_thread(String(decoding: start.name.utf8.prefix(15), as: UTF8.self))
            start.body()
            return nil
        }, context)
    pthread_attr_destroy(&attributes)
    precondition(result == 0, "cannot start thread \(name): error \(result)")
}

/// What a new thread runs, handed through pthread's `void *` argument.
private final class ThreadStart {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}
