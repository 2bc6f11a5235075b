import BuntingJSON

/// When a banner or card may be shown: from `start` (inclusive) to `end`
/// (exclusive), Unix seconds, either side open.
struct Schedule: Sendable {
    var start: Double?
    var end: Double?

    init(_ json: JSON?) {
        start = json?["start"]?.doubleValue
        end = json?["end"]?.doubleValue
    }

    func contains(_ now: Double) -> Bool {
        if let start, now < start { return false }
        if let end, now >= end { return false }
        return true
    }
}
