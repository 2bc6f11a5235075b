// swift-tools-version:6.0
// Bunting: the client-side core of a messaging and experimentation SDK, served
// over JSON-RPC 2.0 on stdin/stdout. Modules follow the layers of the design:
// each C library is reached through one C target (its system library, or a
// loader that opens it on first use) and one module.
import PackageDescription

// How a release build of `bunting` is laid out, for the memory every process
// keeps: the kernel maps a program's code some way around each page it
// touches, and the functions a served process runs were spread over the
// binary's 7.5 MB of code, which kept 7.6 MB of it resident. A release build
// gives each Swift function a section of its own, and lld (the toolchain's)
// places the functions named in Sources/bunting/hot-functions.txt (what the
// benchmarks' workloads run; benchmarks/profile/hot-functions writes it)
// first and together; the order changes nothing the program does, and a list
// out of date only lays out less well. lld also packs the 32,000 relative
// relocations (`-z pack-relative-relocs`, glibc 2.36 or later), which
// otherwise kept 760 KB of the binary resident once applied. Together: the
// binary's resident part 8.4 -> 6.2-6.4 MB at 20,000 flags (README, "Where
// the time and memory go").
let hotCodeLayout: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))
]
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld",
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/bunting/hot-functions.txt",
            // Names the list has and the binary does not (code changed since) are passed over.
            "-Xlinker", "--no-warn-symbol-ordering",
            "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        ],
        .when(configuration: .release))
]

let package = Package(
    name: "Bunting",
    products: [
        .executable(name: "bunting", targets: ["bunting"])
    ],
    targets: [
        // C libraries, from Debian packages.
        .systemLibrary(
            name: "CJansson", pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // OpenSSL's libcrypto, for GrowthBook's encrypted payloads (AES-128-CBC):
        // its headers (libssl-dev) and a loader that opens it on first use
        // instead of linking it (mapped into every process, 1.4 MB of it
        // resident, for a feature few documents use).
        .target(name: "CCrypto"),

        // libcurl's headers and a loader that opens it on first use instead of
        // linking it (its 30 dependent libraries would slow every start);
        // headers from libcurl4-openssl-dev.
        .target(name: "CCurl"),

        // What the runtime needs of glibc beyond Swift's Glibc module
        // (malloc_trim, eventfd, signalfd); only BuntingRuntime imports it.
        .target(name: "CRuntime"),

        // The runtime, a leaf: clocks, the event loop, locks, the worker pool,
        // logging and file descriptor I/O. Imports no Bunting module.
        .target(name: "BuntingRuntime", dependencies: ["CRuntime"]),

        // JSON values over jansson; the only module that imports CJansson.
        .target(name: "BuntingJSON", dependencies: ["CJansson"]),

        // JSONLogic with flagd's operators and flag resolution; pure Swift, no I/O.
        .target(name: "BuntingRules", dependencies: ["BuntingJSON"]),

        // AES-128-CBC decryption and base64; the only module that imports CCrypto.
        .target(name: "BuntingCrypto", dependencies: ["CCrypto"]),

        // GrowthBook's SDK payload, compiled once, and its evaluation to the
        // letter of the JavaScript SDK: features, experiments, conditions,
        // sticky buckets and exposures; pure Swift, no I/O.
        .target(name: "BuntingExperiments", dependencies: ["BuntingJSON", "BuntingRules", "BuntingCrypto"]),

        // Liquid templates in Braze's dialect, parsed once and rendered per user
        // within limits; time zones from the system's TZif files. No I/O but those.
        .target(name: "BuntingTemplates", dependencies: ["BuntingJSON", "BuntingRuntime"]),

        // JSON Pointer, source positions and JSON Schema validation of definitions.
        .target(name: "BuntingSchema", dependencies: ["BuntingJSON"]),

        // The engine: one serial owner of all state, its clock and timers.
        .target(name: "BuntingCore", dependencies: ["BuntingJSON", "BuntingRuntime"]),

        // The definitions document: checked against its schema, compiled, and
        // evaluated per user into the engine's items.
        .target(
            name: "BuntingDefinitions",
            dependencies: [
                "BuntingJSON", "BuntingRuntime", "BuntingRules", "BuntingSchema", "BuntingCore", "BuntingExperiments",
                "BuntingTemplates",
            ],
            resources: [
                .embedInCode("Resources/definitions.schema.compact.json"),
                .embedInCode("Resources/definitions.skeleton.compact.json"),
            ]),

        // Files behind the engine's seams: the file source and the NDJSON sink.
        .target(name: "BuntingIO", dependencies: ["BuntingJSON", "BuntingRuntime", "BuntingCore"]),

        // The HTTP client (libcurl), the HTTP definitions source and the HTTP
        // analytics sink; the only module that imports CCurl.
        .target(name: "BuntingHTTP", dependencies: ["CCurl", "BuntingRuntime", "BuntingCore", "BuntingJSON"]),

        // The engine's store on SQLite; the only module that imports CSQLite.
        .target(name: "BuntingStorage", dependencies: ["CSQLite", "BuntingJSON", "BuntingRuntime", "BuntingCore"]),

        // A generic JSON-RPC 2.0 transport: framing, messages, ids, errors, the
        // method table and its param checks, and the stdio server. Knows
        // nothing of Bunting: it imports only JSON and the runtime.
        .target(name: "BuntingJSONRPC", dependencies: ["BuntingJSON", "BuntingRuntime"]),

        // Bunting's methods over the engine and the rules, declared once, and
        // the one encoder of engine events into notifications.
        .target(
            name: "BuntingServer",
            dependencies: ["BuntingJSON", "BuntingRuntime", "BuntingJSONRPC", "BuntingCore", "BuntingRules"],
            resources: [.embedInCode("Resources/openrpc.json")]),

        // The command line: serve, eval, validate, render, version.
        .target(
            name: "BuntingCLI",
            dependencies: [
                "BuntingJSON", "BuntingRuntime", "BuntingCore", "BuntingJSONRPC", "BuntingServer", "BuntingDefinitions",
                "BuntingIO",
                "BuntingHTTP",
                "BuntingStorage",
                "BuntingTemplates",
            ],
            resources: [.embedInCode("Resources/bunting.json")]),

        // The executable stays a shell around BuntingCLI. A release build is
        // linked by the toolchain's lld, its hot functions together and its
        // relocations packed (see `releaseLinking` above).
        .executableTarget(
            name: "bunting", dependencies: ["BuntingCLI"], exclude: ["hot-functions.txt"],
            linkerSettings: releaseLinking),

        .testTarget(name: "BuntingJSONTests", dependencies: ["BuntingJSON"]),
        .testTarget(
            name: "BuntingTemplatesTests", dependencies: ["BuntingTemplates", "BuntingJSON"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "BuntingRulesTests", dependencies: ["BuntingRules", "BuntingJSON"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "BuntingExperimentsTests", dependencies: ["BuntingExperiments", "BuntingCrypto", "BuntingJSON"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "BuntingSchemaTests", dependencies: ["BuntingSchema", "BuntingJSON"],
            exclude: ["Fixtures"]),
        .testTarget(name: "BuntingRuntimeTests", dependencies: ["BuntingRuntime"]),
        .testTarget(name: "BuntingCoreTests", dependencies: ["BuntingCore", "BuntingRuntime"]),
        .testTarget(
            name: "BuntingDefinitionsTests", dependencies: ["BuntingDefinitions", "BuntingCore", "BuntingJSON"]),
        // URLs, headers and the HTTP failure mapping; the client against a real server is end-to-end.
        .testTarget(name: "BuntingHTTPTests", dependencies: ["BuntingHTTP", "BuntingCore", "BuntingJSON"]),
        .testTarget(name: "BuntingStorageTests", dependencies: ["BuntingStorage", "BuntingCore", "BuntingJSON"]),
        .testTarget(name: "BuntingJSONRPCTests", dependencies: ["BuntingJSONRPC", "BuntingJSON", "BuntingRuntime"]),
        .testTarget(
            name: "BuntingServerTests",
            dependencies: [
                "BuntingServer", "BuntingJSONRPC", "BuntingCore", "BuntingDefinitions", "BuntingJSON", "BuntingRuntime",
                "BuntingHTTP",
            ]),
        // Drives the built `bunting` binary through real pipes.
        // Also the HTTP client against a fault-injecting loopback server, and nginx.
        .testTarget(
            name: "BuntingEndToEndTests", dependencies: ["BuntingJSON", "BuntingHTTP", "BuntingCore", "bunting"]),

        // Release-build benchmark of BuntingRules (benchmarks/rules/run); not a test.
        // Release-build benchmark of BuntingExperiments against the Python
        // growthbook SDK (benchmarks/experiments/run); not a test.
        .executableTarget(
            name: "bunting-experiments-bench", dependencies: ["BuntingExperiments", "BuntingJSON"],
            path: "benchmarks/experiments/Sources"),
        .executableTarget(
            name: "bunting-rules-bench", dependencies: ["BuntingRules", "BuntingJSON"],
            path: "benchmarks/rules/Sources",
            // Float rounding calls libm, which nothing else links without Foundation.
            linkerSettings: [.linkedLibrary("m")]),

        // Release-build benchmark of BuntingTemplates against python-liquid
        // (benchmarks/templates/run); not a test.
        .executableTarget(
            name: "bunting-templates-bench", dependencies: ["BuntingTemplates", "BuntingJSON"],
            path: "benchmarks/templates/Sources",
            linkerSettings: [.linkedLibrary("m")]),
    ]
)

for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + hotCodeLayout
}

// Fuzz targets
// libFuzzer harnesses, one program each (fuzz/README.md). A normal build makes
// each a program that replays the files named on its command line; scripts/fuzz
// builds them with AddressSanitizer, coverage instrumentation and -DFUZZING,
// and links libFuzzer, which then drives them.
package.targets += [
    .target(name: "FuzzSupport", path: "fuzz/Sources/FuzzSupport"),
    .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", "BuntingJSON"], path: "fuzz/Sources/fuzz-json"),
    .executableTarget(
        name: "fuzz-framer", dependencies: ["FuzzSupport", "BuntingJSON", "BuntingJSONRPC"],
        path: "fuzz/Sources/fuzz-framer"),
    .executableTarget(
        name: "fuzz-jsonlogic", dependencies: ["FuzzSupport", "BuntingJSON", "BuntingRules"],
        path: "fuzz/Sources/fuzz-jsonlogic"),
    .executableTarget(
        name: "fuzz-definitions", dependencies: ["FuzzSupport", "BuntingJSON", "BuntingCore", "BuntingDefinitions"],
        path: "fuzz/Sources/fuzz-definitions"),
    .executableTarget(
        name: "fuzz-growthbook", dependencies: ["FuzzSupport", "BuntingJSON", "BuntingExperiments"],
        path: "fuzz/Sources/fuzz-growthbook"),
    .executableTarget(
        name: "fuzz-schema", dependencies: ["FuzzSupport", "BuntingJSON", "BuntingSchema"],
        path: "fuzz/Sources/fuzz-schema"),
    .executableTarget(
        name: "fuzz-liquid", dependencies: ["FuzzSupport", "BuntingJSON", "BuntingTemplates"],
        path: "fuzz/Sources/fuzz-liquid"),
    .executableTarget(
        name: "fuzz-dispatch",
        dependencies: [
            "FuzzSupport", "BuntingJSON", "BuntingJSONRPC", "BuntingRuntime", "BuntingCore", "BuntingDefinitions",
            "BuntingServer",
        ],
        path: "fuzz/Sources/fuzz-dispatch"),
]
