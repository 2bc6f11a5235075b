import BuntingJSON
import Synchronization

/// Where an injected failure goes: the definitions source, the analytics
/// sink, or the stream of definitions pushed over Server-Sent Events.
public enum FaultTarget: String, Sendable, CaseIterable {
    case definitions, sink, stream
}

/// The answer an injected failure gives in place of the real one.
public enum FaultResponse: Equatable, Sendable {
    /// An HTTP answer: its status, headers (by any case of their names) and body.
    case http(status: Int, headers: [String: String], body: [UInt8])
    /// The request ran out of time.
    case timeout
    /// The connection was dropped before a whole answer came.
    case disconnect
    /// An answer that cannot be a document at all.
    case invalidData

    /// As `injectFault` takes it and `status` lists it.
    public var json: JSON {
        switch self {
        case .timeout: return "timeout"
        case .disconnect: return "disconnect"
        case .invalidData: return "invalidData"
        case .http(let status, let headers, let body):
            var object: JSONObject = ["status": .int(status)]
            if !headers.isEmpty {
                object["headers"] = .object(
                    JSONObject(headers.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) }))
            }
            if !body.isEmpty { object["body"] = .string(String(decoding: body, as: UTF8.self)) }
            return .object(object)
        }
    }
}

/// The failures armed by `injectFault` (`serve --faults`), per target, first
/// armed first given: each request to a target takes the next one, and the
/// request goes where it was going only when none is left.
///
/// The board is the seam between who arms (the methods, on the loop) and who
/// answers in place of the network or the file (the decorators of the
/// source and the sink, and whatever reads the stream, on worker threads):
/// `take(_:)` is all a reader needs.
///
/// Sendable: its state is behind a mutex.
public final class FaultBoard: Sendable {
    /// One injected answer and how many more requests get it.
    public struct Armed: Equatable, Sendable {
        public var response: FaultResponse
        public var remaining: Int
    }

    private let armed = Mutex<[FaultTarget: [Armed]]>([:])

    public init() {}

    /// The next `times` requests to `target` (after those already armed) get `response`.
    public func arm(_ target: FaultTarget, times: Int, response: FaultResponse) {
        guard times > 0 else { return }
        armed.withLock { $0[target, default: []].append(Armed(response: response, remaining: times)) }
    }

    /// Disarms `target`'s failures, or every target's.
    public func clear(_ target: FaultTarget? = nil) {
        armed.withLock { board in
            if let target { board[target] = nil } else { board.removeAll() }
        }
    }

    /// The answer the next request to `target` gets instead of the real
    /// one, counted as given; nil when nothing is armed.
    public func take(_ target: FaultTarget) -> FaultResponse? {
        armed.withLock { board in
            guard var queue = board[target], !queue.isEmpty else { return nil }
            let response = queue[0].response
            queue[0].remaining -= 1
            if queue[0].remaining == 0 { queue.removeFirst() }
            board[target] = queue.isEmpty ? nil : queue
            return response
        }
    }

    /// What is armed for `target`, in the order it will be given.
    public func armed(for target: FaultTarget) -> [Armed] {
        armed.withLock { $0[target] ?? [] }
    }

    /// `[{target, times, response}]`, every target's in order: what `status` lists.
    public var json: JSON {
        .array(
            FaultTarget.allCases.flatMap { target in
                armed(for: target).map { entry in
                    JSON.object([
                        "target": .string(target.rawValue), "times": .int(entry.remaining),
                        "response": entry.response.json,
                    ])
                }
            })
    }
}
