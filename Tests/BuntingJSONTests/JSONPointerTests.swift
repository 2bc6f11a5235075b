import BuntingJSON

import Testing

@Suite struct JSONPointerTests {
    @Test func parsesAndFormatsWithEscapes() throws {
        let pointer = try JSONPointer(parsing: "/a~1b/m~0n/~01/")
        #expect(pointer.tokens == ["a/b", "m~n", "~1", ""])
        #expect(pointer.description == "/a~1b/m~0n/~01/")
    }

    @Test func emptyTextIsTheRoot() throws {
        let pointer = try JSONPointer(parsing: "")
        #expect(pointer.isRoot)
        #expect(pointer == .root)
        #expect(pointer.description == "")
        #expect(pointer.parent == nil)
    }

    @Test func refusesTextWithoutLeadingSlashOrWithBadTilde() {
        #expect(throws: JSONPointer.ParseError.self) { try JSONPointer(parsing: "a/b") }
        #expect(throws: JSONPointer.ParseError.self) { try JSONPointer(parsing: "/a~2") }
        #expect(throws: JSONPointer.ParseError.self) { try JSONPointer(parsing: "/a~") }
    }

    @Test func appendsTokensAndIndices() {
        let pointer = JSONPointer.root.appending("flags").appending("a/b").appending(3)
        #expect(pointer.description == "/flags/a~1b/3")
        #expect(pointer.parent?.description == "/flags/a~1b")
    }

    /// The examples of RFC 6901 section 5.
    @Test func resolvesTheExamplesOfTheRFC() throws {
        let document = try JSON.parse(
            #"""
            {"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5,
             "k\"l": 6, " ": 7, "m~n": 8}
            """#)
        let expectations: [(String, JSON)] = [
            ("", document), ("/foo", ["bar", "baz"]), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1),
            ("/c%d", 2), ("/e^f", 3), ("/g|h", 4), ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
        ]
        for (text, expected) in expectations {
            #expect(try JSONPointer(parsing: text).resolve(in: document) == expected, "\(text)")
        }
    }

    @Test func missingPlacesResolveToNil() throws {
        let document: JSON = ["list": [1, 2], "n": 1]
        for text in ["/missing", "/list/2", "/list/-", "/list/01", "/list/x", "/n/0", "/list/-1"] {
            #expect(try JSONPointer(parsing: text).resolve(in: document) == nil, "\(text)")
        }
    }
}
