import XCTest

@testable import Folio
@testable import FolioData

/// How YAML's plain scalars are typed: null, booleans and numbers as YAML 1.2 writes them, the
/// rest (words, hexadecimal, dates, versions) as strings; quoted scalars are always strings.
final class YAMLTreeTests: XCTestCase {
    private func value(_ scalar: String) throws -> TreeValue {
        guard case .object(let members) = try YAMLTree.parse("v: \(scalar)\n"), let first = members.first else {
            throw FolioError(path: "", "not an object")
        }
        return first.value
    }

    func testPlainScalarsAreTypedAndEverythingElseIsAString() throws {
        for null in ["", "~", "null", "Null", "NULL"] { XCTAssertEqual(try value(null), .null, null) }
        for yes in ["true", "True", "TRUE"] { XCTAssertEqual(try value(yes), .bool(true), yes) }
        for no in ["false", "False", "FALSE"] { XCTAssertEqual(try value(no), .bool(false), no) }
        let numbers: [(String, Double)] = [
            ("0", 0), ("42", 42), ("-7", -7), ("+3", 3), ("3.25", 3.25), (".5", 0.5), ("-.5", -0.5), ("1e3", 1000), ("2.5E-2", 0.025),
        ]
        for (text, number) in numbers { XCTAssertEqual(try value(text), .number(number), text) }
        XCTAssertEqual(try value(".inf"), .number(.infinity))
        XCTAssertEqual(try value("-.Inf"), .number(-.infinity))
        guard case .number(let nan) = try value(".NaN") else { return XCTFail(".NaN is a number") }
        XCTAssertTrue(nan.isNaN)
        for text in [
            "nope", "Nothing", "tomorrow", "fine", "0x1F", "0x1p3", "1_000", "2026-11-25", "1.2.3", "+x", "inf", "nan", "1e", "12 kg",
            "Ünïcode", "yes", "no", "on", "off",
        ] {
            XCTAssertEqual(try value(text), .string(text), text)
        }
        XCTAssertEqual(try value("\"42\""), .string("42"), "a quoted scalar is a string")
        XCTAssertEqual(try value("'true'"), .string("true"))
    }
}
