import BuntingCore
import BuntingJSON
import Foundation
import Testing

/// A server started again on a document it loaded before serves it from
/// its note, with the same answers, and a changed document is loaded anew.
@Suite struct KnownDocumentsTests {
    static let request =
        #"{"jsonrpc":"2.0","id":1,"method":"evaluateFlag","params":{"flagKey":"new-checkout","context":{"targetingKey":"user-1","country":"SE"}}}"#
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
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: "\(notes)/\(Self.notesSubdirectory)").filter {
                $0.hasSuffix(".json")
            }.count == 1)
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
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: storage + "/known-definitions").filter {
                $0.hasSuffix(".json")
            }.count == 1)
        #expect(try serve(arguments).stderr.contains("loaded before"))
        // The same flags, other bytes: not the noted document.
        try (String(contentsOfFile: file, encoding: .utf8) + "\n").write(
            toFile: file, atomically: true, encoding: .utf8)
        let changed = try serve(arguments)
        #expect(!changed.stderr.contains("loaded before"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: storage + "/known-definitions").filter {
                $0.hasSuffix(".json")
            }.count == 2)
    }

    /// Files a user keeps in the directory named by `--cache-dir`, that look
    /// like notes or not, are none of Bunting's business: none is deleted.
    @Test func aCacheDirectoryOfTheUsersFilesLosesNoneOfThem() throws {
        let directory = try temporaryDirectory()
        let project = directory + "/project"
        let theirs = try plantFiles(in: project, count: 80)
        for start in 1...2 {
            let server = try ServerProcess(
                framing: .ndjson,
                arguments: [
                    "--cache-dir", project, "--definitions", exampleDefinitions, "--log-level", "debug",
                ])
            _ = try server.call("evaluateFlag", ["flagKey": "new-checkout", "context": ["targetingKey": "u"]])
            try server.expectPromptStatusAndTermination()
            #expect(try filesAndContents(in: project, names: theirs.keys) == theirs, "start \(start)")
            if start == 2 { #expect(server.stderr.contains("loaded before"), "the note still serves") }
        }
        let notes = try FileManager.default.contentsOfDirectory(atPath: project).filter { theirs[$0] == nil }
        #expect(notes == [KnownDocumentsTests.notesSubdirectory], "Bunting's notes keep to their own subdirectory")
    }

    /// A `known-definitions` planted in the storage directory as a symbolic
    /// link to another directory is not followed: nothing there is written or deleted.
    @Test func aPlantedNotesLinkIsNotFollowed() throws {
        let directory = try temporaryDirectory()
        let storage = directory + "/state"
        let victim = directory + "/victim"
        let theirs = try plantFiles(in: victim, count: 80)
        try FileManager.default.createDirectory(
            atPath: storage, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: storage + "/known-definitions", withDestinationPath: victim)
        let server = try ServerProcess(
            framing: .ndjson,
            arguments: ["--storage", storage, "--definitions", exampleDefinitions, "--log-level", "info"])
        _ = try server.call("evaluateFlag", ["flagKey": "new-checkout", "context": ["targetingKey": "u"]])
        #expect(server.stderrContains("not keeping notes of loaded definitions in \(storage)/known-definitions"))
        try server.expectPromptStatusAndTermination()
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim).sorted() == theirs.keys.sorted())
        #expect(try filesAndContents(in: victim, names: theirs.keys) == theirs)
    }

    /// A note forged for a document `--strict` refuses, by anyone who can
    /// write into the notes directory: the genuine note of a good document,
    /// its digest and size made those of the bad one, under the name the bad
    /// one's note would have. The strict start must refuse the document all
    /// the same, not serve it on the note's word.
    @Test func aForgedNoteDoesNotLetAStrictStartServeADocumentItRefuses() throws {
        let directory = try temporaryDirectory()
        let cache = directory + "/cache"
        let file = directory + "/definitions.json"
        let good = try Data(contentsOf: URL(fileURLWithPath: exampleDefinitions))
        try good.write(to: URL(fileURLWithPath: file))
        let arguments = ["serve", "--strict", "--storage", ":memory:", "--cache-dir", cache, "--definitions", file]
        let noting = try ServerProcess(framing: .ndjson, arguments: Array(arguments.dropFirst()))
        _ = try noting.call("evaluateFlag", ["flagKey": "new-checkout", "context": ["targetingKey": "u"]])
        try noting.expectPromptStatusAndTermination()
        let notes = try FileManager.default.subpathsOfDirectory(atPath: cache).filter { $0.hasSuffix("-strict.json") }
        let genuine = try #require(notes.first, "the strict start noted the good document")
        let note = try JSON.parse(Array(try Data(contentsOf: URL(fileURLWithPath: "\(cache)/\(genuine)"))))
        let goodDigest = try #require(note["digest"]?.stringValue)

        // Valid JSON with a banner that misses its fields: served without --strict, refused with it.
        let bad = Array(
            #"{"flags": {"f": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}}, "banners": [{"id": "b"}]}"#
                .utf8)
        try Data(bad).write(to: URL(fileURLWithPath: file))
        let badDigest = try digest(of: bad, like: goodDigest)
        var forged = note.objectValue ?? [:]
        forged["bytes"] = .int(bad.count)
        forged["digest"] = .string(badDigest)
        let name = genuine.replacingOccurrences(of: goodDigest, with: badDigest).replacingOccurrences(
            of: "-\(good.count)-", with: "-\(bad.count)-")
        try Data(JSON.object(forged).encoded()).write(to: URL(fileURLWithPath: "\(cache)/\(name)"))

        let refused = try runBunting(arguments, input: Self.request + "\n")
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stderr.contains("bunting: cannot use the definitions at \(file)"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
    }

    /// The document's digest as the note writes it: 16 hex digits of
    /// FNV-1a, or 64 of SHA-256 (`sha256sum`).
    private func digest(of bytes: [UInt8], like noted: String) throws -> String {
        if noted.count == 16 { return String(format: "%016llx", fnv1a64(bytes)) }
        let sum = Process()
        sum.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        sum.standardInput = input
        sum.standardOutput = output
        try sum.run()
        let deadline = ChildDeadline(sum)
        try input.fileHandleForWriting.write(contentsOf: Data(bytes))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try deadline.waitForExit("sha256sum")
        return String(text.prefix(64))
    }

    /// The subdirectory of `--cache-dir` that holds Bunting's notes.
    static let notesSubdirectory = "bunting-known-definitions"

    /// Writes `count` files of the user's into `directory` (made if need
    /// be): JSON files of every age, some named like notes, and others.
    private func plantFiles(in directory: String, count: Int) throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var files: [String: String] = [:]
        for index in 0..<count {
            let name = index % 10 == 0 ? String(format: "%016x-%d.json", index, index) : "file-\(index).json"
            files[name] = #"{"mine": \#(index)}"#
            try Data(files[name]!.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
            // Older than any note: the oldest files went first.
            var times = [
                timespec(tv_sec: 1_000_000 + index, tv_nsec: 0), timespec(tv_sec: 1_000_000 + index, tv_nsec: 0),
            ]
            #expect(utimensat(AT_FDCWD, "\(directory)/\(name)", &times, 0) == 0)
        }
        files["notes.txt"] = "not JSON"
        try Data("not JSON".utf8).write(to: URL(fileURLWithPath: directory + "/notes.txt"))
        return files
    }

    private func filesAndContents(in directory: String, names: some Sequence<String>) throws -> [String: String] {
        var found: [String: String] = [:]
        for name in names {
            if let data = FileManager.default.contents(atPath: "\(directory)/\(name)") {
                found[name] = String(decoding: data, as: UTF8.self)
            }
        }
        return found
    }

    @Test func anInMemoryServerKeepsNoNotesUnlessToldWhere() throws {
        #expect(
            !(try serve(["--storage", ":memory:", "--definitions", exampleDefinitions]).stderr.contains("noted that")))
        #expect(try runBunting(["serve", "--no-cache", "--cache-dir", "/tmp"]).status == 64)
    }
}
