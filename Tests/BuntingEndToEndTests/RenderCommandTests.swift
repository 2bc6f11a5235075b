import Foundation
import Testing

/// `bunting render` through the built binary: text on stdout exactly,
/// errors with their place and reason on stderr and exit status 1.
@Suite struct RenderCommandTests {
    @Test func rendersWithAttributesDataAndTheClock() throws {
        let greeting = try runBunting([
            "render", "--attributes", #"{"first_name":"Ada"}"#, "Hi {{${first_name} | default: 'there'}}!",
        ])
        #expect(greeting.status == 0)
        #expect(greeting.stdout == "Hi Ada!")
        let missing = try runBunting(["render", "Hi {{${first_name} | default: 'there'}}!"])
        #expect(missing.stdout == "Hi there!")
        let data = try runBunting(["render", "--data", #"{"n": 41}"#, "{{ n | plus: 1 }}"])
        #expect(data.stdout == "42")
        let clock = try runBunting([
            "render", "--at", "2026-03-14T09:26:53Z",
            "{{ 'now' | time_zone: 'America/Los_Angeles' | date: '%Y-%m-%d %H:%M %Z' }}",
        ])
        #expect(clock.stdout == "2026-03-14 02:26 PDT")
        let seconds = try runBunting(["render", "--at", "0", "{{ 'now' | date: '%s' }}"])
        #expect(seconds.stdout == "0")
        let user = try runBunting([
            "render", "--user-id", "ada-1", "--content-blocks", #"{"sig": "— {{${user_id}}}"}"#,
            "{{content_blocks.${sig}}}",
        ])
        #expect(user.stdout == "— ada-1")
    }

    @Test func readsTheTemplateFromAFileOrStandardInput() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString).liquid")
        try "line one\n{{ 'two' | upcase }}\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try runBunting(["render", "--file", file.path])
        #expect(fromFile.status == 0)
        #expect(fromFile.stdout == "line one\nTWO\n")
        let fromStdin = try runBunting(["render", "--file", "-"], input: "{% for i in (1..3) %}{{ i }}{% endfor %}")
        #expect(fromStdin.stdout == "123")
    }

    @Test func errorsSayWhereAndWhyAndExit1() throws {
        let parse = try runBunting(["render", "Hello\n{{ name | shout }}"])
        #expect(parse.status == 1)
        #expect(parse.stdout.isEmpty)
        #expect(parse.stderr == "template:2:11: INVALID_TEMPLATE: unknown filter 'shout'\n")
        let abort = try runBunting(["render", "{% abort_message('not for you') %}"])
        #expect(abort.status == 1)
        #expect(abort.stderr == "template:1:1: TEMPLATE_ABORTED: aborted by abort_message: not for you\n")
        let limit = try runBunting([
            "render", "{% for i in (1..100000) %}{% for j in (1..100000) %}{% endfor %}{% endfor %}",
        ])
        #expect(limit.status == 1)
        #expect(limit.stderr.hasPrefix("template:1:27: TEMPLATE_LIMIT: "))
        let network = try runBunting(["render", "{% connected_content https://example.com :save x %}"])
        #expect(network.status == 1)
        #expect(
            network.stderr.contains(
                "INVALID_TEMPLATE: the tag 'connected_content' is refused: it would reach the network"))
    }

    @Test func aWrongCommandLineExits64() throws {
        for arguments in [
            ["render"], ["render", "a", "b"], ["render", "--data", "[1]", "x"], ["render", "--at", "soon", "x"],
            ["render", "--file", "f", "x"],
        ] {
            let result = try runBunting(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("bunting render --help"), "\(arguments)")
        }
        let help = try runBunting(["render", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage: bunting render"))
    }
}
