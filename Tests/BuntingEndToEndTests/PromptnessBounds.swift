#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

extension ServerProcess {
    /// What every test of files and faults holds a live server to, at its
    /// end: `status` answered within 100 ms, then SIGTERM ending the process
    /// (exit status 0) within 1 s.
    func expectPromptStatusAndTermination(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let asked = Date()
        let reply = try call("status")
        let answeredIn = Date().timeIntervalSince(asked)
        #expect(reply["result"]?["version"] != nil, "\(reply.encodedString())", sourceLocation: sourceLocation)
        #expect(answeredIn < 0.1, "status took \(answeredIn) s", sourceLocation: sourceLocation)
        let signalled = Date()
        kill(process.processIdentifier, SIGTERM)
        let status = try waitForExit()
        let endedIn = Date().timeIntervalSince(signalled)
        #expect(status == 0, sourceLocation: sourceLocation)
        #expect(endedIn < 1, "SIGTERM took \(endedIn) s to end the server", sourceLocation: sourceLocation)
    }
}
