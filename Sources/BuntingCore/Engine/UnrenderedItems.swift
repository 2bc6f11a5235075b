import BuntingJSON

/// The items each channel's last refresh left out for the current user
/// because their templates gave no text (`abort_message`, a render error),
/// for `status`. A refresh replaces its channel's; those of another user
/// (an earlier generation) are not shown.
struct UnrenderedItems {
    private var byChannel: [Channel: (generation: Int, items: [UnrenderedItem])] = [:]

    mutating func record(_ channel: Channel, _ items: [UnrenderedItem], generation: Int) {
        byChannel[channel] = items.isEmpty ? nil : (generation, items)
    }

    /// The current user's, channel by channel.
    func items(generation: Int) -> [UnrenderedItem] {
        Channel.allCases.flatMap { channel -> [UnrenderedItem] in
            guard let recorded = byChannel[channel], recorded.generation == generation else { return [] }
            return recorded.items
        }
    }

    /// `status.definitions.aborted` holds at most this many (a document of
    /// thousands of aborting items keeps `status` small, as its problems do).
    static let shownInStatus = 100
}
