import BuntingJSON
import BuntingRuntime
import Foundation
import Testing

/// The serve options of the HTTP client, through the built binary.
@Suite struct HTTPOptionsTests {
    @Test func headersGoWithEveryRequestAndNeverIntoTheLog() throws {
        let server = try FaultServer()
        let path = DefinitionsFixture.path
        try server.setDocument(path, definitions("v1"), etag: "\"v1\"")
        let bunting = try BuntingClient([
            "--definitions", server.url(path), "--sink", server.url("/collect"), "--log-level", "debug",
            "--header", "X-Api-Key: key-123", "--header", "Authorization: Bearer token-456",
        ])
        try bunting.startSynced()
        try server.script(path, [.status(401)])
        try bunting.call("refresh", ["channel": "featureFlags"])
        try bunting.call("logImpression", ["channel": "featureFlags", "id": "greeting"])
        #expect(try bunting.call("flush") == ["flushed": 1, "pending": 0])
        // The first fetch, the manual refresh, and the batch (the user change
        // evaluates the definitions in memory, without a request).
        let requests = try server.requests(path) + server.requests("/collect")
        #expect(requests.count >= 3)
        for request in requests {
            #expect(request.header("X-Api-Key") == "key-123" && request.header("Authorization") == "Bearer token-456")
            #expect(request.header("User-Agent")?.hasPrefix("bunting/") == true)
        }
        try bunting.call("shutdown")
        _ = try bunting.process.waitForExit()
        let log = bunting.process.stderr
        #expect(log.contains("GET \(server.url(path)) → 200"), "debug logging was on")
        #expect(!log.contains("key-123") && !log.contains("token-456"), "a header value was logged")
    }

    @Test func proxiesComeFromTheEnvironment() throws {
        // The fault server stands in for the proxy: it gets the absolute URL.
        let proxy = try FaultServer()
        try proxy.setDocument(DefinitionsFixture.path, definitions("v1"))
        var environment = BuntingClient.environmentWithoutProxies
        environment["http_proxy"] = "http://127.0.0.1:\(proxy.port)"
        let bunting = try BuntingClient(
            [
                "--definitions", "http://definitions.invalid\(DefinitionsFixture.path)", "--sink",
                "http://collector.invalid/collect",
            ],
            environment: environment)
        try bunting.startSynced()
        #expect(try bunting.greeting() == "v1")
        try bunting.call("logImpression", ["channel": "featureFlags", "id": "greeting"])
        #expect(try bunting.call("flush") == ["flushed": 1, "pending": 0])
        #expect(
            try proxy.requests(DefinitionsFixture.path).first?.target
                == "http://definitions.invalid\(DefinitionsFixture.path)")
        #expect(try proxy.requests("/collect").first?.target == "http://collector.invalid/collect")
    }

    @Test func anHTTPSServerIsTrustedThroughTheCAFile() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let server = try FaultServer(tls: (certificate.certificate, certificate.key))
        try server.setDocument(DefinitionsFixture.path, definitions("v1"))
        let bunting = try BuntingClient([
            "--definitions", server.url(DefinitionsFixture.path), "--ca-file", certificate.certificate,
        ])
        try bunting.startSynced()
        #expect(try bunting.greeting() == "v1")
    }

    @Test func endOfInputEndsTheProcessWhileARequestIsStillUnanswered() throws {
        let server = try FaultServer()
        try server.setDocument(DefinitionsFixture.path, definitions("v1"))
        try server.script(DefinitionsFixture.path, [FaultServer.Answer.status(200, body: definitions("v1")).held])
        let bunting = try BuntingClient(["--definitions", server.url(DefinitionsFixture.path)])
        try server.waitForRequests(DefinitionsFixture.path, count: 1)
        try bunting.process.closeInput()
        #expect(try bunting.process.waitForExit() == 0)
        try server.release()
    }

    @Test(arguments: [
        (["--definitions", "http://"], "--definitions: 'http://' has no host"),
        (["--sink", "https://host:0/x"], "--sink: 'https://host:0/x' has an invalid port"),
        (["--header", "X-Key"], "--header: must be 'Name: value'"),
        (["--header", "Bad Name: x"], "--header: the name must be a non-empty HTTP token"),
        (["--ca-file", "/nonexistent/ca.pem"], "--ca-file: cannot read '/nonexistent/ca.pem'"),
        (["--timeout", "0"], "--timeout must be a number of seconds > 0"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let process = Process()
        process.executableURL = BuiltProducts.bunting
        process.arguments = ["serve"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = ChildDeadline(process)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try deadline.waitForExit("bunting serve \(arguments.joined(separator: " "))")
        #expect(process.terminationStatus == 64)
        #expect(text.contains(message), "\(text)")
    }
}

@Suite struct URLSecretsTests {
    /// A token in the definitions URL's query string is sent, but never logged or shown.
    @Test func aQueryTokenIsNeitherLoggedNorShown() throws {
        let server = try FaultServer()
        let path = DefinitionsFixture.path
        try server.setDocument(path, definitions("v1"))
        let bunting = try BuntingClient([
            "--definitions", server.url(path) + "?token=s3cr3t-value", "--log-level", "debug",
        ])
        try bunting.startSynced()
        let location = try bunting.call("status")["definitions"]?["location"]?.stringValue ?? ""
        #expect(location.hasSuffix("?token=…"), "status shows \(location)")
        try bunting.call("shutdown")
        _ = try bunting.process.waitForExit()
        #expect(!bunting.process.stderr.contains("s3cr3t"), "the token was logged")
        #expect(try server.requests(path).allSatisfy { $0.target.contains("token=s3cr3t-value") }, "it is still sent")
    }
}
