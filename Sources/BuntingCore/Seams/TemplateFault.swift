import BuntingJSON

/// Why a Liquid template gave no text, as the engine and the protocol see it
/// (the templates themselves live behind the definitions seam).
public struct TemplateFault: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: String, Sendable, CaseIterable {
        /// The text does not parse, or rendering it failed (a division by
        /// zero, a comparison of a string with a number, an unknown time zone).
        case invalidTemplate = "INVALID_TEMPLATE"
        /// A bound on parsing or rendering was reached.
        case limit = "TEMPLATE_LIMIT"
        /// `{% abort_message %}` ran: the item is not for this user.
        case aborted = "TEMPLATE_ABORTED"
    }

    public var reason: Reason
    public var message: String
    /// 1-based line and column (in Unicode scalars) in the template's own text.
    public var line: Int
    public var column: Int
    /// The text given to `abort_message`, for `.aborted` (may be empty).
    public var abortMessage: String?

    public init(reason: Reason, message: String, line: Int, column: Int, abortMessage: String? = nil) {
        self.reason = reason
        self.message = message
        self.line = line
        self.column = column
        self.abortMessage = abortMessage
    }

    /// `REASON at line:column: message`
    public var description: String { "\(reason.rawValue) at \(line):\(column): \(message)" }
}

/// An item its template left out for the current user: `abort_message`
/// ran, or rendering failed. Listed by `status` (`definitions.aborted`).
public struct UnrenderedItem: Equatable, Sendable {
    public var channel: Channel
    /// The card's, banner's or flag's id.
    public var id: String
    /// The JSON pointer of the field whose template gave no text.
    public var pointer: String
    public var fault: TemplateFault

    public init(channel: Channel, id: String, pointer: String, fault: TemplateFault) {
        self.channel = channel
        self.id = id
        self.pointer = pointer
        self.fault = fault
    }

    /// `{channel, id, pointer, reason, message, line, column}`, as `status` lists it.
    public var json: JSON {
        .object([
            "channel": .string(channel.rawValue), "id": .string(id), "pointer": .string(pointer),
            "reason": .string(fault.reason.rawValue), "message": .string(fault.message),
            "line": .int(fault.line), "column": .int(fault.column),
        ])
    }
}

/// What `renderTemplate` renders: a template with plain Liquid variables and
/// a user's attributes, at a moment.
public struct TemplateRequest: Sendable {
    public var template: String
    /// Plain Liquid variables, `{{ name }}`.
    public var data: JSONObject
    /// The attributes `${name}` reads.
    public var attributes: JSONObject
    /// What `${user_id}` reads, before an attribute of that name.
    public var userId: String?
    /// Unix seconds: `'now'`.
    public var now: Double

    public init(
        template: String, data: JSONObject = [:], attributes: JSONObject = [:], userId: String? = nil, now: Double
    ) {
        self.template = template
        self.data = data
        self.attributes = attributes
        self.userId = userId
        self.now = now
    }
}
