import GeoCore
import Testing

@Suite struct DecimalTextTests {
    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("+34", 34.0), ("40.765819", 40.765819), ("-73.975866", -73.975866), ("180", 180.0),
        ("0.000001", 0.000001), ("12.3456789012345678", 12.3456789012345678),
    ])
    func acceptsPlainDecimals(text: String, value: Double) {
        #expect(DecimalText.parse(text) == value)
    }

    @Test(arguments: [
        "", "-", "+", ".", "nan", "NaN", "inf", "-infinity", "0x1p3", "1e5", "1E5", "34.", ".5", " 1", "1 ", "1_000",
        "1,5",
        "٣", "1234", "--1", "+-1", "1.2.3",
    ])
    func rejectsEverythingElse(_ text: String) {
        #expect(DecimalText.parse(text) == nil)
    }

    @Test func integerDigitLimitIsAParameter() {
        #expect(DecimalText.parse("1234") == nil)
        #expect(DecimalText.parse("1234", maxIntegerDigits: 4) == 1234)
    }

    /// The fast path is Clinger's exact one: it agrees bit for bit with the correctly rounded
    /// `Double(String)` on every input, including long ones that take the slow path.
    @Test func agreesWithCorrectlyRoundedConversion() {
        var state: UInt64 = 42
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for _ in 0..<20000 {
            let integer = next() % 181
            let fractionDigits = Int(next() % 20) + 1
            var fraction = ""
            for _ in 0..<fractionDigits { fraction.append(Character(String(next() % 10))) }
            let text = "\(next() % 2 == 0 ? "-" : "")\(integer).\(fraction)"
            #expect(DecimalText.parse(text) == Double(text), "\(text)")
        }
    }

    @Test(arguments: [
        (14.0, "14"), (-0.5, "-0.5"), (40.765819, "40.765819"), (0.00001, "0.00001"), (1.5e-7, "0.00000015"),
        (-2.5e-10, "-0.00000000025"), (1e16, "10000000000000000"),
    ])
    func formatsWithoutExponents(value: Double, text: String) {
        #expect(DecimalText.format(value) == text)
    }

    /// Any double prints without an exponent and converts back to itself.
    @Test func formatIsExactForAnyDouble() {
        var state: UInt64 = 7
        for _ in 0..<20000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            let value = Double(bitPattern: (state >> 12) | 0x3FF0_0000_0000_0000) - 1.0  // [0, 1)
            let scaled = value * [1e-12, 1e-6, 1, 90, 180][Int(state % 5)]
            let text = DecimalText.format(scaled)
            #expect(!text.contains("e") && Double(text) == scaled, "\(scaled)")
        }
    }

    /// A value read from text prints with no more fraction digits than the text had, so what
    /// the parser accepts, the printer writes back inside the grammar.
    @Test func parsedValuesFormatInsideTheGrammar() {
        var state: UInt64 = 11
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for _ in 0..<20000 {
            let fractionDigits = Int(next() % UInt64(DecimalText.maxFractionDigits)) + 1
            var fraction = ""
            for _ in 0..<fractionDigits { fraction.append(Character(String(next() % 10))) }
            let text = "\(next() % 2 == 0 ? "0" : String(next() % 180)).\(fraction)"
            let value = DecimalText.parse(text)
            #expect(value != nil && DecimalText.parse(DecimalText.format(value!)) == value, "\(text)")
        }
    }
}

@Suite struct CoordinateTests {
    @Test func parsingChecksGrammarAndRange() {
        #expect(Coordinate(parsing: "40.765819,-73.975866") == Coordinate(latitude: 40.765819, longitude: -73.975866))
        #expect(Coordinate(parsing: "40.7, -73.9") == Coordinate(latitude: 40.7, longitude: -73.9))
        #expect(Coordinate(parsing: "91,0") == nil)
        #expect(Coordinate(parsing: "0,181") == nil)
        #expect(Coordinate(parsing: "nan,0") == nil)
        #expect(Coordinate(parsing: "1e1,0") == nil)
        #expect(Coordinate(parsing: "1,2,3") == nil)
    }

    @Test func descriptionIsPlainLatitudeCommaLongitude() {
        #expect(Coordinate(latitude: 1.5e-7, longitude: -180).description == "0.00000015,-180")
    }

    @Test func validity() {
        #expect(Coordinate(latitude: 90, longitude: -180).isValid)
        #expect(!Coordinate(latitude: .nan, longitude: 0).isValid)
        #expect(Coordinate(validatingLatitude: 0, longitude: 200) == nil)
    }

    /// One degree of longitude on the equator is 2πR/360 for the mean radius.
    @Test func greatCircleDistance() {
        let oneDegree = Coordinate(latitude: 0, longitude: 0).distance(to: Coordinate(latitude: 0, longitude: 1))
        #expect(abs(oneDegree - 111_195.08) < 0.01)
        // Helsinki Central Station to Tallinn Old Town: about 82.6 km.
        let helsinki = Coordinate(latitude: 60.1710, longitude: 24.9414)
        let tallinn = Coordinate(latitude: 59.4370, longitude: 24.7536)
        #expect(abs(helsinki.distance(to: tallinn) - 82_300) < 1_000)
        #expect(helsinki.distance(to: helsinki) == 0)
    }
}
