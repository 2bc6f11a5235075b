#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
import BuntingRuntime
import Foundation
import Testing

/// nginx (the Debian package) as a child process: not a daemon, one process,
/// a config, document root and logs in a temporary directory, on a free
/// loopback port. `modules` are loaded from Debian's module directory (say
/// `ngx_nchan_module.so`, from libnginx-mod-nchan); `locations` go into the
/// server block.
final class Nginx: @unchecked Sendable {
    let directory: URL
    let port: Int
    private var process = Process()
    var root: URL { directory.appendingPathComponent("www") }

    init(modules: [String] = [], locations: String = "") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bunting-nginx-\(UUID().uuidString)")
        for sub in ["www", "tmp"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        port = try closedPort()
        let dir = directory.path
        let loads = modules.map { "load_module /usr/lib/nginx/modules/\($0);\n" }.joined()
        let config =
            loads + """
                daemon off;
                master_process off;
                worker_processes 1;
                pid \(dir)/nginx.pid;
                error_log \(dir)/error.log warn;
                events { worker_connections 256; }
                http {
                    access_log \(dir)/access.log;
                    client_body_temp_path \(dir)/tmp/body;
                    proxy_temp_path \(dir)/tmp/proxy;
                    fastcgi_temp_path \(dir)/tmp/fastcgi;
                    uwsgi_temp_path \(dir)/tmp/uwsgi;
                    scgi_temp_path \(dir)/tmp/scgi;
                    types { application/json json; }
                    default_type application/octet-stream;
                    gzip on;
                    gzip_types application/json;
                    gzip_min_length 0;
                    server {
                        listen 127.0.0.1:\(port);
                        root \(dir)/www;
                \(locations)
                    }
                }
                """
        try config.write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    private func start() throws {
        let dir = directory.path
        let installed = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        process = Process()
        process.executableURL = URL(fileURLWithPath: installed ?? "/usr/bin/env")
        process.arguments =
            (installed == nil ? ["nginx"] : []) + ["-p", dir, "-e", "\(dir)/error.log", "-c", "\(dir)/nginx.conf"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Kills the server at once (every connection drops) and waits until it is gone.
    func kill() {
        // SIGKILL: a child spawned from a test thread inherits its blocked
        // signals, and nginx without a master process leaves SIGTERM blocked.
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.endsWithin(ServerProcess.deadline)
    }

    /// Starts it again on the same port, with the same configuration.
    func restart() throws {
        kill()
        try start()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Replaces a file the way a deploy should: written aside, then renamed
    /// over the old one, with a modification time of its own (nginx's ETag
    /// is the size and the whole second of the modification time).
    func publish(_ name: String, _ text: String, modified: Date) throws {
        let temporary = root.appendingPathComponent(".\(name).new")
        try text.write(to: temporary, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: temporary.path)
        guard rename(temporary.path, root.appendingPathComponent(name).path) == 0 else {
            throw HarnessError(description: "cannot rename into \(root.path)")
        }
    }

    var accessLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
    }
    var errorLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }
    var isRunning: Bool { process.isRunning }
}

@Suite struct NginxFleetTests {
    /// Several Bunting processes poll one static file; a new version of the
    /// file reaches each of them as DATA_UPDATED AUTO_SERVER_REFRESH.
    @Test func oneDefinitionsFileServesAFleetAndAChangeReachesEveryProcess() throws {
        let nginx = try Nginx()
        let now = Date()
        try nginx.publish("definitions.json", definitions("v1"), modified: now.addingTimeInterval(-60))
        // Until nginx listens, the first fetches fail and are retried: no need to wait for it here.
        let fleet = try (0..<4).map { _ in
            try BuntingClient(["--definitions", nginx.url("/definitions.json"), "--poll-interval", "0.1"])
        }
        for bunting in fleet {
            do {
                try bunting.startSynced()
            } catch {
                throw HarnessError(
                    description: "\(error); nginx running: \(nginx.isRunning); error.log: \(nginx.errorLog)")
            }
            #expect(try bunting.greeting() == "v1")
        }
        // Polls are conditional and cost nginx no body: wait for one (a user
        // change evaluates the definitions in memory and asks nothing).
        let deadline = Date().addingTimeInterval(30)
        while !nginx.accessLog.contains("\"GET /definitions.json HTTP/1.1\" 304 ") && Date() < deadline {
            usleep(20_000)
        }
        let marks = fleet.map { $0.events.count }
        try nginx.publish("definitions.json", definitions("v2"), modified: now)
        for (bunting, mark) in zip(fleet, marks) {
            let events = try bunting.summaries(after: mark) { $0.hasPrefix("DATA_UPDATED") }
            #expect(events == ["DATA_UPDATED featureFlags AUTO_SERVER_REFRESH"])
            #expect(try bunting.greeting() == "v2")
        }
        // nginx logs a request once it has finished it, which may be after
        // Bunting has read the body and told its client: wait for the lines.
        func fullFetches() -> Int {
            nginx.accessLog.split(separator: "\n").filter {
                $0.contains("\"GET /definitions.json HTTP/1.1\" 200 ")
            }.count
        }
        let logDeadline = Date().addingTimeInterval(30)
        while fullFetches() < 2 * fleet.count && Date() < logDeadline { usleep(20_000) }
        #expect(nginx.accessLog.contains("\"GET /definitions.json HTTP/1.1\" 304 "))
        #expect(fullFetches() >= 2 * fleet.count)
    }
}
