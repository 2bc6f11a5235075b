#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingRuntime
import CCurl
import Synchronization

/// Sends HTTP requests with libcurl, one at a time, over one easy handle, so
/// that consecutive requests of one source or sink reuse their connection.
///
/// `send` blocks; it runs on worker threads, never on the event loop.
/// libcurl is loaded on the first request (not at start-up), and curl picks
/// proxies from the usual environment variables (`http_proxy`,
/// `https_proxy`, `all_proxy`, `no_proxy`) by itself.
public final class HTTPClient: Sendable {
    public static let maxRedirects = 5
    public let settings: HTTPSettings
    /// Created on first use; the lock keeps one transfer on it at a time.
    private let handle = Mutex<CurlHandle?>(nil)

    public init(settings: HTTPSettings) {
        self.settings = settings
    }

    public func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPTransportError> {
        handle.withLock { handle in
            do throws(HTTPTransportError) {
                if handle == nil { handle = try CurlHandle() }
                return .success(try follow(request, on: handle!))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Follows redirects of a request that allows it. The configured headers
    /// may carry credentials: once a redirect leaves the origin they were
    /// meant for, they are not sent again (curl itself only holds back
    /// Authorization and Cookie).
    private func follow(_ request: HTTPRequest, on handle: CurlHandle) throws(HTTPTransportError) -> HTTPResponse {
        var url = request.url
        var withConfiguredHeaders = true
        var redirects = 0
        while true {
            let response = try transfer(request, to: url, withConfiguredHeaders: withConfiguredHeaders, on: handle)
            guard request.followsRedirects, [301, 302, 303, 307, 308].contains(response.status),
                redirects < Self.maxRedirects, let redirect = response.redirect, let next = try? HTTPURL(redirect)
            else { return response }
            if next.origin != request.url.origin { withConfiguredHeaders = false }
            log.debug("\(request.method.rawValue) \(url) redirected (\(response.status)) to \(next)")
            url = next
            redirects += 1
        }
    }

    private func transfer(
        _ request: HTTPRequest, to url: HTTPURL, withConfiguredHeaders: Bool, on handle: CurlHandle
    ) throws(HTTPTransportError) -> HTTPResponse {
        // Buffers that libcurl is handed pointers to: they outlive `perform`.
        let errorBuffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0)
        defer { errorBuffer.deallocate() }
        let body = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, request.body.count), alignment: 1)
        body.copyBytes(from: request.body)
        defer { body.deallocate() }
        let collector = BodyCollector(limit: request.maxResponseBytes, overflow: request.overflow)

        handle.reset()
        // Declared after the buffers, so it runs before they are freed: the
        // handle keeps no pointer into this frame once the transfer is over.
        defer { handle.reset() }
        try handle.set(CURLOPT_URL, url.text)
        try handle.set(CURLOPT_PROTOCOLS_STR, "http,https")
        // Timeouts without SIGALRM: the process has other threads.
        try handle.set(CURLOPT_NOSIGNAL, 1)
        try handle.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout))
        try handle.set(CURLOPT_TIMEOUT_MS, Self.milliseconds(settings.timeout))
        // Empty: every encoding this libcurl decodes (gzip, deflate, br, zstd).
        try handle.set(CURLOPT_ACCEPT_ENCODING, "")
        try handle.set(CURLOPT_USERAGENT, settings.userAgent)
        if let caFile = settings.caFile { try handle.set(CURLOPT_CAINFO, caFile) }

        var lines = request.headers
        if withConfiguredHeaders { lines += settings.headers.map(\.line) }
        let headerList = CurlStringList(lines)
        try handle.set(CURLOPT_HTTPHEADER, list: headerList)

        try handle.setWriteFunction(BodyCollector.write)
        try handle.set(CURLOPT_WRITEDATA, pointer: Unmanaged.passUnretained(collector).toOpaque())
        if request.overflow == .fail {
            // Refused before the body when the server announces its length.
            try handle.set(CURLOPT_MAXFILESIZE_LARGE, offset: request.maxResponseBytes)
        }

        try handle.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer.baseAddress))
        switch request.method {
        case .get:
            try handle.set(CURLOPT_HTTPGET, 1)
        case .post:
            try handle.set(CURLOPT_POST, 1)
            try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: request.body.count)
            try handle.set(CURLOPT_POSTFIELDS, pointer: body.baseAddress)
        }
        let code = withExtendedLifetime((headerList, collector)) { handle.perform() }

        guard code == CURLE_OK else {
            let detail = String(
                decoding: errorBuffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            log.info("\(request.method.rawValue) \(url) failed: \(detail.isEmpty ? CurlHandle.describe(code) : detail)")
            throw transportError(code, exceeded: collector.exceeded, request: request)
        }
        var headers: [String: String] = [:]
        for name in HTTPResponse.keptHeaders {
            if let value = handle.responseHeader(name) { headers[name] = value }
        }
        let response = HTTPResponse(
            status: handle.info(CURLINFO_RESPONSE_CODE), headers: headers, body: collector.bytes,
            redirect: handle.stringInfo(CURLINFO_REDIRECT_URL))
        let reused = handle.info(CURLINFO_NUM_CONNECTS) == 0 ? ", connection reused" : ""
        log.debug("\(request.method.rawValue) \(url) → \(response.status), \(response.body.count) bytes\(reused)")
        return response
    }

    /// Messages name the kind of failure without timings or addresses, so a
    /// lasting failure reads the same on every try.
    private func transportError(_ code: CURLcode, exceeded: Bool, request: HTTPRequest) -> HTTPTransportError {
        if exceeded || code == CURLE_FILESIZE_EXCEEDED {
            return HTTPTransportError(.tooLarge, "the response is larger than \(request.maxResponseBytes) bytes")
        }
        if code == CURLE_OPERATION_TIMEDOUT {
            return HTTPTransportError(
                .timeout,
                "timed out (connect timeout \(Self.seconds(settings.connectTimeout)), "
                    + "total \(Self.seconds(settings.timeout)))")
        }
        return HTTPTransportError(.network, CurlHandle.describe(code))
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        max(1, Int((seconds * 1000).rounded()))
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// Receives the body from libcurl's write callback.
final class BodyCollector {
    var bytes: [UInt8] = []
    let limit: Int
    let overflow: HTTPRequest.Overflow
    private(set) var exceeded = false

    init(limit: Int, overflow: HTTPRequest.Overflow) {
        self.limit = limit
        self.overflow = overflow
    }

    /// CURLOPT_WRITEFUNCTION; returning less than it was given aborts the transfer.
    static let write: bunting_curl_write_callback = { data, size, count, context in
        let collector = Unmanaged<BodyCollector>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        let room = collector.limit - collector.bytes.count
        if length > room {
            collector.exceeded = true
            if collector.overflow == .fail { return 0 }
        }
        if let data, room > 0 {
            collector.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: min(length, room)))
        }
        return length
    }
}
