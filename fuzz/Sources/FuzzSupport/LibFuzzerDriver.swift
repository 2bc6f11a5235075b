#if FUZZING
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's entry for programs that keep their own `main`
/// (`int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*)(const uint8_t *, size_t))`).
/// SwiftPM gives every executable a Swift `main`, so libFuzzer's own cannot be used.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The harness libFuzzer's callback runs; set once, before the driver starts.
nonisolated(unsafe) private var currentHarness: Harness?

func runLibFuzzer(_ harness: @escaping Harness) -> Never {
    currentHarness = harness
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        currentHarness?(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
    exit(status)
}
#endif
