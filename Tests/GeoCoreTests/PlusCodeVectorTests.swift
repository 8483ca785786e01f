import Foundation
import GeoCore
import Testing

/// The Open Location Code test vectors recorded from the specification's reference
/// implementation (`data/test-extracts/open-location-code.json`, made by
/// `scripts/record-plus-codes.py`): encoding at every length, decoding, shortening,
/// recovering the nearest code, and which texts are codes at all.
@Suite struct PlusCodeVectorTests {
    /// A place and a length, and the code the reference gives (nil where it refuses the length).
    struct Encoding: Decodable, Sendable {
        var place: Coordinate, length: Int, code: String?
        init(from decoder: any Decoder) throws {
            var row = try decoder.unkeyedContainer()
            place = Coordinate(latitude: try row.decode(Double.self), longitude: try row.decode(Double.self))
            length = try row.decode(Int.self)
            code = try row.decodeIfPresent(String.self)
        }
    }

    /// A code and its cell's corners (south, west, north, east) and digit count.
    struct Decoding: Decodable, Sendable {
        var code: String, corners: [Double], digits: Int
        init(from decoder: any Decoder) throws {
            var row = try decoder.unkeyedContainer()
            code = try row.decode(String.self)
            corners = try (0..<4).map { _ in try row.decode(Double.self) }
            digits = try row.decode(Int.self)
        }
    }

    /// A code, a reference place and the code shortened or recovered there.
    struct Nearby: Decodable, Sendable {
        var code: String, reference: Coordinate, answer: String
        init(from decoder: any Decoder) throws {
            var row = try decoder.unkeyedContainer()
            code = try row.decode(String.self)
            reference = Coordinate(latitude: try row.decode(Double.self), longitude: try row.decode(Double.self))
            answer = try row.decode(String.self)
        }
    }

    /// A text and what the reference says of it.
    struct Validity: Decodable, Sendable {
        var text: String, isValid: Bool, isShort: Bool, isFull: Bool
        init(from decoder: any Decoder) throws {
            var row = try decoder.unkeyedContainer()
            text = try row.decode(String.self)
            isValid = try row.decode(Bool.self)
            isShort = try row.decode(Bool.self)
            isFull = try row.decode(Bool.self)
        }
    }

    struct Vectors: Decodable, Sendable {
        var encode: [Encoding], decode: [Decoding], shorten: [Nearby], recover: [Nearby], validity: [Validity]
    }

    let vectors: Vectors

    init() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data/test-extracts/open-location-code.json")
        vectors = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: path))
    }

    @Test func encodingMatchesTheReference() {
        #expect(vectors.encode.count > 600)
        for row in vectors.encode {
            if let expected = row.code {
                #expect(
                    (try? PlusCode(row.place, length: row.length))?.code == expected,
                    "\(row.place), \(row.length) digits")
            } else {
                #expect(throws: PlusCode.Failure.length(row.length), "\(row.place), \(row.length) digits") {
                    try PlusCode(row.place, length: row.length)
                }
            }
        }
    }

    @Test func decodingMatchesTheReference() throws {
        #expect(vectors.decode.count > 500)
        for row in vectors.decode {
            let code = try PlusCode(row.code)
            let area = try code.area()
            let corners = [
                area.southWest!.latitude, area.southWest!.longitude, area.northEast!.latitude,
                area.northEast!.longitude,
            ]
            #expect(
                zip(corners, row.corners).allSatisfy { abs($0 - $1) < 1e-10 },
                "\(row.code): \(corners), not \(row.corners)")
            #expect(code.digitCount == row.digits, "\(row.code)")
        }
    }

    @Test func shorteningMatchesTheReference() throws {
        #expect(vectors.shorten.count > 1000)
        for row in vectors.shorten {
            #expect(
                try PlusCode(row.code).shortened(near: row.reference).code == row.answer,
                "\(row.code) near \(row.reference)")
        }
    }

    @Test func recoveringMatchesTheReference() throws {
        #expect(vectors.recover.count > 800)
        for row in vectors.recover {
            #expect(
                try PlusCode(row.code).recovered(near: row.reference).code == row.answer,
                "\(row.code) near \(row.reference)")
        }
    }

    /// A text is read as a code where the reference calls it a short or a full code. (We also
    /// read a code with spaces around it, as people paste them; the reference refuses those,
    /// so the vectors with such spaces are left out.)
    @Test func theSameTextsAreCodes() {
        #expect(vectors.validity.count > 200)
        for row in vectors.validity where row.text.trimmingCharacters(in: .whitespaces) == row.text {
            let code = try? PlusCode(row.text)
            #expect((code != nil) == (row.isShort || row.isFull), "'\(row.text)'")
            if let code { #expect(code.isShort == row.isShort, "'\(row.text)'") }
        }
    }
}
