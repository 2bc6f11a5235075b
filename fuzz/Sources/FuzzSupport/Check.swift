#if canImport(Glibc)
import Glibc
#endif

/// Fails the run when an invariant does not hold: prints what was expected and
/// aborts, which libFuzzer (and the replay main) report as a crash with the
/// input that caused it.
public func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    guard !condition() else { return }
    writeToStandardError("invariant failed at \(file):\(line): \(message())\n")
    abort()
}
