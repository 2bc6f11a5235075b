import BuntingCore
import BuntingRuntime
import CCurl

/// One connection of an event stream: a libcurl transfer that lasts, run on
/// a thread of its own (`run`), feeding what arrives to the parser and
/// reporting each event as it is dispatched. It waits in `curl_multi_poll`,
/// which `close()` cuts short from any thread, so the loop can end it at
/// once (shutdown, the SDK turned off); and no longer than the idle
/// timeout: a connection on which no byte (a comment included) came for
/// `--stream-idle-timeout` is dropped, as one that died without a word (a
/// proxy that buffers the stream, a peer that vanished) looks just like a
/// quiet one.
///
/// Bounded: an event's data up to `maxEventBytes` (the parser skips a
/// larger one as it goes by), libcurl's receive buffer, and nothing else:
/// events go to `report` as they come.
///
/// `@unchecked Sendable`: `closed` and `multi` are guarded by `lock` (a
/// pthread mutex, which ThreadSanitizer sees); the parser and the
/// transfer's state belong to the connection's thread.
final class EventStreamConnection: StreamConnection, @unchecked Sendable {
    private let url: HTTPURL
    private let settings: HTTPSettings
    private let maxEventBytes: Int
    private let lastEventId: String?
    private let clock: any Clock
    private let report: @Sendable (StreamReport) -> Void
    private let lock = ConditionLock()
    /// Guarded by `lock`: `close()` was called.
    private var closed = false
    /// Guarded by `lock`: the multi handle to wake while a transfer runs.
    private var multi: UnsafeMutableRawPointer?

    init(
        url: HTTPURL, settings: HTTPSettings, maxEventBytes: Int, lastEventId: String?, clock: any Clock,
        report: @escaping @Sendable (StreamReport) -> Void
    ) {
        self.url = url
        self.settings = settings
        self.maxEventBytes = maxEventBytes
        self.lastEventId = lastEventId
        self.clock = clock
        self.report = report
    }

    func close() {
        lock.withLock {
            closed = true
            if let multi { _ = bunting_curl_multi_wakeup(multi) }
        }
    }

    var isClosed: Bool { lock.withLock { closed } }

    /// On the connection's thread: the transfer, then `.ended` with why it
    /// ended, unless the connection was closed.
    func run() {
        let failure = transfer()
        guard !isClosed else { return }
        report(.ended(failure))
    }

    private func transfer() -> RemoteError {
        let handle: CurlHandle
        do {
            handle = try CurlHandle()
        } catch {
            return RemoteError(error)
        }
        guard let multi = bunting_curl_multi_init() else { return .clientError("libcurl cannot make a multi handle") }
        let closedAlready = lock.withLock { () -> Bool in
            self.multi = multi
            return closed
        }
        defer {
            lock.withLock { self.multi = nil }
            _ = bunting_curl_multi_cleanup(multi)
        }
        guard !closedAlready else { return .serverError("closed") }

        let receiver = EventStreamReceiver(
            parser: EventStreamParser(maxEventBytes: maxEventBytes, lastEventId: lastEventId ?? ""),
            maxEventBytes: maxEventBytes, clock: clock, now: clock.unixTime(), isClosed: { [self] in isClosed },
            report: report)
        var lines = ["Accept: text/event-stream", "Cache-Control: no-cache"]
        if let lastEventId, !lastEventId.isEmpty { lines.append("Last-Event-ID: \(lastEventId)") }
        lines += settings.headers.map(\.line)
        let headerList = CurlStringList(lines)
        let errorBuffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0)
        defer { errorBuffer.deallocate() }
        do throws(HTTPTransportError) {
            try handle.set(CURLOPT_URL, url.text)
            try handle.set(CURLOPT_PROTOCOLS_STR, "http,https")
            try handle.set(CURLOPT_NOSIGNAL, 1)
            try handle.set(CURLOPT_CONNECTTIMEOUT_MS, max(1, Int((settings.connectTimeout * 1000).rounded())))
            // No Accept-Encoding: a compressing server or proxy holds events
            // back until it has enough to compress.
            try handle.set(CURLOPT_USERAGENT, settings.userAgent)
            try handle.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
            if let caFile = settings.caFile { try handle.set(CURLOPT_CAINFO, caFile) }
            try handle.set(CURLOPT_HTTPHEADER, list: headerList)
            let context = Unmanaged.passUnretained(receiver).toOpaque()
            try handle.setHeaderFunction(EventStreamReceiver.header)
            try handle.set(CURLOPT_HEADERDATA, pointer: context)
            try handle.setWriteFunction(EventStreamReceiver.body)
            try handle.set(CURLOPT_WRITEDATA, pointer: context)
            try handle.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer.baseAddress))
        } catch {
            return RemoteError(error)
        }
        _ = bunting_curl_multi_add_handle(multi, handle.raw)
        defer { _ = bunting_curl_multi_remove_handle(multi, handle.raw) }

        let idleTimeout = settings.streamIdleTimeout
        while true {
            var running: Int32 = 0
            let code = bunting_curl_multi_perform(multi, &running)
            guard code == CURLM_OK else { return .serverError("libcurl's multi interface failed (\(code.rawValue))") }
            if isClosed { return .serverError("closed") }
            if running == 0 { break }
            let idle = clock.monotonicTime() - receiver.lastByteAt
            if idle >= idleTimeout {
                log.info("the stream at \(url) sent nothing for \(idle) s: dropped")
                return .serverError("no byte came for \(Self.seconds(idleTimeout)) (--stream-idle-timeout)")
            }
            let milliseconds = ((idleTimeout - idle) * 1000).rounded(.up)
            _ = bunting_curl_multi_poll(multi, Int32(max(1, min(milliseconds, 3_600_000))))
        }
        let result = withExtendedLifetime((headerList, receiver)) { bunting_curl_multi_result(multi) }
        if let refusal = receiver.refusal { return refusal }
        if result == CURLE_OK { return .serverError("the server ended the stream") }
        let detail = String(
            decoding: errorBuffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        log.info("the stream at \(url) failed: \(detail.isEmpty ? CurlHandle.describe(result) : detail)")
        if result == CURLE_OPERATION_TIMEDOUT {
            return .serverError("timed out connecting (connect timeout \(Self.seconds(settings.connectTimeout)))")
        }
        // Messages name the kind of failure, without timings or addresses:
        // a lasting failure reads the same on every try.
        return .serverError(CurlHandle.describe(result))
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// What libcurl's callbacks work on, on the connection's thread: the
/// response's status and headers, then its body through the parser.
final class EventStreamReceiver {
    private var parser: EventStreamParser
    private let maxEventBytes: Int
    private let clock: any Clock
    private let now: Double
    private let isClosed: () -> Bool
    private let report: @Sendable (StreamReport) -> Void
    /// Monotonic time of the last byte received, headers included.
    private(set) var lastByteAt: Double
    private var status = 0
    private var contentType: String?
    private var retryAfter: String?
    /// The answer is an event stream: its body goes to the parser.
    private var accepted = false
    /// Why the answer is not an event stream.
    private(set) var refusal: RemoteError?

    init(
        parser: EventStreamParser, maxEventBytes: Int, clock: any Clock, now: Double, isClosed: @escaping () -> Bool,
        report: @escaping @Sendable (StreamReport) -> Void
    ) {
        self.parser = parser
        self.maxEventBytes = maxEventBytes
        self.clock = clock
        self.now = now
        self.isClosed = isClosed
        self.report = report
        lastByteAt = clock.monotonicTime()
    }

    /// CURLOPT_HEADERFUNCTION: one header line at a time; returning less
    /// than it was given aborts the transfer.
    static let header: bunting_curl_write_callback = { data, size, count, context in
        let receiver = Unmanaged<EventStreamReceiver>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        guard let data else { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        return receiver.takeHeader(line) ? length : 0
    }

    /// CURLOPT_WRITEFUNCTION: body bytes, to the parser.
    static let body: bunting_curl_write_callback = { data, size, count, context in
        let receiver = Unmanaged<EventStreamReceiver>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        guard receiver.accepted, !receiver.isClosed() else { return 0 }
        receiver.lastByteAt = receiver.clock.monotonicTime()
        if let data { receiver.feed(UnsafeRawBufferPointer(start: data, count: length)) }
        return length
    }

    private func feed(_ bytes: UnsafeRawBufferPointer) {
        parser.feed(bytes) { output in
            switch output {
            case .event(let event): report(.event(event))
            case .lastEventId(let id): report(.lastEventId(id))
            case .retry(let milliseconds): report(.retry(Double(milliseconds) / 1000))
            case .oversized: report(.oversized(limit: maxEventBytes))
            }
        }
    }

    /// Reads one header line; false ends the transfer (the answer is no event stream).
    private func takeHeader(_ line: String) -> Bool {
        lastByteAt = clock.monotonicTime()
        let text = line.trimmingLineEnd().trimmingWhitespace()
        if text.hasPrefix("HTTP/") {
            // A new response (after a 1xx): its own status and headers.
            status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            contentType = nil
            retryAfter = nil
            return true
        }
        if text.isEmpty {
            guard status >= 200 else { return true }
            return decide()
        }
        guard let colon = text.firstIndex(of: ":") else { return true }
        let name = text[..<colon].lowercased()
        let value = String(text[text.index(after: colon)...]).trimmingWhitespace()
        if name == "content-type" { contentType = value }
        if name == "retry-after" { retryAfter = value }
        return true
    }

    /// At the end of the headers: an event stream is taken; anything else
    /// is a failure, sorted as the failure model sorts it.
    private func decide() -> Bool {
        var headers: [String: String] = [:]
        if let retryAfter { headers["retry-after"] = retryAfter }
        if let failure = RemoteError(HTTPResponse(status: status, headers: headers), now: now) {
            refusal = failure
            return false
        }
        let mediaType = contentType.map { $0.split(separator: ";").first.map(String.init) ?? "" }?.trimmingWhitespace()
            .lowercased()
        if status != 200 {
            // 204 is how a server says not to reconnect; other 2xx are no stream either.
            refusal = .clientError("HTTP \(status) where an event stream was expected")
        } else if mediaType == "text/html" {
            refusal = .invalidData(
                "the server sent an HTML page (Content-Type: \(contentType ?? "")), not an event stream")
        } else if mediaType != "text/event-stream" {
            refusal = .invalidData(
                "the server sent \(contentType.map { "Content-Type: \($0)" } ?? "no Content-Type"), "
                    + "not text/event-stream")
        }
        guard refusal == nil else { return false }
        accepted = true
        if !isClosed() { report(.opened) }
        return true
    }
}

extension String {
    /// Without the CR LF (or LF) that ends a header line.
    func trimmingLineEnd() -> String {
        var text = Substring(self)
        while let last = text.last, last == "\r\n" || last == "\n" || last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
