import Glibc

/// Whole-file reads and writes through the C library, so the benchmark
/// needs no Foundation.
enum FileIO {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "wb") else { throw Failure(description: "cannot write \(path)") }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw Failure(description: "short write to \(path)") }
    }

    static func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw Failure(description: "cannot read \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: buffer[..<count])
        }
        return bytes
    }
}
