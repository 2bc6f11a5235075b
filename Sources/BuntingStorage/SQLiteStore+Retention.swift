import BuntingCore
import BuntingRuntime

/// How long a store keeps users, and how much of each (`--forget-after`).
///
/// Without it a store keeps every user it ever saw, for ever: 30,000 users
/// of the example document took 69 MB, 2,000 with 60 KiB of attributes 132
/// MB. So a user not seen (made current, or written for) for `forgetAfter`
/// seconds is forgotten: caches, item states and attributes. The current
/// user never is, and queued analytics are not a user's data: they stay
/// until the sink takes them. A user's item states (viewed, clicked,
/// dismissed), the one part of a user that grows with use, are kept up to
/// `maxItemStatesPerUser`, the least recently changed forgotten first.
public struct UserRetention: Sendable, Equatable {
    /// Seconds; 90 days by default.
    public var forgetAfter: Double
    public var maxItemStatesPerUser: Int

    public static let defaultForgetAfterDays = 90.0
    public static let defaultMaxItemStatesPerUser = 10_000
    /// Seconds between sweeps, the first made as the server starts.
    public static let sweepInterval = 3600.0

    public init(
        forgetAfter: Double = defaultForgetAfterDays * 86_400, maxItemStatesPerUser: Int = defaultMaxItemStatesPerUser
    ) {
        self.forgetAfter = forgetAfter
        self.maxItemStatesPerUser = maxItemStatesPerUser
    }

    /// How stale a user's "last seen" may get before it is written again:
    /// not at every write, and never by more than a quarter of `forgetAfter`.
    var seenGranularity: Double { min(Self.sweepInterval, forgetAfter / 4) }
}

extension SQLiteStore {
    /// Forgets users as `retention` says: a sweep now (as the server
    /// starts), then every `UserRetention.sweepInterval`, on `loop` (the
    /// store's owner), whose clock also stamps when users are seen.
    public func forgetUsers(_ retention: UserRetention, on loop: EventLoop) {
        self.retention = retention
        clock = loop.clock
        loop.schedule(after: 0) { [weak self] in self?.sweepAndRepeat(on: loop) }
    }

    private func sweepAndRepeat(on loop: EventLoop) {
        sweep()
        _ = loop.schedule(after: UserRetention.sweepInterval) { [weak self] in self?.sweepAndRepeat(on: loop) }
    }

    /// Forgets the users not seen for `retention.forgetAfter` (but the
    /// current one) and trims item states past the bound, in one commit.
    func sweep() {
        guard let retention, memory == nil, connection != nil else { return }
        let now = clock.unixTime()
        let current = (storedProfile ?? loadProfile())?.userId ?? ""
        var forgotten = 0
        var trimmed = 0
        do {
            try write("forget users not seen for \(Self.days(retention.forgetAfter)) days", memory: { _ in }) {
                (connection) throws(SQLiteError) in
                for statement in connection.forgetUsers {
                    try statement.run([.real(now - retention.forgetAfter), .text(current)])
                }
                // The last statement removes the users themselves.
                forgotten = connection.database.changes
                var over: [(user: String, count: Int)] = []
                try connection.usersOverItemBound.run([.integer(Int64(retention.maxItemStatesPerUser))]) { row in
                    over.append((row.text(0) ?? "", Int(row.integer(1))))
                }
                for (user, count) in over {
                    try connection.trimItemStates.run([
                        .text(user), .integer(Int64(count - retention.maxItemStatesPerUser)),
                    ])
                    trimmed += connection.database.changes
                }
            }
        } catch {
            log.error("storage: \(error.message)")
            return
        }
        commit()
        seenAt = seenAt.filter { now - $0.value < retention.seenGranularity }
        if forgotten > 0 {
            log.info(
                "storage: forgot \(forgotten) user\(forgotten == 1 ? "" : "s") "
                    + "not seen for \(Self.days(retention.forgetAfter)) days")
        }
        if trimmed > 0 {
            log.info(
                "storage: forgot the \(trimmed) oldest item states of users past \(retention.maxItemStatesPerUser)"
            )
        }
    }

    /// Notes, inside the transaction under way, that `user` was seen now;
    /// written at most once per `seenGranularity` for each user. A user
    /// only read (`storing` false: made current) is noted only if stored:
    /// one with nothing stored has nothing to forget.
    func markSeen(_ user: String, _ connection: StoreConnection, storing: Bool = true) throws(SQLiteError) {
        let now = clock.unixTime()
        let granularity = retention?.seenGranularity ?? UserRetention.sweepInterval
        if let last = seenAt[user], now - last < granularity, now >= last { return }
        if storing {
            try connection.markSeen.run([.text(user), .real(now)])
        } else {
            try connection.refreshSeen.run([.text(user), .real(now)])
            guard connection.database.changes > 0 else { return }
        }
        seenAt[user] = now
    }

    /// `90` rather than `90.0` in log lines.
    static func days(_ seconds: Double) -> String {
        let days = seconds / 86_400
        return days == days.rounded() ? String(Int(days)) : String(days)
    }
}
