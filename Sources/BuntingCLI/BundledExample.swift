/// The example definitions (`examples/definitions/bunting.json`), built into
/// the binary so that `bunting serve` works anywhere without options.
enum BundledExample {
    static let definitions: [UInt8] = PackageResources.bunting_json
}
