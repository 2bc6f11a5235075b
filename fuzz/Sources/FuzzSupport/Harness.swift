/// The one function a harness consists of: it runs one input through the code
/// under test and aborts (through `require`, or a crash) when something is wrong.
public typealias Harness = (UnsafeRawBufferPointer) -> Void

/// The `main` of every harness program. Built for fuzzing (`-DFUZZING`, with
/// `-sanitize=fuzzer` linking libFuzzer), it hands the command line to
/// libFuzzer's driver; built plainly, it replays the files the command line
/// names, so that any build can reproduce a crash file or check a corpus.
public func runHarness(_ harness: @escaping Harness) -> Never {
    #if FUZZING
    // Lazily made globals (compiled schemas, tables) are made here, with
    // LeakSanitizer told to ignore what is allocated meanwhile: it cannot see
    // a pointer that Swift keeps in an enum's spare bits, so it takes those
    // globals for lost whenever libFuzzer asks it for a leak check, which an
    // input with more allocations than frees does.
    lsanDisable()
    harness(UnsafeRawBufferPointer(start: nil, count: 0))
    lsanEnable()
    runLibFuzzer(harness)
    #else
    replayMain(harness)
    #endif
}

#if FUZZING
/// LeakSanitizer's interface (part of AddressSanitizer's runtime): objects
/// allocated between the two calls are never reported as leaks.
@_silgen_name("__lsan_disable") private func lsanDisable()
@_silgen_name("__lsan_enable") private func lsanEnable()
#endif
