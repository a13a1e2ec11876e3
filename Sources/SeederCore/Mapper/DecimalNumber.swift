/// A number read exactly from its JSON text: `digits × 10^exponent`, never through `Double`.
///
/// `integer`, `decimal` and the collection operators use it, so `5013.26` stays `5013.26`,
/// `3.0` is the integer 3, `3.5` is not an integer, and `9223372036854775808` is past 64 bits.
package struct DecimalNumber: Hashable, Comparable, CustomStringConvertible {
    /// Significant digits, no leading or trailing zeros (`"0"` is written as empty digits).
    var digits: [UInt8]
    /// Power of ten applied to `digits`.
    var exponent: Int
    /// Sign; zero is never negative.
    var isNegative: Bool

    /// The most digits a canonical decimal may have: a guard against `1e999999999`.
    static let maxCanonicalLength = 1000

    static let zero = DecimalNumber(digits: [], exponent: 0, isNegative: false)

    /// Reads RFC 8259 number text (`-12.50e3`); `nil` for anything else.
    package init?(text: some Collection<UInt8>) {
        var digits: [UInt8] = []
        var exponent = 0
        var isNegative = false
        var iterator = text.makeIterator()
        var byte = iterator.next()
        if byte == UInt8(ascii: "-") {
            isNegative = true
            byte = iterator.next()
        }
        guard let first = byte, first &- UInt8(ascii: "0") < 10 else { return nil }
        if first == UInt8(ascii: "0") {
            byte = iterator.next()
            if let next = byte, next &- UInt8(ascii: "0") < 10 { return nil }
        } else {
            while let digit = byte, digit &- UInt8(ascii: "0") < 10 {
                digits.append(digit &- UInt8(ascii: "0"))
                byte = iterator.next()
            }
        }
        if byte == UInt8(ascii: ".") {
            byte = iterator.next()
            var fractionDigits = 0
            while let digit = byte, digit &- UInt8(ascii: "0") < 10 {
                digits.append(digit &- UInt8(ascii: "0"))
                exponent -= 1
                fractionDigits += 1
                byte = iterator.next()
            }
            guard fractionDigits > 0 else { return nil }
        }
        if let e = byte, e | 0x20 == UInt8(ascii: "e") {
            byte = iterator.next()
            var negativeExponent = false
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                negativeExponent = byte == UInt8(ascii: "-")
                byte = iterator.next()
            }
            var value = 0
            var count = 0
            while let digit = byte, digit &- UInt8(ascii: "0") < 10 {
                // Saturate: an exponent past a billion is out of every range anyway.
                value = min(value * 10 + Int(digit &- UInt8(ascii: "0")), 1_000_000_000)
                count += 1
                byte = iterator.next()
            }
            guard count > 0 else { return nil }
            exponent += negativeExponent ? -value : value
        }
        guard byte == nil else { return nil }
        self.init(normalizing: digits, exponent: exponent, isNegative: isNegative)
    }

    /// A number from an integer.
    init(_ value: Int64) {
        let magnitude = value.magnitude
        self.init(normalizing: Array(String(magnitude).utf8).map { $0 - UInt8(ascii: "0") }, exponent: 0, isNegative: value < 0)
    }

    init(digits: [UInt8], exponent: Int, isNegative: Bool) {
        self.digits = digits
        self.exponent = exponent
        self.isNegative = isNegative
    }

    /// Strips leading and trailing zeros into a canonical form.
    init(normalizing digits: [UInt8], exponent: Int, isNegative: Bool) {
        var start = 0
        while start < digits.count, digits[start] == 0 { start += 1 }
        var end = digits.count
        var exponent = exponent
        while end > start, digits[end - 1] == 0 {
            end -= 1
            exponent += 1
        }
        if start == end {
            self = .zero
        } else {
            self.init(digits: Array(digits[start..<end]), exponent: exponent, isNegative: isNegative)
        }
    }

    var isZero: Bool { digits.isEmpty }

    /// `true` when the value has no fraction.
    package var isIntegral: Bool { exponent >= 0 || isZero }

    /// The value as a 64-bit integer; `nil` when it has a fraction or is out of range.
    package var int64: Int64? {
        guard isIntegral else { return nil }
        if isZero { return 0 }
        guard digits.count + exponent <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for digit in digits {
            magnitude = magnitude * 10 + UInt64(digit)
        }
        for _ in 0..<exponent {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            magnitude = product
        }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The length of the canonical text, without building it.
    var canonicalLength: Int {
        if isZero { return 1 }
        let sign = isNegative ? 1 : 0
        if exponent >= 0 { return sign + digits.count + exponent }
        let integerDigits = digits.count + exponent
        // `123.45`, or `0.00123`: "0." then the zeros, then the digits.
        return sign + (integerDigits > 0 ? digits.count + 1 : 2 - integerDigits + digits.count)
    }

    /// The canonical decimal text of docs/mapping.md: no exponent, no trailing zeros (`5013.26`,
    /// `1500`, `0.001`, `-2`). Check `canonicalLength` first for huge exponents.
    package var description: String {
        if isZero { return "0" }
        var text = isNegative ? "-" : ""
        let characters = digits.map { Character(Unicode.Scalar($0 + UInt8(ascii: "0"))) }
        if exponent >= 0 {
            text += String(characters) + String(repeating: "0", count: exponent)
        } else {
            let integerDigits = characters.count + exponent
            if integerDigits > 0 {
                text += String(characters[..<integerDigits]) + "." + String(characters[integerDigits...])
            } else {
                text += "0." + String(repeating: "0", count: -integerDigits) + String(characters)
            }
        }
        return text
    }

    /// The nearest `Double` (through the canonical text, which strtod rounds correctly).
    package var double: Double? {
        if isZero { return 0 }
        let text = (isNegative ? "-" : "") + digits.map { String($0) }.joined() + "e" + String(exponent)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    package static func < (lhs: DecimalNumber, rhs: DecimalNumber) -> Bool {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
        let magnitudeLess = lhs.magnitudeLess(than: rhs)
        let equal = lhs.digits == rhs.digits && lhs.exponent == rhs.exponent
        return lhs.isNegative ? (!magnitudeLess && !equal) : magnitudeLess
    }

    private func magnitudeLess(than other: DecimalNumber) -> Bool {
        if isZero || other.isZero { return isZero && !other.isZero }
        let order = digits.count + exponent
        let otherOrder = other.digits.count + other.exponent
        if order != otherOrder { return order < otherOrder }
        for index in 0..<max(digits.count, other.digits.count) {
            let a = index < digits.count ? digits[index] : 0
            let b = index < other.digits.count ? other.digits[index] : 0
            if a != b { return a < b }
        }
        return false
    }

    /// Exact sum.
    static func + (lhs: DecimalNumber, rhs: DecimalNumber) -> DecimalNumber {
        if lhs.isZero { return rhs }
        if rhs.isZero { return lhs }
        let exponent = min(lhs.exponent, rhs.exponent)
        let a = lhs.digits + [UInt8](repeating: 0, count: lhs.exponent - exponent)
        let b = rhs.digits + [UInt8](repeating: 0, count: rhs.exponent - exponent)
        if lhs.isNegative == rhs.isNegative {
            return DecimalNumber(normalizing: addMagnitudes(a, b), exponent: exponent, isNegative: lhs.isNegative)
        }
        if compareMagnitudes(a, b) >= 0 {
            return DecimalNumber(normalizing: subtractMagnitudes(a, b), exponent: exponent, isNegative: lhs.isNegative)
        }
        return DecimalNumber(normalizing: subtractMagnitudes(b, a), exponent: exponent, isNegative: rhs.isNegative)
    }

    /// The quotient by a positive count, to `scale` digits after the point (half-even rounding).
    func divided(by divisor: Int, scale: Int = 20) -> DecimalNumber {
        guard !isZero else { return self }
        // Long division of digits × 10^(extra) by the divisor.
        let extra = max(0, scale + exponent)
        let dividend = digits + [UInt8](repeating: 0, count: extra + 1)
        var quotient: [UInt8] = []
        var remainder = 0
        for digit in dividend {
            remainder = remainder * 10 + Int(digit)
            quotient.append(UInt8(remainder / divisor))
            remainder %= divisor
        }
        // Round the last (guard) digit away, half to even.
        let guardDigit = quotient.removeLast()
        let lastIsOdd = (quotient.last ?? 0) % 2 == 1
        if guardDigit > 5 || (guardDigit == 5 && (remainder > 0 || lastIsOdd)) {
            quotient = Self.addMagnitudes(quotient, [1])
        }
        return DecimalNumber(normalizing: quotient, exponent: exponent - extra, isNegative: isNegative)
    }

    private static func addMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: max(a.count, b.count) + 1)
        var carry: UInt8 = 0
        for k in 0..<result.count {
            let x = k < a.count ? a[a.count - 1 - k] : 0
            let y = k < b.count ? b[b.count - 1 - k] : 0
            let sum = x + y + carry
            result[result.count - 1 - k] = sum % 10
            carry = sum / 10
        }
        return result
    }

    private static func subtractMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: a.count)
        var borrow: Int = 0
        for k in 0..<a.count {
            var x = Int(a[a.count - 1 - k]) - borrow
            let y = k < b.count ? Int(b[b.count - 1 - k]) : 0
            borrow = x < y ? 1 : 0
            x += borrow * 10
            result[a.count - 1 - k] = UInt8(x - y)
        }
        return result
    }

    private static func compareMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let x = Array(a.drop { $0 == 0 })
        let y = Array(b.drop { $0 == 0 })
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
        return 0
    }
}
