import GeoCore
import Testing

@Suite struct DistanceTextTests {
    @Test(arguments: [
        (0.0, "0 m"), (4.0, "0 m"), (362.0, "360 m"), (994.0, "990 m"), (996.0, "1 km"), (12_400.0, "12 km"),
        (1_813_499.0, "1,813 km"), (7_822_000.0, "7,822 km"), (20_015_000.0, "20,015 km"),
    ])
    func rounded(metres: Double, text: String) {
        #expect(DistanceText.rounded(metres) == text)
    }
}
