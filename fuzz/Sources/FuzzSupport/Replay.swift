#if canImport(Glibc)
import Glibc
#endif

/// The `main` of a harness built without libFuzzer: runs the files named on the
/// command line (or every file in a named directory) through the harness once
/// each, so that a crash file can be reproduced, and a corpus checked, with a
/// plain `swift build` on any platform.
func replayMain(_ harness: (UnsafeRawBufferPointer) -> Void) -> Never {
    let paths = CommandLine.arguments.dropFirst()
    if paths.isEmpty {
        writeToStandardError("usage: \(CommandLine.arguments[0]) FILE-OR-DIRECTORY...\n")
        exit(2)
    }
    var count = 0
    for path in paths {
        for file in filesAt(path) {
            guard let bytes = readFile(file) else {
                writeToStandardError("cannot read \(file)\n")
                exit(2)
            }
            bytes.withUnsafeBytes { harness($0) }
            count += 1
        }
    }
    print("ran \(count) inputs")
    exit(0)
}

/// `path` itself, or the regular files directly inside it, sorted by name.
private func filesAt(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [path] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if !name.hasPrefix(".") { names.append(path + "/" + name) }
    }
    return names.sorted()
}

private func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        bytes.append(contentsOf: chunk[..<read])
        if read < chunk.count { break }
    }
    return ferror(file) == 0 ? bytes : nil
}
