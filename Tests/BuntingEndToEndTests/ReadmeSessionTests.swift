import Foundation
import Testing

/// The README's session by hand, piped in one go instead of typed, gives the
/// README's replies and events in the README's order — every time, in both
/// framings: requests take effect in order.
@Suite struct ReadmeSessionTests {
    @Test(arguments: ServerProcess.WireFraming.allCases)
    func theReadmeSessionPipedInOneGoGivesTheReadmeAnswers(framing: ServerProcess.WireFraming) throws {
        let transcript = try Transcript.fromMarkdown("README.md", after: "## A session by hand")
        #expect(transcript.inputs.count == 11 && transcript.expected.count == 15, "the README's session was read")
        for run in 1...100 {
            let server = try ServerProcess(framing: framing, arguments: ["--framing", framing.rawValue])
            try server.sendRaw(transcript.inputs.flatMap { framing.frame(Array($0.utf8)) })
            try server.closeInput()
            #expect(try server.waitForExit() == 0)
            let differences = transcript.differences(server.receivedText)
            #expect(differences.isEmpty, "run \(run): \(differences.joined(separator: "\n"))")
            if !differences.isEmpty { break }
        }
    }
}
