import BuntingJSON
import Foundation
import Testing

/// Runs `bunting` with `arguments` and `input`, and returns its exit status
/// and output. Output is read while it runs, so a large output cannot block it.
func runBunting(_ arguments: [String], input: String = "") throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = BuiltProducts.bunting
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let deadline = ChildDeadline(process)
    let errorData = LockedData()
    let errorDone = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        errorData.append(stderr.fileHandleForReading.readDataToEndOfFile())
        errorDone.signal()
    }
    // A program that exits before reading its input (a usage error) closes
    // the pipe first: what it answered is the result, not the broken pipe.
    do {
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
    } catch let error as NSError where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(EPIPE) {}
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    try deadline.waitForExit("bunting \(arguments.joined(separator: " "))")
    errorDone.wait()
    return (
        process.terminationStatus, String(decoding: output, as: UTF8.self),
        String(decoding: errorData.value, as: UTF8.self)
    )
}

var exampleDefinitions: String {
    BuiltProducts.packageRoot.appendingPathComponent("examples/definitions/bunting.json").path
}

@Suite struct CommandLineTests {
    @Test func validateAcceptsTheExample() throws {
        let result = try runBunting(["validate", exampleDefinitions])
        #expect(result.status == 0)
        #expect(result.stdout.contains("valid (5 flags, 3 banners, 5 content cards)"))
    }

    @Test func validateNamesEachProblemByLineColumnAndPointer() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(
            """
            {
              "flags": {"f": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on",
                              "targeting": {"bogus": [1]}}},
              "banners": [{"id": "b", "placementId": "p", "html": "x", "priority": "high", "properties": {}}]
            }
            """)
        let result = try runBunting(["validate", workspace.definitions.path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.hasPrefix(workspace.definitions.path + ":4:") && $0.contains("/banners/0/priority:") })
        #expect(lines.last == "\(workspace.definitions.path): 1 problem" || lines.last?.hasSuffix("problems") == true)
    }

    @Test func validateReportsARuleThatDoesNotCompile() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(
            #"{"flags": {"f": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on", "targeting": {"if": [{"$ref": "missing"}, "on", null]}}}}"#
        )
        let result = try runBunting(["validate", workspace.definitions.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("/flags/f/targeting/if/0/$ref"))
    }

    @Test func evalStreamsOneLinePerContext() throws {
        let contexts = """
            {"targetingKey": "ada", "tier": "gold", "cartValue": 30}
            not json
            {"targetingKey": "bo"}
            """
        let result = try runBunting(
            ["eval", "--definitions", exampleDefinitions, "--contexts", "-", "--at", "1764600000"], input: contexts)
        #expect(result.status == 1) // the bad line
        let lines = try result.stdout.split(separator: "\n").map { try JSON.parse(String($0)) }
        #expect(lines.count == 3)
        #expect(lines[0]["flags"]?["new-checkout"]?["variant"] == "on")
        #expect(lines[0]["flags"]?["new-checkout"]?["reason"] == "TARGETING_MATCH")
        #expect(lines[0]["banners"]?["home-top"]?["id"] == "home-gold-upsell")
        #expect(lines[1]["error"]?.stringValue != nil)
        #expect(lines[2]["flags"]?["legacy-export"]?["reason"] == "DISABLED")
        #expect(lines[2]["featureFlags"]?.arrayValue?.contains { $0["id"] == "new-checkout" } == true)
    }

    @Test func evalOfARule() throws {
        let result = try runBunting(["eval", "--rule", #"{"+":[{"var":"a"},2]}"#, "--data", #"{"a":40}"#])
        #expect(result.status == 0)
        #expect(result.stdout == "42\n")
        let bad = try runBunting(["eval", "--rule", #"{"nope":[1]}"#])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("nope"))
    }

    @Test func versionHelpAndUsageErrors() throws {
        #expect(try runBunting(["version"]).stdout == "bunting 0.1.0\n")
        for command in ["serve", "eval", "validate", "version"] {
            let help = try runBunting([command, "--help"])
            #expect(help.status == 0, "\(command) --help")
            #expect(help.stdout.hasPrefix("Usage: bunting \(command)"), "\(command) --help")
        }
        #expect(try runBunting(["frobnicate"]).status == 64)
        #expect(try runBunting(["serve", "--framing", "xml"]).status == 64)
        #expect(try runBunting(["serve", "--poll-interval", "-1"]).status == 64)
        #expect(try runBunting(["validate"]).status == 64)
        #expect(try runBunting(["eval"]).status == 64)
        #expect(try runBunting([]).status == 64)
    }
}
