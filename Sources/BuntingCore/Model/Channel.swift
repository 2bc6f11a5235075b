/// The three channels behind the one protocol.
public enum Channel: String, Sendable, CaseIterable, Hashable, Comparable {
    case featureFlags
    case banners
    case contentCards

    /// The key of the channel's data in a snapshot and in `updates`.
    public var dataKey: String { rawValue }

    /// The member that carries an item in IMPRESSION/CLICK/DISMISS events.
    public var itemKey: String {
        switch self {
        case .featureFlags: "flag"
        case .banners: "banner"
        case .contentCards: "card"
        }
    }

    public static func < (lhs: Channel, rhs: Channel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
