/// Definitions pushed as they change: a Server-Sent Events stream (`--stream
/// URL`, or the one a GrowthBook server announces). Each connection runs on
/// a thread of its own, never on the event loop, and tells what happens on
/// it through `report`, in order, from that thread.
public protocol DefinitionsStreamSource: AnyObject, Sendable {
    /// For logs and `status`: the URL, without credentials or query values.
    var location: String { get }
    /// Opens one connection, sending `lastEventId` (`Last-Event-ID`) when
    /// there is one. Its last report is `.ended`, unless it was closed first.
    func connect(lastEventId: String?, report: @escaping @Sendable (StreamReport) -> Void) -> any StreamConnection
}

/// One connection of a stream.
public protocol StreamConnection: AnyObject, Sendable {
    /// Ends the connection soon, from any thread; it reports nothing more.
    func close()
}

/// What a stream connection tells, in the order it happens.
public enum StreamReport: Sendable {
    /// The server answered with an event stream: the stream is connected.
    case opened
    /// One event, as the stream dispatched it.
    case event(StreamEvent)
    /// The stream's last event id changed (`id:`), with or without an event.
    case lastEventId(String)
    /// The server asked for this reconnection time (`retry:`, in seconds).
    case retry(Double)
    /// An event larger than the limit went by unread: skipped, never stored.
    case oversized(limit: Int)
    /// The connection is over; a stream always ends in a failure of some
    /// kind (dropped, silent too long, refused, not an event stream).
    case ended(RemoteError)
}

/// An event of the stream: its type (`event:`, "message" when none) and its
/// data (the `data:` lines joined by line feeds).
public struct StreamEvent: Equatable, Sendable {
    public let type: String
    public let data: [UInt8]

    public init(type: String, data: [UInt8]) {
        self.type = type
        self.data = data
    }
}
