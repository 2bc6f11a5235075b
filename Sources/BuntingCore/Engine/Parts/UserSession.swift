import BuntingJSON
import BuntingRuntime

/// Who the client is and how things stand: the device, the current user
/// and their attributes, the session and the flag impressions logged in it,
/// whether the SDK is on, and which channels the last definitions turned
/// on. Saved to the store on every change; owned by the engine's loop.
final class UserSession {
    /// The most a user's attributes may take, encoded: they are stored, and
    /// copied into every evaluation of the user.
    static let maxAttributesBytes = 64 << 10

    private let store: any Store
    private(set) var profile: StoredProfile
    /// Flag impression keys logged in this session, by their bytes.
    private var flagImpressions: Set<ExactString>
    /// Experiment exposures logged in this session, by their deduplication keys.
    private var exposures: Set<ExactString>
    /// Bumped by a user change and a wipe: refreshes asked for before are dropped.
    private(set) var generation = 0

    init(store: any Store, random: RandomSource) {
        self.store = store
        profile = store.loadProfile() ?? StoredProfile(deviceId: random.identifier())
        flagImpressions = Set(profile.sessionFlagImpressions.map { ExactString($0) })
        exposures = Set(profile.sessionExposures.map { ExactString($0) })
    }

    var userId: String? { profile.userId }
    var sessionId: String? { profile.sessionId }
    var attributes: JSONObject { profile.attributes }
    var isSDKEnabled: Bool { profile.sdkEnabled }

    /// The key under which the current user's data is stored; the anonymous
    /// user is the empty string (user ids are never empty).
    var userKey: String { profile.userId ?? "" }

    /// Who is evaluated: the user, or the device while anonymous.
    var subject: EvaluationSubject {
        EvaluationSubject(targetingKey: profile.userId ?? profile.deviceId, attributes: profile.attributes)
    }

    /// GrowthBook's context for the current user: the attributes, with `id`
    /// the user (or the device while anonymous) unless an `id` attribute says otherwise.
    var growthBookAttributes: JSONObject {
        var attributes = profile.attributes
        if attributes["id"] == nil { attributes["id"] = .string(profile.userId ?? profile.deviceId) }
        return attributes
    }

    func isCurrentUser(_ userId: String) -> Bool {
        profile.userId.map { $0.sameBytes(as: userId) } ?? false
    }

    func isEnabled(_ channel: Channel) -> Bool {
        profile.channelsEnabled[channel] ?? false
    }

    // MARK: - Changes (each saved)

    /// Merges `attributes` into the current user's (a null removes one).
    func mergeAttributes(_ attributes: JSONObject) throws(EngineError) {
        profile.attributes = try Self.merged(profile.attributes, attributes)
        save()
    }

    /// Makes `userId` the current user, with `attributes` (already merged
    /// and checked), in no session yet.
    func switchUser(to userId: String, attributes: JSONObject) {
        generation += 1
        profile.userId = userId
        profile.attributes = attributes
        flagImpressions = []
        exposures = []
        save()
    }

    /// A new session, with no flag impressions logged in it.
    func beginSession(id: String) {
        profile.sessionId = id
        flagImpressions = []
        exposures = []
        save()
    }

    /// Ends the session; false when there was none.
    func endSession() -> Bool {
        guard profile.sessionId != nil else { return false }
        profile.sessionId = nil
        flagImpressions = []
        exposures = []
        save()
        return true
    }

    /// After a wipe: no attributes, no impressions, refreshes under way dropped.
    func wipe() {
        generation += 1
        profile.attributes = [:]
        flagImpressions = []
        exposures = []
        save()
    }

    func setSDKEnabled(_ enabled: Bool) {
        profile.sdkEnabled = enabled
        save()
    }

    /// Records what the definitions turn on; returns the channels that were
    /// on and are now off.
    func setChannelsEnabled(_ isEnabled: (Channel) -> Bool) -> [Channel] {
        let before = profile.channelsEnabled
        for channel in Channel.allCases { profile.channelsEnabled[channel] = isEnabled(channel) }
        save()
        return Channel.allCases.filter { before[$0] == true && !isEnabled($0) }
    }

    /// Whether a flag impression under `key` was logged in this session.
    func hasLoggedImpression(_ key: String) -> Bool {
        flagImpressions.contains(ExactString(key))
    }

    /// Notes a flag impression (saved with the next `save()`).
    func noteImpression(_ key: String) {
        flagImpressions.insert(ExactString(key))
    }

    /// Whether this exposure was logged in this session.
    func hasLoggedExposure(_ key: String) -> Bool {
        exposures.contains(ExactString(key))
    }

    /// Notes an exposure (saved with the next `save()`).
    func noteExposure(_ key: String) {
        exposures.insert(ExactString(key))
    }

    func save() {
        profile.sessionFlagImpressions = flagImpressions.map(\.string).sorted()
        profile.sessionExposures = exposures.map(\.string).sorted()
        do {
            try store.saveProfile(profile)
        } catch {
            log.error("cannot save state: \(error.message)")
        }
    }

    /// Attributes are kept per user next to the user's caches, so that a user
    /// who comes back is evaluated with what was known.
    func storeAttributes() {
        do {
            try store.saveAttributes(user: userKey, attributes: profile.attributes)
        } catch {
            log.error("cannot save the user's attributes: \(error.message)")
        }
    }

    /// `attributes` merged into `base` (a null value removes the attribute),
    /// refused when the result would be larger than `maxAttributesBytes`.
    static func merged(_ base: JSONObject, _ attributes: JSONObject) throws(EngineError) -> JSONObject {
        var result = base
        for (key, value) in attributes { result[key] = value.isNull ? nil : value }
        let size = JSON.object(result).encoded().count
        guard size <= maxAttributesBytes else {
            throw EngineError(
                .invalidParams, field: "attributes",
                "the user's attributes would take \(size) bytes encoded; at most \(maxAttributesBytes) are allowed"
            )
        }
        return result
    }
}
