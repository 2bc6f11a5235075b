/// GrowthBook's way to find a stream: its SDKs fetch the payload from
/// `{apiHost}/api/features/{clientKey}`, and when the answer carries
/// `x-sse-support: enabled` they subscribe to `{apiHost}/sub/{clientKey}`,
/// whose `features` events carry the payload.
enum GrowthBookStream {
    static let header = "x-sse-support"

    /// Whether an answer announces the stream.
    static func isAnnounced(by response: HTTPResponse) -> Bool {
        response.header(header)?.trimmingWhitespace().lowercased() == "enabled"
    }

    /// The stream of a payload URL, or nil when the URL is not of GrowthBook's shape.
    static func streamURL(forPayloadAt url: HTTPURL) -> HTTPURL? {
        let text = url.text
        let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? text.endIndex
        let withoutQuery = text[..<end]
        guard let marker = withoutQuery.ranges(of: "/api/features/").last else { return nil }
        let clientKey = withoutQuery[marker.upperBound...]
        guard !clientKey.isEmpty, !clientKey.contains("/") else { return nil }
        return try? HTTPURL(String(withoutQuery[..<marker.lowerBound]) + "/sub/" + clientKey)
    }
}
