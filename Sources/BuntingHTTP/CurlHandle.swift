import CCurl

/// One libcurl easy handle. Its connection cache outlives each transfer, so
/// the handle that a source or sink keeps reuses one connection to its server
/// for as long as the server keeps it open.
///
/// Not thread-safe: `HTTPClient` uses it under its lock only.
final class CurlHandle {
    /// libcurl's `CURL *` (a `void *` to Swift).
    let raw: UnsafeMutableRawPointer

    /// Loads libcurl on first use; throws `.unavailable` when it cannot be had.
    init() throws(HTTPTransportError) {
        if let error = bunting_curl_load() {
            throw HTTPTransportError(.unavailable, String(cString: error))
        }
        guard let raw = bunting_curl_easy_init() else {
            throw HTTPTransportError(.unavailable, "curl_easy_init failed")
        }
        self.raw = raw
    }

    deinit {
        bunting_curl_easy_cleanup(raw)
    }

    /// Back to default options, keeping connections for the next transfer.
    func reset() { bunting_curl_easy_reset(raw) }

    func set(_ option: CURLoption, _ value: Int) throws(HTTPTransportError) {
        try check(bunting_curl_setopt_long(raw, option, value), option)
    }

    func set(_ option: CURLoption, _ value: String) throws(HTTPTransportError) {
        try check(bunting_curl_setopt_string(raw, option, value), option)
    }

    func set(_ option: CURLoption, offset value: Int) throws(HTTPTransportError) {
        try check(bunting_curl_setopt_off(raw, option, curl_off_t(value)), option)
    }

    /// The pointer must stay valid until the next `reset`.
    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(HTTPTransportError) {
        try check(bunting_curl_setopt_pointer(raw, option, value), option)
    }

    /// The list must stay alive until the next `reset`.
    func set(_ option: CURLoption, list: CurlStringList) throws(HTTPTransportError) {
        try check(bunting_curl_setopt_slist(raw, option, list.raw), option)
    }

    func setWriteFunction(_ callback: bunting_curl_write_callback) throws(HTTPTransportError) {
        try check(bunting_curl_setopt_write_function(raw, callback), CURLOPT_WRITEFUNCTION)
    }

    func setHeaderFunction(_ callback: bunting_curl_write_callback) throws(HTTPTransportError) {
        try check(bunting_curl_setopt_header_function(raw, callback), CURLOPT_HEADERFUNCTION)
    }

    func perform() -> CURLcode { bunting_curl_easy_perform(raw) }

    func info(_ info: CURLINFO) -> Int {
        var value = 0
        return bunting_curl_getinfo_long(raw, info, &value) == CURLE_OK ? value : 0
    }

    func stringInfo(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard bunting_curl_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// A header of the last response (the last of its name), or nil.
    func responseHeader(_ name: String) -> String? {
        bunting_curl_response_header(raw, name).map { String(cString: $0) }
    }

    static func describe(_ code: CURLcode) -> String {
        String(cString: bunting_curl_easy_strerror(code))
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPTransportError) {
        guard code == CURLE_OK else {
            throw HTTPTransportError(.unavailable, "libcurl refused option \(option.rawValue): \(Self.describe(code))")
        }
    }
}

/// A `curl_slist` of header lines, freed with its owner.
final class CurlStringList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?

    init(_ lines: [String]) {
        for line in lines {
            raw = bunting_curl_slist_append(raw, line)
        }
    }

    deinit {
        bunting_curl_slist_free_all(raw)
    }
}
