import BuntingCore
import BuntingHTTP
import BuntingJSON
import Foundation
import Testing

/// The HTTP source and sink in this process, against the loopback server:
/// what the client does below the failure model.
@Suite struct HTTPClientTests {
    static let path = "/definitions.json"

    func source(
        _ server: FaultServer, _ path: String = path, settings: HTTPSettings = HTTPSettings(),
        maxBytes: Int = HTTPSource.defaultMaxBytes
    ) throws -> HTTPSource {
        HTTPSource(url: try HTTPURL(server.url(path)), settings: settings, maxBytes: maxBytes)
    }

    func keyed() throws -> HTTPSettings {
        var settings = HTTPSettings()
        settings.headers = [try HTTPHeader(parsing: "X-Api-Key: key-123")]
        return settings
    }

    @Test func aConditionalGetGetsTheVersionBackAndA304IsUnchanged() throws {
        let server = try FaultServer()
        try server.setDocument(Self.path, "{}", etag: "W/\"abc\"", lastModified: "Sat, 01 Nov 2025 10:00:00 GMT")
        let source = try source(server)
        guard case .fetched(let bytes, let version) = source.fetch(ifChangedSince: nil) else {
            Issue.record("not fetched"); return
        }
        #expect(bytes == Array("{}".utf8))
        #expect(version == SourceVersion(etag: "W/\"abc\"", lastModified: "Sat, 01 Nov 2025 10:00:00 GMT"))
        guard case .unchanged = source.fetch(ifChangedSince: version) else { Issue.record("not unchanged"); return }
        #expect(try server.requests(Self.path).map(\.answer) == [200, 304])
    }

    @Test func a304ToAnUnconditionalRequestIsAServerError() throws {
        let server = try FaultServer()
        try server.script(Self.path, [.status(304)])
        guard case .failed(let failure) = try source(server).fetch(ifChangedSince: nil) else {
            Issue.record("not failed"); return
        }
        #expect(failure == .serverError("HTTP 304 to a request that was not conditional"))
    }

    @Test func consecutiveRequestsReuseOneConnection() throws {
        let server = try FaultServer()
        try server.setDocument(Self.path, "{}", etag: "\"1\"")
        let source = try source(server)
        for _ in 0..<4 { _ = source.fetch(ifChangedSince: nil) }
        let clients = try server.requests(Self.path).map(\.client)
        #expect(clients.count == 4 && Set(clients).count == 1, "\(clients)")
    }

    @Test func gzipIsAskedForAndDecoded() throws {
        let server = try FaultServer()
        let document = definitions("v1", extraFlags: 50)
        try server.setDocument(Self.path, document, gzip: true)
        guard case .fetched(let bytes, _) = try source(server).fetch(ifChangedSince: nil) else {
            Issue.record("not fetched"); return
        }
        #expect(bytes == Array(document.utf8))
        #expect(try server.requests(Self.path).first?.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test(arguments: [false, true])
    func aDocumentOverTheSizeLimitIsInvalidData(gzip: Bool) throws {
        // Plain: refused from its Content-Length. Gzipped: the announced
        // length is small, and the decoded body is stopped at the limit.
        let server = try FaultServer()
        try server.setDocument(Self.path, definitions("v1", extraFlags: 100), gzip: gzip)
        let result = try source(server, maxBytes: 1000).fetch(ifChangedSince: nil)
        guard case .failed(let failure) = result else { Issue.record("not failed"); return }
        #expect(failure == .invalidData("the response is larger than 1000 bytes"))
    }

    @Test func redirectsAreFollowedAndTheHeadersStayWithTheirOrigin() throws {
        let server = try FaultServer()
        try server.setDocument("/moved.json", "{}")
        try server.setDocument("/elsewhere.json", "{}")
        // Same origin: followed with the headers. Another host name: followed without them.
        try server.script(
            Self.path,
            [
                .status(302, headers: ["Location": "/moved.json"]),
                .status(301, headers: ["Location": .string("http://localhost:\(server.port)/elsewhere.json")]),
            ])
        let source = try HTTPSource(url: HTTPURL(server.url(Self.path)), settings: keyed())
        guard case .fetched = source.fetch(ifChangedSince: nil) else { Issue.record("not fetched"); return }
        guard case .fetched = source.fetch(ifChangedSince: nil) else { Issue.record("not fetched"); return }
        #expect(try server.requests("/moved.json").first?.header("X-Api-Key") == "key-123")
        let elsewhere = try #require(try server.requests("/elsewhere.json").first)
        #expect(elsewhere.header("X-Api-Key") == nil)
    }

    @Test func tooManyRedirectsAreAClientError() throws {
        let server = try FaultServer()
        try server.setFallback(Self.path, .status(302, headers: ["Location": .string(Self.path)]))
        guard case .failed(let failure) = try source(server).fetch(ifChangedSince: nil) else {
            Issue.record("not failed"); return
        }
        #expect(failure == .clientError("HTTP 302 (redirect to \(server.url(Self.path)) not followed)"))
        #expect(try server.requests(Self.path).count == HTTPClient.maxRedirects + 1)
    }

    @Test func theSinkDoesNotFollowRedirects() throws {
        let server = try FaultServer()
        try server.script("/collect", [.status(307, headers: ["Location": "/other"])])
        let sink = HTTPSink(url: try HTTPURL(server.url("/collect")), settings: HTTPSettings())
        let event = AnalyticsEvent(
            eventId: "e1", kind: .impression, channel: .featureFlags, itemId: "f", userId: nil, deviceId: "d",
            sessionId: nil, time: 1, item: [:])
        #expect(throws: SinkError.clientError("HTTP 307 (redirect to \(server.url("/other")) not followed)")) {
            try sink.deliver([event])
        }
        #expect(try server.requests("/other").isEmpty)
    }

    @Test func tlsIsVerifiedAgainstTheSystemOrTheGivenCAFile() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let server = try FaultServer(tls: (certificate.certificate, certificate.key))
        try server.setDocument(Self.path, "{}")
        guard case .failed(.serverError(let message)) = try source(server).fetch(ifChangedSince: nil) else {
            Issue.record("an unknown certificate was accepted"); return
        }
        #expect(message.contains("certificate"), "\(message)")
        var settings = HTTPSettings()
        settings.caFile = certificate.certificate
        guard case .fetched = try source(server, settings: settings).fetch(ifChangedSince: nil) else {
            Issue.record("the certificate of the CA file was refused"); return
        }
    }
}
