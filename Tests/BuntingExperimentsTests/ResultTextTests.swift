import BuntingJSON
import Testing

@testable import BuntingExperiments

/// A bucket written without formatting a double is the text every real is
/// written as (`JSON.number`), for every bucket a hash can give and for
/// numbers that are not buckets.
@Suite struct BucketTextTests {
    @Test func everyTenThousandthIsWrittenAsAnyNumberIs() {
        var mismatches: [String] = []
        for step in 0...10_000 {
            let bucket = Double(step) / 10_000
            if written(bucket) != JSON.number(bucket).encoded() {
                mismatches.append("\(bucket): \(String(decoding: written(bucket), as: UTF8.self))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func otherNumbersAreWrittenAsAnyNumberIs() {
        for number in [0.12345, 1.5, -0.25, 1e-7, 0.1 + 0.2, -0.0, 2.0] {
            #expect(written(number) == JSON.number(number).encoded(), "\(number)")
        }
    }

    private func written(_ number: Double) -> [UInt8] {
        var text: [UInt8] = []
        Bucket(number).appendEncoded(to: &text)
        return text
    }
}

@Suite struct FeatureSourceTests {
    /// The result writer looks sources' texts up by ordinal.
    @Test func ordinalsAreThePlacesInAllCases() {
        #expect(FeatureSource.allCases.map(\.ordinal) == Array(FeatureSource.allCases.indices))
    }
}
