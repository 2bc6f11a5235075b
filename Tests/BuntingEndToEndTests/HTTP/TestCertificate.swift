import Foundation

/// A self-signed certificate for 127.0.0.1, made with the openssl command in
/// a temporary directory, for the HTTPS tests.
struct TestCertificate {
    let directory: URL
    var certificate: String { directory.appendingPathComponent("cert.pem").path }
    var key: String { directory.appendingPathComponent("key.pem").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bunting-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ]
        openssl.standardInput = FileHandle.nullDevice
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        try openssl.waitForExit("openssl req")
        guard openssl.terminationStatus == 0 else {
            throw HarnessError(description: "openssl could not make a certificate")
        }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
