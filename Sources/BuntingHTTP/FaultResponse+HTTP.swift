import BuntingCore

extension FaultResponse {
    /// The injected answer as the HTTP client would have handed it over: a
    /// response of any status, or the failure its transport error is by the
    /// failure model (`RemoteError+HTTP`), so that an injected answer is
    /// told to the app exactly as the real one would be.
    public var asHTTP: Result<HTTPResponse, RemoteError> {
        switch self {
        case .http(let status, let headers, let body):
            var kept: [String: String] = [:]
            for (name, value) in headers { kept[name.lowercased()] = value }
            return .success(HTTPResponse(status: status, headers: kept, body: body))
        case .timeout:
            return .failure(RemoteError(HTTPTransportError(.timeout, "timed out")))
        case .disconnect:
            return .failure(
                RemoteError(
                    HTTPTransportError(.network, "the connection was dropped before a whole answer came")))
        case .invalidData:
            return .failure(.invalidData("the server sent data that cannot be used"))
        }
    }

    /// For logs: `HTTP 503`, `timeout`.
    public var summary: String {
        if case .http(let status, _, _) = self { return "HTTP \(status)" }
        return json.stringValue ?? ""
    }
}
