// swift-tools-version:6.0
// Bunting: the client-side core of a messaging and experimentation SDK, served
// over JSON-RPC 2.0 on stdin/stdout. Modules follow the layers of the design:
// each C library is reached through one system library target and one module.
import PackageDescription

let package = Package(
    name: "Bunting",
    products: [

    ],
    targets: [
        // C libraries, from Debian packages.
        .systemLibrary(
            name: "CJansson", pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]),

        // JSON values over jansson; the only module that imports CJansson.
        .target(name: "BuntingJSON", dependencies: ["CJansson"]),

        .testTarget(name: "BuntingJSONTests", dependencies: ["BuntingJSON"]),

        // JSONLogic with flagd's operators and flag resolution; pure Swift, no I/O.
        .target(name: "BuntingRules", dependencies: ["BuntingJSON"]),
        .testTarget(
            name: "BuntingRulesTests", dependencies: ["BuntingRules", "BuntingJSON"],
            exclude: ["Fixtures"]),

        // Release-build benchmark of BuntingRules (benchmarks/rules/run); not a test.
        .executableTarget(
            name: "bunting-rules-bench", dependencies: ["BuntingRules", "BuntingJSON"],
            path: "benchmarks/rules/Sources",
            // Float rounding calls libm, which nothing else links without Foundation.
            linkerSettings: [.linkedLibrary("m")]),
    ]
)
