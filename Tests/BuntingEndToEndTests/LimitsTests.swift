import Foundation
import Testing

/// The limits of the README's table that the command line sets; those a
/// request meets are checked in process (`BuntingServerTests.LimitsTests`).
@Suite struct LimitsTests {
    /// Timers repeating faster than a millisecond kept the loop from its
    /// input and signals.
    @Test func intervalsHaveAFloor() throws {
        for option in ["--poll-interval", "--flush-interval"] {
            let result = try runBunting(["serve", "--storage", ":memory:", option, "0.0000001"])
            #expect(result.status == 64, "\(option)")
            #expect(result.stderr.contains("must be at least 0.001 seconds"), "\(option)")
        }
    }
}
