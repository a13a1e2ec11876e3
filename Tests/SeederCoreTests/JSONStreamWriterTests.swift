import Testing

@testable import SeederCore

struct JSONStreamWriterTests {
    @Test func placesCommasAndColonsWithKeysInTheOrderWritten() {
        var json = JSONStreamWriter()
        json.object { json in
            json.member("z", "last written first")
            json.member("count", 3)
            json.member("none", nil as Int?)
            json.member("missing", nil as String?)
            json.member("ok", true)
            json.member("list") { $0.array(["a", "b"]) }
            json.member("empty") { $0.array([]) }
            json.member("nested") { json in
                json.object { json in
                    json.key("raw")
                    json.raw("1.5")
                    json.key("inner")
                    json.array { json in
                        json.object { _ in }
                        json.null()
                        json.value(-7)
                    }
                }
            }
        }
        #expect(
            json.text == #"{"z":"last written first","count":3,"none":null,"missing":null,"ok":true,"list":["a","b"],"#
                + #""empty":[],"nested":{"raw":1.5,"inner":[{},null,-7]}}"#)
    }

    @Test func writesAnArrayOfOneObjectPerElement() {
        var json = JSONStreamWriter()
        json.object { json in
            json.member("users", objects: [(1, "Ann"), (2, "Bo")]) { json, user in
                json.member("id", user.0)
                json.member("name", user.1)
            }
            json.member("none", objects: [Int]()) { _, _ in }
        }
        #expect(json.text == #"{"users":[{"id":1,"name":"Ann"},{"id":2,"name":"Bo"}],"none":[]}"#)
    }

    @Test func escapesStringsAndKeysAsJSONWriterDoes() {
        let text = "quote \" backslash \\ newline \n tab \t bell \u{07} é 😀"
        var json = JSONStreamWriter()
        json.object { json in json.member(text, text) }
        let literal = JSONWriter.stringLiteral(text)
        #expect(literal == #""quote \" backslash \\ newline \n tab \t bell \u0007 é 😀""#)
        #expect(json.text == "{\(literal):\(literal)}")
    }

    /// A line break goes after the comma, before the next key or element, or before a closing
    /// bracket.
    @Test func breaksLinesBeforeTheNextKeyElementOrBracket() {
        var json = JSONStreamWriter()
        json.object { json in
            json.member("a", 1)
            json.lineBreak()
            json.member("b") { json in
                json.array { json in
                    json.lineBreak()
                    json.value("x")
                    json.lineBreak()
                    json.value("y")
                    json.lineBreak()
                }
            }
        }
        #expect(json.text == "{\"a\":1,\n\"b\":[\n\"x\",\n\"y\"\n]}")
    }

    /// A document written in parts: the bytes taken out between them, and an array's elements
    /// written by writers of their own.
    @Test func writesADocumentInParts() {
        var parts: [String] = []
        var json = JSONStreamWriter()
        json.beginObject()
        json.key("items")
        json.beginArray()
        parts.append(json.text)
        json.removeBytes()
        var element = JSONStreamWriter()
        for (index, name) in ["one", "two"].enumerated() {
            element.reset(afterElement: index > 0)
            element.lineBreak()
            element.object { $0.member("name", name) }
            parts.append(element.text)
        }
        json.endArray()
        json.member("more", false)
        json.endObject()
        parts.append(json.text)
        #expect(parts == [#"{"items":["#, "\n{\"name\":\"one\"}", ",\n{\"name\":\"two\"}", #"],"more":false}"#])
    }
}
