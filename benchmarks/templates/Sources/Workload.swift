import BuntingJSON

/// The benchmark's card and users. The card is what a Braze user writes: a
/// title and a description reading three attributes, with a `default` and
/// an `if`. Bunting reads them in Braze's syntax, python-liquid the same
/// card in standard Liquid with the attributes as variables.
enum Workload {
    static let userCount = 10_000
    /// 2026-03-14 09:26:53 UTC.
    static let now = 1_773_480_413.0

    static let title = "Hi {{${first_name} | default: 'there'}}, your {{custom_attribute.${tier}}} rewards"
    static let description = """
        {% if ${points} > 1000 %}You have {{${points}}} points: enjoy your {{custom_attribute.${tier}}} perks.\
        {% else %}Earn {{ 1000 | minus: ${points} }} more points to reach gold.{% endif %}
        """

    static let standardTitle = "Hi {{ first_name | default: 'there' }}, your {{ tier }} rewards"
    static let standardDescription = """
        {% if points > 1000 %}You have {{ points }} points: enjoy your {{ tier }} perks.\
        {% else %}Earn {{ 1000 | minus: points }} more points to reach gold.{% endif %}
        """

    /// Users from a seed: a first name (missing or empty for some), a tier,
    /// points, and a few attributes the card does not read.
    static func users(count: Int = userCount, seed: UInt64 = 0x7E3A_11E5) -> [JSONObject] {
        var random = SplitMix64(seed: seed)
        let names = ["Ada", "Grace", "Alan", "Katherine", "Edsger", "Barbara", "Linus", "Margaret", "Dennis", "Frances"]
        let tiers = ["bronze", "silver", "gold", "platinum"]
        return (0..<count).map { index in
            var user = JSONObject()
            switch random.next() % 10 {
            case 0: break
            case 1: user["first_name"] = ""
            default: user["first_name"] = .string(names[Int(random.next() % UInt64(names.count))])
            }
            user["tier"] = .string(tiers[Int(random.next() % UInt64(tiers.count))])
            user["points"] = .integer(Int64(random.next() % 3000))
            user["email"] = .string("user\(index)@example.com")
            user["country"] = .string(["FR", "DE", "US", "JP"][Int(random.next() % 4)])
            user["signed_up"] = .integer(1_700_000_000 + Int64(random.next() % 50_000_000))
            return user
        }
    }
}

/// SplitMix64: the same users on every run.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
