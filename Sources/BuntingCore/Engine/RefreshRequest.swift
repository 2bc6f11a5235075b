/// A refresh of one channel waiting for the definitions source.
struct RefreshRequest {
    let channel: Channel
    let reason: DataUpdatedReason
    /// Banners only: the placements to refresh; nil means every placement.
    let placementIds: [String]?
    /// The user it was made for; a refresh for an earlier user is dropped.
    let userGeneration: Int
}
