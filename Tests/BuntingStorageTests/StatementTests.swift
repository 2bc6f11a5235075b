@testable import BuntingStorage
import Testing

/// UTF-8 values are bound where they are, for the statement's run only.
@Suite struct StatementTests {
    @Test func bytesBoundInPlaceAreReadByTheRunAndLetGoAfterIt() throws {
        let directory = try TemporaryDirectory()
        try withDatabase(directory.database) { database in
            let select = try database.prepare("SELECT ?, length(?)")
            var rows: [[SQLValue]] = []
            let text = Array(String(repeating: "é", count: 100_000).utf8)
            try select.run([.utf8(text), .utf8(text)]) { row in rows.append([row.value(0), row.value(1)]) }
            #expect(rows == [[.text(String(repeating: "é", count: 100_000)), .integer(100_000)]])

            // More values than parameters: refused, and nothing stays bound.
            #expect(throws: SQLiteError.self) {
                try select.run([.utf8(Array("a".utf8)), .utf8(Array("b".utf8)), .integer(1)])
            }
            rows = []
            try select.run { row in rows.append([row.value(0), row.value(1)]) }
            #expect(rows == [[.null, .null]])
        }
    }
}
