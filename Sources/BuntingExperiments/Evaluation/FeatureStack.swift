/// The features being evaluated above the current one (prerequisites), for
/// cycle detection: eight inline, more in an array. Prerequisite chains are
/// short, and an array would cost an allocation per feature evaluated.
struct FeatureStack {
    private var inline: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var overflow: [Int] = []
    private(set) var count = 0

    func contains(_ index: Int) -> Bool {
        let inlineCount = min(count, 8)
        let found = withUnsafeBytes(of: inline) { raw in
            raw.bindMemory(to: Int.self).prefix(inlineCount).contains(index)
        }
        return found || (count > 8 && overflow.contains(index))
    }

    mutating func push(_ index: Int) {
        if count < 8 {
            withUnsafeMutableBytes(of: &inline) { raw in raw.bindMemory(to: Int.self)[count] = index }
        } else {
            overflow.append(index)
        }
        count += 1
    }

    mutating func pop() {
        count -= 1
        if count >= 8 { overflow.removeLast() }
    }
}
