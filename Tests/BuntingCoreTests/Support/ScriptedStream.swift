import BuntingCore
import BuntingJSON
import BuntingRuntime
import Synchronization

/// A definitions stream whose connections the test drives: each `connect`
/// makes a `ScriptedConnection`, through which the test reports what the
/// server would (opened, events, the end), as a real connection's thread does.
final class ScriptedStream: DefinitionsStreamSource {
    let location = "test://stream"
    private let made = Mutex<[ScriptedConnection]>([])

    func connect(lastEventId: String?, report: @escaping @Sendable (StreamReport) -> Void) -> any StreamConnection {
        let connection = ScriptedConnection(lastEventId: lastEventId, report: report)
        made.withLock { $0.append(connection) }
        return connection
    }

    /// Every connection made so far, oldest first.
    var connections: [ScriptedConnection] { made.withLock { $0 } }

    /// The connection made last.
    var current: ScriptedConnection { made.withLock { $0.last! } }
}

final class ScriptedConnection: StreamConnection, @unchecked Sendable {
    /// What the connection sent as `Last-Event-ID`.
    let lastEventId: String?
    private let reporter: @Sendable (StreamReport) -> Void
    private let closed = Mutex(false)

    init(lastEventId: String?, report: @escaping @Sendable (StreamReport) -> Void) {
        self.lastEventId = lastEventId
        self.reporter = report
    }

    func close() { closed.withLock { $0 = true } }

    var isClosed: Bool { closed.withLock { $0 } }

    func report(_ report: StreamReport) { reporter(report) }

    func open() { report(.opened) }

    /// An event of the default type whose data is `document`'s text.
    func send(_ document: JSON, type: String = "message") {
        report(.event(StreamEvent(type: type, data: document.encoded())))
    }

    func send(text: String, type: String = "message") {
        report(.event(StreamEvent(type: type, data: Array(text.utf8))))
    }

    func end(_ failure: RemoteError = .serverError("the server ended the stream")) { report(.ended(failure)) }
}

/// A worker that holds the work it is given until the test releases it:
/// to see what happens while a compile is under way.
final class HeldWorker: Worker, @unchecked Sendable {
    private let held = Mutex<[@Sendable () -> Void]>([])

    func run<Result: Sendable>(
        _ work: @escaping @Sendable () -> Result, then: @escaping @Sendable (Result) -> Void, on loop: EventLoop
    ) {
        held.withLock {
            $0.append {
                let result = work(); loop.post { then(result) }
            }
        }
    }

    var waiting: Int { held.withLock { $0.count } }

    /// Runs the work held so far; its results reach the loop at its next run.
    func release() {
        let jobs = held.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
        for job in jobs { job() }
    }
}
