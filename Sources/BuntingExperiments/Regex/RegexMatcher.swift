/// Runs a `RegexProgram` over UTF-16 code units by backtracking, with an
/// explicit stack on the heap and a step budget: each instruction executed
/// costs one step, and a match that runs out of steps stops with no answer.
struct RegexMatcher {
    private let program: RegexProgram
    /// The text's code units, case-folded for a pattern that ignores case
    /// (folding keeps line terminators and word characters what they are,
    /// so every instruction can read the folded text).
    private let text: UnsafeBufferPointer<UInt16>
    /// Capture slots, then loop registers, in one array.
    private var slots: [Int]
    private let registerBase: Int
    /// What to undo on backtracking: a branch to resume, or a slot or
    /// register to restore.
    private var stack: [Entry] = []
    private var steps: Int

    private enum Entry {
        case branch(pc: Int, position: Int)
        case slot(Int, Int)
        /// The bottom of a lookahead's own backtracking.
        case barrier
    }

    struct OutOfSteps: Error {}

    /// `text` must already be folded when the program ignores case.
    init(program: RegexProgram, text: UnsafeBufferPointer<UInt16>, steps: Int) {
        self.program = program
        self.text = text
        slots = Array(repeating: -1, count: program.slotCount + program.registerCount)
        registerBase = program.slotCount
        stack.reserveCapacity(32)
        self.steps = steps
    }

    var stepsLeft: Int { steps }

    /// Whether the pattern matches anywhere in the text (`RegExp.test`
    /// without the `g` or `y` flags).
    mutating func search() throws(OutOfSteps) -> Bool {
        let lastStart = program.anchoredAtStart ? 0 : text.count
        for start in 0...lastStart {
            // A match that must begin with one code unit begins where it is.
            if let first = program.firstUnit, start < text.count, text[start] != first { continue }
            for index in slots.indices { slots[index] = -1 }
            if try run(from: 0, at: start) { return true }
        }
        return false
    }

    /// Runs from `pc` at `position` until `match` (true) or every branch failed.
    private mutating func run(from pc: Int, at position: Int) throws(OutOfSteps) -> Bool {
        stack.append(.barrier)
        var pc = pc
        var position = position
        while true {
            steps -= 1
            guard steps >= 0 else { throw OutOfSteps() }
            var failed = false
            switch program.instructions[pc] {
            case .unit(let unit):
                if position < text.count, text[position] == unit {
                    position += 1
                    pc += 1
                } else {
                    failed = true
                }
            case .any:
                if position < text.count, !RegexUnits.isLineTerminator(text[position]) {
                    position += 1
                    pc += 1
                } else {
                    failed = true
                }
            case .set(let index):
                if position < text.count, setContains(index, text[position]) {
                    position += 1
                    pc += 1
                } else {
                    failed = true
                }
            case .split(let first, let second):
                stack.append(.branch(pc: second, position: position))
                pc = first
            case .jump(let target):
                pc = target
            case .save(let slot):
                stack.append(.slot(slot, slots[slot]))
                slots[slot] = position
                pc += 1
            case .lineStart:
                if position == 0 { pc += 1 } else { failed = true }
            case .lineEnd:
                if position == text.count { pc += 1 } else { failed = true }
            case .wordBoundary(let negated):
                let before = position > 0 && RegexUnits.isWord(text[position - 1])
                let after = position < text.count && RegexUnits.isWord(text[position])
                if (before != after) != negated { pc += 1 } else { failed = true }
            case .backreference(let number):
                if let end = matchBackreference(number, at: position) {
                    position = end
                    pc += 1
                } else {
                    failed = true
                }
            case .lookahead(let negated, let next):
                let saved = slots
                let matched = try run(from: pc + 1, at: position)
                if matched == negated {
                    slots = saved
                    failed = true
                } else {
                    if negated {
                        slots = saved
                    } else {
                        // A positive lookahead keeps its captures; undo them on backtracking.
                        for index in slots.indices where slots[index] != saved[index] {
                            stack.append(.slot(index, saved[index]))
                        }
                    }
                    pc = next
                }
            case .loopEnter(let register):
                stack.append(.slot(registerBase + register, slots[registerBase + register]))
                slots[registerBase + register] = position
                pc += 1
            case .loopCheck(let register):
                if slots[registerBase + register] == position { failed = true } else { pc += 1 }
            case .match:
                // Drop this run's backtracking state down to its barrier:
                // what matched is not tried again (lookaheads are atomic).
                while let entry = stack.popLast() {
                    if case .barrier = entry { break }
                }
                return true
            }
            guard failed else { continue }
            // Backtrack: undo to the latest branch of this run.
            var resumed = false
            while let entry = stack.popLast() {
                switch entry {
                case .branch(let target, let at):
                    pc = target
                    position = at
                    resumed = true
                case .slot(let slot, let value):
                    slots[slot] = value
                case .barrier:
                    return false
                }
                if resumed { break }
            }
            if !resumed { return false }
        }
    }

    private func setContains(_ index: Int, _ unit: UInt16) -> Bool {
        let set = program.sets[index]
        guard program.ignoreCase else { return set.contains(unit) }
        return CaseFolding.anyMember(of: set, foldingTo: unit) != set.negated
    }

    /// The end of the text the group captured, matched again at `position`;
    /// an unset group matches the empty string.
    private func matchBackreference(_ number: Int, at position: Int) -> Int? {
        guard 2 * number + 1 < slots.count else { return position }
        let start = slots[2 * number]
        let end = slots[2 * number + 1]
        guard start >= 0, end >= start else { return position }
        let length = end - start
        guard position + length <= text.count else { return nil }
        for offset in 0..<length {
            let a = text[start + offset]
            let b = text[position + offset]
            if a == b { continue }
            guard program.ignoreCase, CaseFolding.canonicalize(a) == CaseFolding.canonicalize(b) else { return nil }
        }
        return position + length
    }
}
