import BuntingJSON

/// `bunting eval --summary`: how many contexts got what, per flag and
/// variant, per GrowthBook feature and value, per banner placement and
/// banner, and per card, as counts and shares of the contexts read, written
/// as a table or as JSON. Counts are kept as contexts are read: a million
/// contexts cost their counts, not their evaluations.
final class EvalSummary {
    enum Format: String {
        case table, json
    }

    private(set) var contexts = 0
    /// Lines that were not a JSON object (counted, not evaluated).
    var errors = 0
    /// Key → outcome → count, each in first-seen order.
    private var flags = Tally()
    private var features = Tally()
    /// Placement → banner id (or "(none)") → count.
    private var banners = Tally()
    private var bannerControls: [String: Int] = [:]
    /// Card id → contexts shown it, and in its control group.
    private var cardsShown: [String: Int] = [:]
    private var cardsControl: [String: Int] = [:]
    private let cardIds: [String]
    private let placementIds: [String]

    /// `cardIds` and `placementIds`: every card and placement of the
    /// document, so that one no context got is counted as 0, not left out.
    init(cardIds: [String], placementIds: [String]) {
        self.cardIds = cardIds
        self.placementIds = placementIds
    }

    /// Counts one context's evaluation (what `eval` writes for it).
    func add(_ evaluation: JSONObject) {
        contexts += 1
        for (key, result) in evaluation["flags"]?.objectValue ?? [:] {
            let outcome: String
            if let code = result["errorCode"]?.stringValue {
                outcome = "(error \(code))"
            } else {
                outcome = result["variant"]?.stringValue ?? "(no variant: \(result["reason"]?.stringValue ?? "?"))"
            }
            flags.count(key, outcome)
        }
        for (key, result) in evaluation["features"]?.objectValue ?? [:] {
            features.count(key, Self.short(result["value"] ?? .null))
        }
        let filled = evaluation["banners"]?.objectValue ?? [:]
        for placement in placementIds {
            let banner = filled[placement]
            let id = banner?["id"]?.stringValue ?? "(none)"
            banners.count(placement, id)
            if banner?["isControl"]?.boolValue == true { bannerControls[placement + "\u{0}" + id, default: 0] += 1 }
        }
        for card in evaluation["contentCards"]?.arrayValue ?? [] {
            guard let id = card["id"]?.stringValue else { continue }
            cardsShown[id, default: 0] += 1
            if card["isControl"]?.boolValue == true { cardsControl[id, default: 0] += 1 }
        }
    }

    // MARK: - Output

    var json: JSON {
        var object: JSONObject = ["contexts": .int(contexts)]
        if errors > 0 { object["errors"] = .int(errors) }
        object["flags"] = .object(flags.json { key, outcome, count in share(count) })
        if !features.isEmpty { object["features"] = .object(features.json { _, _, count in share(count) }) }
        object["banners"] = .object(
            banners.json { placement, id, count in
                var entry = share(count)
                if let control = bannerControls[placement + "\u{0}" + id] { entry["control"] = .int(control) }
                return entry
            })
        var cards = JSONObject()
        for id in cardIds {
            var entry = share(cardsShown[id] ?? 0)
            entry["control"] = .int(cardsControl[id] ?? 0)
            cards[id] = .object(entry)
        }
        object["contentCards"] = .object(cards)
        return .object(object)
    }

    var table: String {
        var text =
            "\(contexts) context\(contexts == 1 ? "" : "s")"
            + (errors > 0 ? " (and \(errors) lines that are not one)" : "") + "\n"
        func section(_ header: [String], _ rows: [[String]]) {
            guard !rows.isEmpty else { return }
            text += "\n" + Self.columns([header] + rows)
        }
        section(["flag", "variant", "contexts", "share"], flags.rows { [$0, $1, String($2), percent($2)] })
        section(["feature", "value", "contexts", "share"], features.rows { [$0, $1, String($2), percent($2)] })
        section(
            ["placement", "banner", "contexts", "share", "control"],
            banners.rows { placement, id, count in
                [placement, id, String(count), percent(count), String(bannerControls[placement + "\u{0}" + id] ?? 0)]
            })
        section(
            ["card", "contexts", "share", "control"],
            cardIds.map { id in
                [id, String(cardsShown[id] ?? 0), percent(cardsShown[id] ?? 0), String(cardsControl[id] ?? 0)]
            })
        return text
    }

    private func share(_ count: Int) -> JSONObject {
        ["count": .int(count), "share": .number(contexts == 0 ? 0 : Double(count) / Double(contexts))]
    }

    private func percent(_ count: Int) -> String {
        guard contexts > 0 else { return "-" }
        let tenths = (Double(count) * 1000 / Double(contexts)).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10)%"
    }

    /// Left-aligned text, right-aligned numbers, two spaces between columns.
    private static func columns(_ rows: [[String]]) -> String {
        let widths = (0..<(rows.map(\.count).max() ?? 0)).map { column in
            rows.map { $0.count > column ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                let numeric = column > 0 && cell.first.map { $0.isNumber || $0 == "-" } == true
                return numeric ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n") + "\n"
    }

    /// A feature's value as a cell: its JSON text, cut at 40 characters.
    private static func short(_ value: JSON) -> String {
        let text = value.encodedString()
        return text.count <= 40 ? text : String(text.prefix(39)) + "…"
    }
}

/// Counts per key and outcome, both in first-seen order.
private struct Tally {
    private var keys: [String] = []
    private var outcomes: [String: [(outcome: String, count: Int)]] = [:]

    var isEmpty: Bool { keys.isEmpty }

    mutating func count(_ key: String, _ outcome: String) {
        if outcomes[key] == nil { keys.append(key) }
        if let index = outcomes[key]?.firstIndex(where: { $0.outcome == outcome }) {
            outcomes[key]![index].count += 1
        } else {
            outcomes[key, default: []].append((outcome, 1))
        }
    }

    func rows(_ row: (String, String, Int) -> [String]) -> [[String]] {
        keys.flatMap { key in (outcomes[key] ?? []).map { row(key, $0.outcome, $0.count) } }
    }

    func json(_ entry: (String, String, Int) -> JSONObject) -> JSONObject {
        var object = JSONObject()
        for key in keys {
            var perOutcome = JSONObject()
            for (outcome, count) in outcomes[key] ?? [] { perOutcome[outcome] = .object(entry(key, outcome, count)) }
            object[key] = .object(perOutcome)
        }
        return object
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
