import BuntingCore

extension HTTPSource {
    /// What an answer to a request for the definitions means, by the failure
    /// model (`RemoteError+HTTP`): a document, "unchanged", or a failure.
    /// One reading for the server's real answers and for injected ones.
    public static func result(of response: HTTPResponse, conditional: Bool, now: Double) -> SourceFetchResult {
        if response.status == 304 {
            // Without a condition a 304 means nothing; the server is at fault.
            return conditional ? .unchanged : .failed(.serverError("HTTP 304 to a request that was not conditional"))
        }
        if let failure = RemoteError(response, now: now) {
            return .failed(failure)
        }
        // A web server's fallback page (a SPA index, a captive portal) comes
        // back as 200 text/html; say so instead of reporting a JSON syntax error.
        if let type = response.header("Content-Type"), type.lowercased().hasPrefix("text/html") {
            return .failed(.invalidData("the server sent an HTML page (Content-Type: \(type)), not a JSON document"))
        }
        return .fetched(
            response.body, SourceVersion(etag: response.header("ETag"), lastModified: response.header("Last-Modified")))
    }
}
