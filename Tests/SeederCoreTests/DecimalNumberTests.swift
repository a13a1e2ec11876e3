import Testing

@testable import SeederCore

struct DecimalNumberTests {
    @Test func readsAndWritesCanonicalDecimals() {
        let cases: [(String, String)] = [
            ("0", "0"), ("-0", "0"), ("5013.260", "5013.26"), ("1.50e3", "1500"), ("1e-3", "0.001"), ("-12.5E+1", "-125"),
            ("123456789012345678901234567890.5", "123456789012345678901234567890.5"), ("0.000", "0"), ("100", "100"),
        ]
        for (text, canonical) in cases {
            let number = DecimalNumber(text: Array(text.utf8))
            #expect(number?.description == canonical, "\(text)")
            #expect(number?.canonicalLength == canonical.count, "\(text)")
        }
        #expect(DecimalNumber(text: Array("01".utf8)) == nil)
        #expect(DecimalNumber(text: Array("1.".utf8)) == nil)
        #expect(DecimalNumber(text: Array("1e999999999999".utf8))?.canonicalLength ?? 0 > 1000)
    }

    @Test func addsDividesAndComparesExactly() {
        func d(_ text: String) -> DecimalNumber { DecimalNumber(text: Array(text.utf8))! }
        #expect((d("0.1") + d("0.2")).description == "0.3")
        #expect((d("12.50") + d("-2.25")).description == "10.25")
        #expect((d("-5") + d("3")).description == "-2")
        #expect(d("110.25").divided(by: 3).description == "36.75")
        #expect(d("1").divided(by: 3).description == "0.33333333333333333333")
        #expect(d("2").divided(by: 3).description == "0.66666666666666666667")
        #expect(d("-2.25") < d("1") && d("-3") < d("-2.5") && d("10") > d("9.99") && !(d("1.0") < d("1")))
        #expect(d("9223372036854775807").int64 == Int64.max && d("9223372036854775808").int64 == nil)
        #expect(d("-9223372036854775808").int64 == Int64.min && d("1.5").int64 == nil)
    }
}
