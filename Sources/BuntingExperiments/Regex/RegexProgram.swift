/// A pattern compiled for the backtracking matcher: a flat list of
/// instructions, so that matching needs no recursion (a long text cannot
/// exhaust the stack) and every step can be counted against a budget. A
/// class once made, so that a matcher holds one reference, not its arrays.
final class RegexProgram: Sendable {
    let instructions: [Instruction]
    let sets: [RegexCharacterSet]
    let slotCount: Int
    let registerCount: Int
    let ignoreCase: Bool
    let anchoredAtStart: Bool
    let firstUnit: UInt16?
    /// A pattern that is only characters, perhaps between `^` and `$`
    /// (`^ping`, `@example\.com$`): matched by comparing code units, with
    /// no program run.
    let literal: Literal?

    struct Literal: Sendable {
        let units: [UInt16]
        let atStart: Bool
        let atEnd: Bool
    }

    init(_ node: RegexNode, captureCount: Int, ignoreCase: Bool) throws(RegexCompileError) {
        let builder = try RegexProgramBuilder(node, captureCount: captureCount, ignoreCase: ignoreCase)
        instructions = builder.instructions
        sets = builder.sets
        slotCount = builder.slotCount
        registerCount = builder.registerCount
        self.ignoreCase = ignoreCase
        anchoredAtStart = builder.anchoredAtStart
        firstUnit = builder.firstUnit
        literal = ignoreCase ? nil : Self.literal(node)
    }

    private static func literal(_ node: RegexNode) -> Literal? {
        var nodes: [RegexNode]
        switch node {
        case .sequence(let parts): nodes = parts
        case .unit: nodes = [node]
        default: return nil
        }
        var atStart = false
        var atEnd = false
        if case .lineStart? = nodes.first {
            atStart = true
            nodes.removeFirst()
        }
        if case .lineEnd? = nodes.last {
            atEnd = true
            nodes.removeLast()
        }
        var units: [UInt16] = []
        for part in nodes {
            guard case .unit(let unit) = part else { return nil }
            units.append(unit)
        }
        return units.isEmpty ? nil : Literal(units: units, atStart: atStart, atEnd: atEnd)
    }

    static let maxInstructions = RegexProgramBuilder.maxInstructions

    enum Instruction: Sendable {
        /// One code unit (compared case-folded when the pattern ignores case).
        case unit(UInt16)
        case any
        case set(Int)
        /// Try `first`; on failure come back and try `second`.
        case split(first: Int, second: Int)
        case jump(Int)
        /// Records the position in a capture slot (2n: start of group n, 2n+1: end).
        case save(Int)
        case lineStart
        case lineEnd
        case wordBoundary(negated: Bool)
        case backreference(Int)
        /// Runs the body that follows to its `match` as a separate, atomic
        /// match from here, then continues at `next`.
        case lookahead(negated: Bool, next: Int)
        /// A loop iteration's start position, kept in a register, so that
        /// `loopCheck` can fail an iteration that matched nothing (which
        /// ECMAScript forbids, and which would otherwise loop forever).
        case loopEnter(register: Int)
        case loopCheck(register: Int)
        case match
    }
}

/// Compiles a `RegexNode` into a `RegexProgram`'s instructions.
struct RegexProgramBuilder {
    typealias Instruction = RegexProgram.Instruction

    var instructions: [Instruction] = []
    var sets: [RegexCharacterSet] = []
    /// Nodes compiled, copies included: bounds the work of compiling even
    /// repetitions of nothing, such as `(?:){9999}{9999}`.
    private var compiledNodes = 0
    var slotCount = 2
    var registerCount = 0
    let ignoreCase: Bool
    /// The pattern can only match at the start of the text (it begins with `^`
    /// outside any alternation): one attempt instead of one per position.
    var anchoredAtStart = false
    /// The code unit every match begins with, when the pattern starts with one.
    var firstUnit: UInt16?

    /// Instructions a pattern may compile to: counted repetitions are copied
    /// out, so `(a{1000}){1000}` would otherwise take a million.
    static let maxInstructions = 20_000

    init(_ node: RegexNode, captureCount: Int, ignoreCase: Bool) throws(RegexCompileError) {
        self.ignoreCase = ignoreCase
        slotCount = 2 * (captureCount + 1)
        try emit(.save(0))
        try compile(node)
        try emit(.save(1))
        try emit(.match)
        anchoredAtStart = Self.startsAnchored(node)
        if instructions.count > 1, case .unit(let unit) = instructions[1] { firstUnit = unit }
    }

    private static func startsAnchored(_ node: RegexNode) -> Bool {
        switch node {
        case .lineStart: return true
        case .sequence(let nodes): return nodes.first.map(startsAnchored) ?? false
        case .group(let body, _): return startsAnchored(body)
        default: return false
        }
    }

    private mutating func emit(_ instruction: Instruction) throws(RegexCompileError) {
        guard instructions.count < Self.maxInstructions else { throw .tooComplex(limit: Self.maxInstructions) }
        instructions.append(instruction)
    }

    private mutating func compile(_ node: RegexNode) throws(RegexCompileError) {
        compiledNodes += 1
        guard compiledNodes <= Self.maxInstructions * 4 else { throw .tooComplex(limit: Self.maxInstructions) }
        switch node {
        case .empty:
            break
        case .unit(let unit):
            try emit(.unit(ignoreCase ? CaseFolding.canonicalize(unit) : unit))
        case .any:
            try emit(.any)
        case .set(let set):
            sets.append(set)
            try emit(.set(sets.count - 1))
        case .lineStart:
            try emit(.lineStart)
        case .lineEnd:
            try emit(.lineEnd)
        case .wordBoundary(let negated):
            try emit(.wordBoundary(negated: negated))
        case .group(let body, let capture):
            if let capture { try emit(.save(2 * capture)) }
            try compile(body)
            if let capture { try emit(.save(2 * capture + 1)) }
        case .lookahead(let body, let negated):
            let start = instructions.count
            try emit(.lookahead(negated: negated, next: 0))
            try compile(body)
            try emit(.match)
            instructions[start] = .lookahead(negated: negated, next: instructions.count)
        case .backreference(let number):
            try emit(.backreference(number))
        case .sequence(let nodes):
            for part in nodes { try compile(part) }
        case .alternation(let nodes):
            // split(a, next) a… jump(end) next: split(b, …) …
            var jumps: [Int] = []
            for (index, part) in nodes.enumerated() {
                if index < nodes.count - 1 {
                    let split = instructions.count
                    try emit(.split(first: split + 1, second: 0))
                    try compile(part)
                    jumps.append(instructions.count)
                    try emit(.jump(0))
                    instructions[split] = .split(first: split + 1, second: instructions.count)
                } else {
                    try compile(part)
                }
            }
            for jump in jumps { instructions[jump] = .jump(instructions.count) }
        case .repetition(let body, let min, let max, let greedy):
            try compileRepetition(body, min: min, max: max, greedy: greedy)
        }
    }

    private mutating func compileRepetition(_ body: RegexNode, min: Int, max: Int?, greedy: Bool)
        throws(RegexCompileError)
    {
        // The required copies; more than the instruction limit allows can
        // never compile, so stop before looping a billion times.
        guard min < Self.maxInstructions else { throw .tooComplex(limit: Self.maxInstructions) }
        for _ in 0..<min { try compile(body) }
        if let max {
            let optional = max - min
            guard optional < Self.maxInstructions else { throw .tooComplex(limit: Self.maxInstructions) }
            // Each optional copy: split(body, end); the ends are patched at the end.
            var splits: [Int] = []
            for _ in 0..<optional {
                splits.append(instructions.count)
                try emit(.split(first: 0, second: 0))
                try compile(body)
            }
            let end = instructions.count
            for split in splits {
                instructions[split] =
                    greedy ? .split(first: split + 1, second: end) : .split(first: end, second: split + 1)
            }
        } else {
            let register = registerCount
            registerCount += 1
            let loop = instructions.count
            try emit(.split(first: 0, second: 0))
            try emit(.loopEnter(register: register))
            try compile(body)
            try emit(.loopCheck(register: register))
            try emit(.jump(loop))
            let end = instructions.count
            instructions[loop] = greedy ? .split(first: loop + 1, second: end) : .split(first: end, second: loop + 1)
        }
    }
}

/// ECMAScript's `Canonicalize` for patterns without the `u` flag: a code
/// unit's upper case when that is one code unit, and not ASCII for a
/// non-ASCII unit.
enum CaseFolding {
    static func canonicalize(_ unit: UInt16) -> UInt16 {
        if unit < 0x80 {
            return unit >= 0x61 && unit <= 0x7A ? unit - 0x20 : unit
        }
        return table[Int(unit)]
    }

    /// Every code unit's canonical form, made on first use (only patterns
    /// that ignore case and meet non-ASCII text need it).
    private static let table: [UInt16] = {
        var table = [UInt16](repeating: 0, count: 0x1_0000)
        for unit in 0..<0x1_0000 {
            table[unit] = fold(UInt16(unit))
        }
        return table
    }()

    /// For each canonical form, the other code units that fold to it (`k`
    /// for `K`, `é` for `É`): what a class must be asked about besides the
    /// form itself.
    private static let others: [UInt16: [UInt16]] = {
        var others: [UInt16: [UInt16]] = [:]
        for unit in 0..<0x1_0000 where table[unit] != UInt16(unit) {
            others[table[unit], default: []].append(UInt16(unit))
        }
        return others
    }()

    /// Whether some member of `set` has the canonical form of `unit`
    /// (ECMAScript's CharacterSetMatcher when ignoring case), before the
    /// set's own negation.
    static func anyMember(of set: RegexCharacterSet, foldingTo unit: UInt16) -> Bool {
        var positive = set
        positive.negated = false
        let canonical = canonicalize(unit)
        if canonicalize(canonical) == canonical, positive.contains(canonical) { return true }
        if canonical < 0x80 {
            // An ASCII letter's other form is its lower case (no non-ASCII unit folds to ASCII).
            if canonical >= 0x41 && canonical <= 0x5A { return positive.contains(canonical + 0x20) }
            return false
        }
        return others[canonical]?.contains(where: positive.contains) ?? false
    }

    private static func fold(_ unit: UInt16) -> UInt16 {
        guard unit >= 0x80, let scalar = Unicode.Scalar(unit) else { return canonicalizeASCII(unit) }
        let upper = Array(String(scalar).uppercased().utf16)
        guard upper.count == 1, upper[0] >= 0x80 else { return unit }
        return upper[0]
    }

    private static func canonicalizeASCII(_ unit: UInt16) -> UInt16 {
        unit >= 0x61 && unit <= 0x7A ? unit - 0x20 : unit
    }
}
