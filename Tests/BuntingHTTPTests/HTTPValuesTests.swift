import BuntingCore
import BuntingHTTP
import Testing

@Suite struct HTTPHeaderTests {
    @Test func parsesNameAndValueAndHidesTheValueWhenPrinted() throws {
        let header = try HTTPHeader(parsing: "Authorization:   Bearer s3cret")
        #expect(header.name == "Authorization")
        #expect(header.value == "Bearer s3cret")
        #expect("\(header)" == "Authorization: (hidden)")
        #expect(try HTTPHeader(parsing: "X-Empty:").value == "")
    }

    @Test(arguments: ["no colon", ": value", "Bad Name: x", "X-Key: a\r\nInjected: b", "X-Key: a\nb"])
    func refusesMalformedHeaders(text: String) {
        #expect(throws: HTTPHeaderError.self) { try HTTPHeader(parsing: text) }
    }
}

@Suite struct HTTPURLTests {
    @Test func takesApartWhatTheClientNeeds() throws {
        let url = try HTTPURL("https://user:pw@CDN.Example.com/defs.json?v=1")
        #expect(url.host == "cdn.example.com")
        #expect(url.port == 443)
        #expect(url.origin == "https://cdn.example.com:443")
        #expect(url.redacted == "https://CDN.Example.com/defs.json?v=…")
        // Tokens ride in query strings: no value is logged or shown in status.
        #expect(
            try HTTPURL("https://cdn/defs.json?token=s3cr3t&flag&v=2#top").redacted
                == "https://cdn/defs.json?token=…&flag&v=…#top")
        #expect(try HTTPURL("http://127.0.0.1:8080").origin == "http://127.0.0.1:8080")
        #expect(try HTTPURL("http://[::1]:9/x").host == "[::1]")
        #expect(HTTPURL.isHTTP("HTTPS://x") && !HTTPURL.isHTTP("defs.json"))
    }

    @Test(arguments: [
        "ftp://host/x", "http://", "http:///path", "http://host:99999/", "http://host:x/", "http://a b/",
        "http://[::1/",
    ])
    func refusesWhatIsNotAnHTTPURL(text: String) {
        #expect(throws: HTTPURLError.self) { try HTTPURL(text) }
    }
}

@Suite struct RemoteFailureHTTPTests {
    let now = 1_750_000_000.0

    func failure(_ status: Int, _ headers: [String: String] = [:]) -> RemoteError? {
        RemoteError(HTTPResponse(status: status, headers: headers), now: now)
    }

    @Test func mapsEveryStatusClassOfTheFailureModel() {
        #expect(failure(200) == nil)
        #expect(failure(204) == nil)
        #expect(failure(500) == .serverError("HTTP 500"))
        #expect(failure(503) == .serverError("HTTP 503"))
        #expect(failure(429, ["retry-after": "30"]) == .rateLimited(until: now + 30, "HTTP 429"))
        #expect(failure(429) == .serverError("HTTP 429 without a usable Retry-After"))
        #expect(failure(429, ["retry-after": "soon"]) == .serverError("HTTP 429 without a usable Retry-After"))
        #expect(failure(401) == .authentication("HTTP 401"))
        #expect(failure(403) == .authentication("HTTP 403"))
        #expect(failure(404) == .clientError("HTTP 404"))
        // The sink refused what was sent: the batch is split to find the event it cannot take.
        #expect(failure(400) == .refusedContent("HTTP 400"))
        #expect(failure(413) == .refusedContent("HTTP 413"))
        #expect(failure(422) == .refusedContent("HTTP 422"))
        #expect(failure(405) == .clientError("HTTP 405"))
        let redirect = HTTPResponse(status: 302, redirect: "http://u:p@other/x")
        #expect(RemoteError(redirect, now: now) == .clientError("HTTP 302 (redirect to http://other/x not followed)"))
    }

    @Test func mapsTransportErrors() {
        #expect(RemoteError(HTTPTransportError(.timeout, "timed out")) == .serverError("timed out"))
        #expect(
            RemoteError(HTTPTransportError(.network, "Couldn't connect to server"))
                == .serverError("Couldn't connect to server"))
        #expect(RemoteError(HTTPTransportError(.tooLarge, "too large")) == .invalidData("too large"))
        #expect(RemoteError(HTTPTransportError(.unavailable, "no libcurl")) == .clientError("no libcurl"))
    }

    @Test func readsRetryAfterInSecondsAndAsHTTPDates() {
        #expect(HTTPResponse.retryAfterTime("0", now: now) == now)
        #expect(HTTPResponse.retryAfterTime(" 120 ", now: now) == now + 120)
        // 1750000000 is Sun, 15 Jun 2025 15:06:40 GMT, in each of the three forms.
        #expect(HTTPResponse.retryAfterTime("Sun, 15 Jun 2025 15:06:40 GMT", now: 0) == 1_750_000_000)
        #expect(HTTPResponse.retryAfterTime("Sunday, 15-Jun-25 15:06:40 GMT", now: 0) == 1_750_000_000)
        #expect(HTTPResponse.retryAfterTime("Sun Jun 15 15:06:40 2025", now: 0) == 1_750_000_000)
        for unusable in ["", "-5", "1.5", "soon", "tomorrow", String(repeating: "9", count: 400)] {
            #expect(HTTPResponse.retryAfterTime(unusable, now: now) == nil, "\(unusable)")
        }
    }
}
