import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Liquid templates for testers and tools: `renderTemplate` renders one as
/// the document's items are rendered. Touches no user state.
enum TemplateMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate(RenderTemplateParams.self) { params throws(RPCError) in
                guard
                    let rendered = engine.renderTemplate(
                        params.template, data: params.data, attributes: params.attributes)
                else {
                    let why =
                        "no definitions have been loaded yet: "
                        + "templates render with the document's content blocks and limits"
                    throw RPCError(
                        code: .notSynced, reason: "NOT_SYNCED", message: "Not synced: \(why)",
                        details: ["why": .string(why)])
                }
                switch rendered {
                case .success(let text): return .object(["text": .string(text)])
                case .failure(let fault): throw .template(fault)
                }
            }
        ]
    }
}

extension RPCErrorCode {
    /// A template given to `renderTemplate` that does not parse, reached a
    /// limit, or ran `abort_message`; `data.reason` says which.
    public static let templateError = RPCErrorCode(rawValue: -32012)
}

extension RPCError {
    /// A template's fault, with its reason and its place in the template.
    static func template(_ fault: TemplateFault) -> RPCError {
        let label =
            switch fault.reason {
            case .invalidTemplate: "Invalid template"
            case .limit: "Template limit"
            case .aborted: "Template aborted"
            }
        var details: JSONObject = [
            "field": "template", "why": .string(fault.message), "line": .int(fault.line), "column": .int(fault.column),
        ]
        if let abortMessage = fault.abortMessage { details["abortMessage"] = .string(abortMessage) }
        return RPCError(
            code: .templateError, reason: fault.reason.rawValue,
            message: "\(label): template: \(fault.line):\(fault.column): \(fault.message)", details: details)
    }
}
