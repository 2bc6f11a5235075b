@_spi(Fuzzing) import BuntingJSON
import FuzzSupport

/// Parses the input as a JSON text and checks what the parser promises:
/// - the depth limit is exact: a value that parses at the default limit and
///   nests `d` levels parses to the same value with the limit at `d`, and is
///   refused as `tooDeep` with the limit at `d - 1`;
/// - encoding is deterministic and round-trips: the encoded text parses back
///   to an equal value, and encodes again to the same bytes.
func checkJSON(_ bytes: UnsafeRawBufferPointer) {
    checkPieces(bytes)
    checkMemberSpans(bytes)
    let value: JSON
    do {
        value = try JSON.parse(bytes)
    } catch {
        require(!error.message.isEmpty, "a parse error without a message")
        require(
            error.position >= 0 && error.position <= bytes.count,
            "error position \(error.position) outside the input")
        return
    }

    let depth = nesting(of: value)
    require(depth <= JSON.defaultMaxDepth, "parsed a value nested \(depth) levels, past the default limit")
    if depth > 0 {
        do {
            let again = try JSON.parse(bytes, maxDepth: depth)
            require(again == value, "the value differs when parsed with the limit at its own depth \(depth)")
        } catch {
            require(false, "refused at its own depth \(depth): \(error)")
        }
        do {
            _ = try JSON.parse(bytes, maxDepth: depth - 1)
            require(false, "a value nested \(depth) levels parsed with the limit at \(depth - 1)")
        } catch {
            require(error.kind == .tooDeep, "expected tooDeep with the limit at \(depth - 1), got \(error)")
        }
    }

    let encoded = value.encoded()
    let reparsed: JSON
    do {
        reparsed = try JSON.parse(encoded)
    } catch {
        require(false, "the encoded text does not parse: \(error); text: \(value.encodedString().prefix(200))")
        return
    }
    require(reparsed == value, "the encoded text parses to a different value: \(value.encodedString().prefix(200))")
    require(reparsed.encoded() == encoded, "encoding the reparsed value gives different bytes")
}

/// Large texts are parsed in pieces (their outer levels read in Swift, each
/// value inside by jansson): at any number of outer levels, that reading
/// must give the value jansson gives for the whole text, with its keys in the
/// same order, or give up where jansson refuses the text.
private func checkPieces(_ bytes: UnsafeRawBufferPointer) {
    let whole: JSON? = try? JSON.parse(bytes)
    for levels in 1...3 {
        guard let pieces = JSON.parsedInPieces(bytes, levels: levels) else { continue }
        guard let whole else {
            require(false, "read in pieces (\(levels) levels), a text that jansson refuses whole")
            return
        }
        require(pieces.encoded() == whole.encoded(), "read in pieces (\(levels) levels), a text gives another value")
    }
}

/// A document served from its note is read member by member from its text
/// (`JSONMemberSpans`): on any text that reading must not crash, and on a
/// text jansson reads as an object it must find that object's keys, in
/// order, each with a value that parses alone to the member's value.
private func checkMemberSpans(_ bytes: UnsafeRawBufferPointer) {
    let spans = JSONMemberSpans.members(of: bytes, in: 0..<bytes.count)
    guard case .object(let whole)? = try? JSON.parse(bytes) else { return }
    guard let spans else {
        require(false, "no member spans in a text that jansson reads as an object")
        return
    }
    require(spans.map(\.key) == whole.keys, "member spans give other keys than jansson")
    for (span, member) in zip(spans, whole) {
        let value = try? JSON.parse(UnsafeRawBufferPointer(rebasing: bytes[span.value]))
        require(
            value?.encoded() == member.value.encoded(),
            "the span of member \(span.key.debugDescription) parses to another value")
    }
}

/// How many arrays and objects deep `value` nests (a scalar is 0). Iterative,
/// so that it cannot itself run out of stack.
private func nesting(of value: JSON) -> Int {
    var deepest = 0
    var pending: [(JSON, Int)] = [(value, 0)]
    while let (current, depth) = pending.popLast() {
        switch current {
        case .array(let elements):
            deepest = max(deepest, depth + 1)
            for element in elements { pending.append((element, depth + 1)) }
        case .object(let members):
            deepest = max(deepest, depth + 1)
            for member in members { pending.append((member.value, depth + 1)) }
        default:
            break
        }
    }
    return deepest
}
