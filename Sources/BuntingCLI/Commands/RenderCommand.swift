import BuntingJSON
import BuntingRuntime
import BuntingTemplates

/// `bunting render`: renders one Liquid template, as a card or banner would
/// be rendered for one user, and prints the text (exactly, without a
/// newline of its own).
enum RenderCommand {
    static let specs = [
        OptionSpec(
            name: "file", valueName: "PATH|-",
            help: "read the template from a file (- for standard input)\ninstead of the argument"),
        OptionSpec(name: "data", valueName: "JSON", help: "plain Liquid variables, a JSON object: {{ name }}"),
        OptionSpec(name: "attributes", valueName: "JSON", help: "the user's attributes, a JSON object: {{${name}}}"),
        OptionSpec(name: "user-id", valueName: "ID", help: "the user's id: {{${user_id}}}"),
        OptionSpec(
            name: "content-blocks", valueName: "JSON",
            help: "content blocks, a JSON object of name to template:\n{{content_blocks.${name}}}"),
        OptionSpec(
            name: "at", valueName: "TIME",
            help: "render as of this time, Unix seconds or a "
                + "date\n(2026-03-14T09:26:53Z): 'now' in the template (default: now)"),
        OptionSpec(name: "help", valueName: nil, help: "show this help"),
    ]

    static let help = helpText(
        usage: "bunting render [--data JSON] [--attributes JSON] [--at TIME] (TEMPLATE | --file PATH|-)",
        summary: """
            Renders a Liquid template in Braze's dialect, with the limits a card or banner is
            rendered with, and prints the text. A template that does not parse, or fails as it
            renders (a limit, abort_message, a division by zero), prints
            WHERE:LINE:COLUMN: REASON: MESSAGE on standard error, where WHERE is the file, 'stdin' or
            'template'; REASON is INVALID_TEMPLATE, TEMPLATE_LIMIT or TEMPLATE_ABORTED; and the
            exit status is 1.
            """,
        specs: specs)

    /// Templates are small; a megabyte is already past the render limits.
    static let maxTemplateBytes = TemplateLimits.default.maxTemplateBytes

    static func run(_ arguments: ArraySlice<String>) throws(UsageError) -> ExitCode {
        guard let options = try ParsedOptions.unlessHelp(arguments, specs: specs, command: "render", help: help) else {
            return .success
        }
        let source: String
        let place: String
        switch (options.positionals.count, options.value("file")) {
        case (1, nil):
            source = options.positionals[0]
            place = "template"
        case (0, let path?):
            switch readTemplate(path) {
            case .success(let text): source = text
            case .failure(let failure):
                printToStderr("bunting: \(failure.message)\n")
                return .failure
            }
            place = path == "-" ? "stdin" : path
        case (0, nil):
            throw UsageError("give a TEMPLATE or --file PATH", command: "render")
        default:
            throw UsageError("give one TEMPLATE, or --file without a TEMPLATE", command: "render")
        }
        let data = try object(options.value("data"), option: "data")
        let attributes = try object(options.value("attributes"), option: "attributes")
        var now = SystemClock().unixTime()
        if let at = options.value("at") {
            guard let seconds = TimeText.unixTime(at) else {
                throw UsageError(
                    "--at must be Unix seconds or a date such as 2026-03-14T09:26:53Z, not '\(at)'",
                    command: "render")
            }
            now = seconds
        }
        var blocks = ContentBlocks()
        for (name, value) in try object(options.value("content-blocks"), option: "content-blocks") {
            guard case .string(let text) = value else {
                throw UsageError("--content-blocks: the block '\(name)' must be a string", command: "render")
            }
            do {
                blocks[name] = try Template(text)
            } catch {
                printToStderr(
                    "content block '\(name)':\(error.line):\(error.column): "
                        + "\(error.reason.rawValue): \(error.message)\n")
                return .failure
            }
        }
        do {
            let template = try Template(source)
            let context = RenderContext(
                attributes: attributes, data: data, userId: options.value("user-id"), now: now, contentBlocks: blocks)
            printToStdout(try template.render(context))
            return .success
        } catch {
            printToStderr("\(place):\(error.line):\(error.column): \(error.reason.rawValue): \(error.message)\n")
            return .failure
        }
    }

    private static func object(_ text: String?, option: String) throws(UsageError) -> JSONObject {
        guard let text else { return JSONObject() }
        switch Result(catching: { () throws(JSONParseError) -> JSON in try JSON.parse(text) }) {
        case .success(.object(let object)): return object
        case .success(let other):
            throw UsageError("--\(option) must be a JSON object, not \(other.typeName)", command: "render")
        case .failure(let error): throw UsageError("--\(option) is not JSON: \(error.description)", command: "render")
        }
    }

    private static func readTemplate(_ path: String) -> Result<String, FileIOError> {
        let bytes =
            path == "-"
            ? FileDescriptorIO.readAll(0, limit: maxTemplateBytes, name: "standard input")
            : FileDescriptorIO.readRegularFile(path, limit: maxTemplateBytes)
        return bytes.flatMap { bytes in
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return .failure(
                    FileIOError(errno: 22, message: "\(path == "-" ? "standard input" : path) is not UTF-8 text"))
            }
            return .success(text)
        }
    }
}
