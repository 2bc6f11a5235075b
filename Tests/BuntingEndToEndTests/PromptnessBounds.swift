#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

extension ServerProcess {
    /// What every test of files and faults holds a live server to, at its
    /// end: `status` answered within 100 ms (500 ms in a sanitizer build),
    /// then SIGTERM ending the process (exit status 0) within 1 s.
    func expectPromptStatusAndTermination(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let asked = Date()
        let reply = try call("status")
        let answeredIn = Date().timeIntervalSince(asked)
        #expect(reply["result"]?["version"] != nil, "\(reply.encodedString())", sourceLocation: sourceLocation)
        let bound = 0.1 * Self.sanitizerStretch
        #expect(answeredIn < bound, "status took \(answeredIn) s", sourceLocation: sourceLocation)
        let signalled = Date()
        kill(process.processIdentifier, SIGTERM)
        let status = try waitForExit()
        let endedIn = Date().timeIntervalSince(signalled)
        #expect(status == 0, sourceLocation: sourceLocation)
        #expect(endedIn < 1, "SIGTERM took \(endedIn) s to end the server", sourceLocation: sourceLocation)
    }

    /// How much longer a bound on the server's promptness is in a sanitizer
    /// build (`scripts/sanitize` sets the sanitizers' options), where every
    /// step runs several times slower: status took 0.12 s once under
    /// ThreadSanitizer on two cores. The bounds catch a server that is stuck
    /// (waiting on a load, a lock or a full pipe: seconds), not a slow one.
    static let sanitizerStretch: Double =
        ProcessInfo.processInfo.environment.keys.contains { $0.hasSuffix("SAN_OPTIONS") } ? 5 : 1
}
