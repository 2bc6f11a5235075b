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

        // JSON Pointer, source positions and JSON Schema validation of definitions.
        .target(name: "BuntingSchema", dependencies: ["BuntingJSON"]),

        .testTarget(name: "BuntingJSONTests", dependencies: ["BuntingJSON"]),
        .testTarget(
            name: "BuntingSchemaTests", dependencies: ["BuntingSchema", "BuntingJSON"],
            exclude: ["Fixtures"]),
    ]
)
