import BuntingJSON
import Foundation
import Testing

/// A server started again on a document it loaded before serves it from
/// its note, with the same answers, and a changed document is loaded anew.
@Suite struct KnownDocumentsTests {
    static let request = #"{"jsonrpc":"2.0","id":1,"method":"evaluateFlag","params":{"flagKey":"new-checkout","context":{"targetingKey":"user-1","country":"SE"}}}"#
        + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"evaluateFlags","params":{"context":{"targetingKey":"user-1"}}}"#

    func serve(_ arguments: [String]) throws -> (stdout: String, stderr: String) {
        let run = try runBunting(["serve", "--log-level", "debug"] + arguments, input: Self.request + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        return (run.stdout, run.stderr)
    }

    func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "bunting-notes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aSecondStartServesFromTheNoteWithTheSameAnswers() throws {
        let directory = try temporaryDirectory()
        let notes = directory + "/notes"
        let arguments = ["--storage", ":memory:", "--cache-dir", notes, "--definitions", exampleDefinitions]
        let first = try serve(arguments)
        #expect(first.stderr.contains("noted that the definitions document"))
        #expect(!first.stderr.contains("loaded before"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: notes).count == 1)
        let second = try serve(arguments)
        #expect(second.stderr.contains("loaded before"), "\(second.stderr)")
        #expect(second.stdout == first.stdout)
        #expect(first.stdout.contains(#""id":1,"result""#) && first.stdout.contains(#""id":2,"result""#))
        let unnoted = try serve(["--storage", ":memory:", "--no-cache", "--definitions", exampleDefinitions])
        #expect(unnoted.stdout == first.stdout)
        #expect(!unnoted.stderr.contains("loaded before") && !unnoted.stderr.contains("noted that"))
    }

    @Test func notesLiveInTheStorageDirectoryAndAChangedDocumentIsLoadedAnew() throws {
        let directory = try temporaryDirectory()
        let storage = directory + "/state"
        let file = directory + "/definitions.json"
        try FileManager.default.copyItem(atPath: exampleDefinitions, toPath: file)
        let arguments = ["--storage", storage, "--definitions", file]
        _ = try serve(arguments)
        #expect(try FileManager.default.contentsOfDirectory(atPath: storage + "/known-definitions").count == 1)
        #expect(try serve(arguments).stderr.contains("loaded before"))
        // The same flags, other bytes: not the noted document.
        try (String(contentsOfFile: file, encoding: .utf8) + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let changed = try serve(arguments)
        #expect(!changed.stderr.contains("loaded before"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: storage + "/known-definitions").count == 2)
    }

    @Test func anInMemoryServerKeepsNoNotesUnlessToldWhere() throws {
        #expect(!(try serve(["--storage", ":memory:", "--definitions", exampleDefinitions]).stderr.contains("noted that")))
        #expect(try runBunting(["serve", "--no-cache", "--cache-dir", "/tmp"]).status == 64)
    }
}
