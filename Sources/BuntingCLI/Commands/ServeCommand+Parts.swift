import BuntingCore
import BuntingDefinitions
import BuntingHTTP
import BuntingIO
import BuntingRuntime

/// What `bunting serve` makes of its options before it serves: the source,
/// the stream, the sink, and the start of a document served from its note.
extension ServeCommand {
    /// A document served from its note (see `DeferredDefinitions`) is
    /// loaded in full once the requests already waiting have been answered,
    /// or after 10 ms without any, so that the first answers do not share
    /// the machine with the load. The loop's turn-end hooks run once before
    /// it first waits for input; the second time, requests have been read
    /// (or the timer fired), and their replies are flushed by the hook after
    /// this one: the load begins in the job that follows.
    static func beginLoading(_ deferred: DeferredDefinitions, on loop: EventLoop) {
        var turnEnds = 0
        loop.addTurnEndHook {
            turnEnds += 1
            if turnEnds == 2 { loop.post { deferred.beginLoading() } }
        }
        _ = loop.schedule(after: 0.01) {}
    }

    /// A URL was checked with the rest of the command line; libcurl itself
    /// is loaded on the first request, off the start-up path.
    /// `clock` reads a Retry-After in seconds as a time (the server's clock, manual or not).
    static func makeSource(_ location: String?, http: HTTPSettings, maxBytes: Int, clock: any Clock) throws(UsageError)
        -> any DefinitionsSource
    {
        guard let location else {
            return MemorySource(bytes: BundledExample.definitions, location: "(bundled example)")
        }
        if HTTPURL.isHTTP(location) {
            return HTTPSource(
                url: try url(location, option: "definitions"), settings: http, clock: clock, maxBytes: maxBytes)
        }
        return FileSource(path: location, maxBytes: maxBytes)
    }

    /// `--stream`: an http(s) URL only.
    static func makeStream(_ location: String?, http: HTTPSettings, maxBytes: Int, clock: any Clock) throws(UsageError)
        -> HTTPEventStream?
    {
        guard let location else { return nil }
        return HTTPEventStream(
            url: try url(location, option: "stream"), settings: http, maxEventBytes: maxBytes, clock: clock)
    }

    static func makeSink(_ location: String?, http: HTTPSettings, clock: any Clock) throws(UsageError) -> (
        any AnalyticsSink
    )? {
        guard let location else { return nil }
        if HTTPURL.isHTTP(location) {
            return HTTPSink(url: try url(location, option: "sink"), settings: http, clock: clock)
        }
        return NDJSONFileSink(path: location)
    }

    static func url(_ text: String, option: String) throws(UsageError) -> HTTPURL {
        do {
            return try HTTPURL(text)
        } catch {
            throw UsageError("--\(option): '\(text)' \(error.why)", command: "serve")
        }
    }
}
