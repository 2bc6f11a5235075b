/// The one function a harness consists of: it runs one input through the code
/// under test and aborts (through `require`, or a crash) when something is wrong.
public typealias Harness = (UnsafeRawBufferPointer) -> Void

/// The `main` of every harness program. Built for fuzzing (`-DFUZZING`, with
/// `-sanitize=fuzzer` linking libFuzzer), it hands the command line to
/// libFuzzer's driver; built plainly, it replays the files the command line
/// names, so that any build can reproduce a crash file or check a corpus.
public func runHarness(_ harness: @escaping Harness) -> Never {
    #if FUZZING
    // Lazily made globals (compiled schemas, tables) are made here, before
    // libFuzzer watches for leaks: LeakSanitizer cannot see a pointer that
    // Swift keeps in an enum's spare bits, so it would blame their first use
    // on whichever input came first.
    harness(UnsafeRawBufferPointer(start: nil, count: 0))
    runLibFuzzer(harness)
    #else
    replayMain(harness)
    #endif
}
