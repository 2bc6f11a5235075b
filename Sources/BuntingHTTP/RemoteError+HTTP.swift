import BuntingCore
import CCurl

/// The failure model for HTTP: which answers and transport errors are which
/// failure. One mapping for the definitions source and the analytics sink.
extension RemoteError {
    /// The failure an unsuccessful status stands for, or nil for 2xx. `now`
    /// turns a Retry-After in seconds into a time.
    public init?(_ response: HTTPResponse, now: Double) {
        let status = response.status
        switch status {
        case 200..<300:
            return nil
        case 429:
            if let value = response.header("Retry-After"), let until = HTTPResponse.retryAfterTime(value, now: now) {
                self = .rateLimited(until: until, "HTTP 429")
            } else {
                self = .serverError("HTTP 429 without a usable Retry-After")
            }
        case 401, 403:
            self = .authentication("HTTP \(status)")
        case 500..<600:
            self = .serverError("HTTP \(status)")
        case 400, 413, 422:
            self = .refusedContent("HTTP \(status)")
        case 300..<400:
            let location = response.redirect.flatMap { try? HTTPURL($0) }.map { " to \($0)" } ?? ""
            self = .clientError("HTTP \(status) (redirect\(location) not followed)")
        default:
            self = .clientError("HTTP \(status)")
        }
    }

    public init(_ error: HTTPTransportError) {
        switch error.kind {
        case .network, .timeout: self = .serverError(error.message)
        case .tooLarge: self = .invalidData(error.message)
        // Retrying cannot make libcurl appear on this machine.
        case .unavailable: self = .clientError(error.message)
        }
    }
}

extension HTTPResponse {
    /// The time a Retry-After value names: delay-seconds (a whole number ≥ 0)
    /// or an HTTP-date; nil when it is neither.
    public static func retryAfterTime(_ value: String, now: Double) -> Double? {
        let text = value.trimmingWhitespace()
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            guard let seconds = Double(text), seconds.isFinite else { return nil }
            return now + seconds
        }
        // curl_getdate reads more than HTTP-dates; each of their three forms
        // has a month name and a time of day, which "-5" or "1.5" have not.
        guard text.contains(where: \.isLetter), text.contains(":"), bunting_curl_load() == nil else { return nil }
        let time = bunting_curl_getdate(text)
        return time < 0 ? nil : Double(time)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let isSpace = { (c: Character) in c == " " || c == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
