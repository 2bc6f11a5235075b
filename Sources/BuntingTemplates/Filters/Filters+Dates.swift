/// `date` and Braze's `time_zone`, on the caller's clock.
extension Renderer {
    /// Liquid's `to_date`: a time as it is; `'now'` and `'today'` the
    /// render's time; an integer or a string of digits as Unix seconds;
    /// other text as a written date. nil when the value is no date.
    func time(of value: Value) -> ZonedTime? {
        switch value {
        case .time(let time): return time
        case .integer(let seconds): return ZonedTime(unixSeconds: seconds)
        case .string(let text):
            if text.isEmpty { return nil }
            let lowered = text.lowercased()
            if lowered == "now" || lowered == "today" { return ZonedTime(unixTime: context.now) }
            if text.utf8.allSatisfy(ExpressionLexer.isDigit) {
                return RubyNumber.leadingInteger(text).flatMap { ZonedTime(unixSeconds: $0) }
            }
            return DateParsing.parse(text, now: context.now)
        default:
            return nil
        }
    }

    /// `date: format`: the input formatted with strftime, or the input
    /// unchanged when the format is empty or the input is no date.
    mutating func date(_ input: Value, format: Value, at offset: Int) throws(TemplateOffsetError) -> Value {
        let pattern = format.text
        guard !pattern.isEmpty, let time = time(of: input) else { return input }
        try spend(bytes: pattern.utf8.count, at: offset)
        switch Strftime.format(pattern, time, maxWidth: limits.maxStrftimeWidth) {
        case .success(let text): return .string(try checkString(try charged(text, at: offset), at: offset))
        case .failure(let error):
            throw .limit("date: a width of \(error.width) is more than \(limits.maxStrftimeWidth)", at: offset)
        }
    }

    /// Braze's `time_zone: 'America/Los_Angeles'` (or `-0500`): the same
    /// moment shown in that zone. No zone (nil or empty) leaves it in UTC;
    /// a zone that does not exist is an error.
    func timeZone(_ input: Value, zone: Value, at offset: Int) throws(TemplateOffsetError) -> Value {
        guard let time = time(of: input) else { return input }
        let name = zone.text
        if name.isEmpty { return .time(time) }
        guard let rules = TimeZoneDatabase.zone(named: name) else {
            throw .invalid("time_zone: unknown time zone '\(name.prefix(80))'", at: offset)
        }
        return .time(time.shown(in: rules))
    }
}
