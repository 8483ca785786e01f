import GeoCore
import Testing

/// The `index`th of a low-discrepancy sequence of numbers in `range` (a Weyl sequence of
/// step `step`, an irrational fraction): spread evenly, the same every run.
private func spread(_ index: Int, step: Double, in range: ClosedRange<Double>) -> Double {
    let fraction = (Double(index) * step).truncatingRemainder(dividingBy: 1)
    return range.lowerBound + fraction * (range.upperBound - range.lowerBound)
}

/// Open Location Code: codes of real places, every length, cells that hold their places,
/// short codes recovered across the poles and the antimeridian, and codes refused with why.
@Suite struct PlusCodeTests {
    @Test func realPlacesHaveTheirCodes() throws {
        // Google's office in Zurich and the Googleplex, as the codes' documentation gives them.
        let zurich = try PlusCode("8FVC9G8F+6X").center()
        #expect(abs(zurich.latitude - 47.365_562_5) < 1e-6 && abs(zurich.longitude - 8.524_937_5) < 1e-6)
        #expect(try PlusCode(Coordinate(latitude: 47.365_59, longitude: 8.524_99)).code == "8FVC9G8F+6X")
        let googleplex = try PlusCode("849VCWC8+R9").center()
        #expect(abs(googleplex.latitude - 37.422_062_5) < 1e-6 && abs(googleplex.longitude + 122.084_062_5) < 1e-6)
        // Lower case and spaces around are read.
        #expect(try PlusCode(" 849vcwc8+r9 ").code == "849VCWC8+R9")
    }

    @Test(arguments: [2, 4, 6, 8, 10, 11, 12, 13, 14, 15])
    func everyLengthsCellHoldsItsPlace(length: Int) throws {
        for index in 0..<300 {
            let place = Coordinate(
                latitude: spread(index + length, step: 0.618_033_988_7, in: -89.9...89.9),
                longitude: spread(index + length, step: 0.414_213_562_4, in: -180...179.999))
            let code = try PlusCode(place, length: length)
            #expect(code.code.count == max(length, 8) + 1)
            #expect(!code.isShort)
            let area = try code.area()
            #expect(area.contains(place), "\(code) for \(place): \(area)")
            // Read back, the same code.
            #expect(try PlusCode(code.code) == code)
            // One digit more lies inside the cell of one less.
            if length < 15, length >= 10 || length % 2 == 0 {
                let finer = try PlusCode(place, length: length >= 10 ? length + 1 : length + 2)
                #expect(area.contains(try finer.center()))
            }
        }
    }

    @Test func thePolesAndTheAntimeridianStayInTheWorld() throws {
        let north = try PlusCode(Coordinate(latitude: 90, longitude: 1))
        #expect(try north.area().northEast!.latitude == 90)
        #expect(try north.center().latitude < 90)
        #expect(
            try PlusCode(Coordinate(latitude: 10, longitude: 180))
                == PlusCode(Coordinate(latitude: 10, longitude: -180)))
        #expect(
            try PlusCode(Coordinate(latitude: 10, longitude: 540)) == PlusCode(Coordinate(latitude: 10, longitude: 180))
        )
        #expect(try PlusCode(Coordinate(latitude: -95, longitude: 0)).area().southWest!.latitude == -90)
    }

    @Test func shortCodesAreRecoveredFromAPlaceNearThem() throws {
        let googleplex = try PlusCode("849VCWC8+R9")
        // Within 0.3° (30 % of a 1° cell) of Mountain View's centre four characters go; within
        // 0.015°, six; within 0.00075°, eight.
        let mountainView = Coordinate(latitude: 37.3861, longitude: -122.0839)
        let short = try googleplex.shortened(near: mountainView)
        #expect(short.code == "CWC8+R9")
        #expect(try googleplex.shortened(near: Coordinate(latitude: 37.4189, longitude: -122.0867)).code == "C8+R9")
        #expect(try googleplex.shortened(near: Coordinate(latitude: 37.4222, longitude: -122.0842)).code == "+R9")
        #expect(short.isShort)
        #expect(throws: PlusCode.Failure.notFull) { try short.center() }
        #expect(try short.recovered(near: mountainView) == googleplex)
        // An eight-digit code keeps its last pair.
        let zurich = try PlusCode("8FVC9G8F+")
        #expect(try zurich.shortened(near: zurich.center()).code == "8F+")
        // Far away, nothing can go.
        #expect(try googleplex.shortened(near: Coordinate(latitude: 48.8, longitude: 2.3)) == googleplex)
        // The nearest cell, across the antimeridian and near a pole.
        for index in 0..<300 {
            let place = Coordinate(
                latitude: spread(index, step: 0.618_033_988_7, in: -89...89),
                longitude: spread(index, step: 0.414_213_562_4, in: -180...179.999))
            let code = try PlusCode(place)
            for drop in [2, 4, 6] {
                let shortCode = try PlusCode(String(code.code.dropFirst(drop)))
                // A reference within a third of the dropped cell (20° → 1°, …) on any side.
                let cell = [2: 20.0, 4: 1.0, 6: 0.05][drop]! * 0.3
                var reference = Coordinate(
                    latitude: min(
                        max(place.latitude + spread(index * 3 + drop, step: 0.732_050_807_6, in: -cell...cell), -90), 90
                    ),
                    longitude: place.longitude + spread(index * 3 + drop, step: 0.236_067_977_5, in: -cell...cell))
                if reference.longitude >= 180 { reference.longitude -= 360 }
                if reference.longitude < -180 { reference.longitude += 360 }
                #expect(try shortCode.recovered(near: reference) == code, "\(shortCode) near \(reference)")
            }
        }
    }

    @Test func brokenCodesAreRefusedSayingWhy() {
        let cases: [(String, PlusCode.Failure)] = [
            ("", .empty), ("+", .empty), ("8FVC9G8F6X", .separator), ("8FVC9G8F+6X+", .separator),
            ("8FV+C9G8F", .separator), ("8FVC9G8F9+", .separator), ("8FVC9G8F+6", .lone),
            ("8FVC9G8F+6XA", .character("A", at: 11)), ("8FVC00+", .padding), ("8F000000+2", .padding),
            ("00000000+", .padding), ("8F0C0000+", .padding), ("8FVC+0000", .padding), ("XFVC9G8F+6X", .outOfRange),
            ("8XVC9G8F+6X", .outOfRange),
        ]
        for (text, failure) in cases {
            #expect(throws: failure, "\(text)") { try PlusCode(text) }
        }
        #expect(throws: PlusCode.Failure.length(3)) { try PlusCode(Coordinate(latitude: 0, longitude: 0), length: 3) }
        #expect(throws: PlusCode.Failure.length(1)) { try PlusCode(Coordinate(latitude: 0, longitude: 0), length: 1) }
        #expect(throws: PlusCode.Failure.padding) {
            try PlusCode("8FVC0000+").shortened(near: Coordinate(latitude: 47, longitude: 8))
        }
        #expect(PlusCode.Failure.character("A", at: 11).description.contains("'A' at 12"))
    }
}
