/// How far apart two names are, for "did you mean" hints: the Levenshtein
/// distance (insertions, deletions and substitutions), over bytes.
public enum EditDistance {
    public static func between<A: Collection, B: Collection>(_ a: A, _ b: B) -> Int
    where A.Element == UInt8, B.Element == UInt8 {
        let b = Array(b)
        var previous = Array(0...b.count)
        var current = previous
        for (i, byte) in a.enumerated() {
            current[0] = i + 1
            for j in b.indices {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (byte == b[j] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidate closest to `name` (case aside), if it is close enough to
    /// be a slip: at most two edits, and fewer than half the name's length.
    /// Only names of similar length are compared, so that a hostile name a
    /// megabyte long costs nothing.
    public static func closest(to name: String, among candidates: [String]) -> String? {
        guard name.utf8.count <= 64 else { return nil }
        let typed = Array(name.lowercased().utf8)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let lowered = Array(candidate.lowercased().utf8)
            guard abs(lowered.count - typed.count) <= 2 else { continue }
            let distance = between(typed, lowered)
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= 2, best.distance * 2 < typed.count else { return nil }
        return best.name
    }
}
