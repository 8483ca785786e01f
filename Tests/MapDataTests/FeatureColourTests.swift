import GeoCore
import MapData
import Testing

@Suite struct FeatureColourTests {
    @Test(arguments: [
        ("#FF6319", "#ff6319"), ("CF3366", "#cf3366"), ("#0af", "#00aaff"), ("red", "#ff0000"), (" Orange ", "#ffa500"),
        ("grey", "#808080"),
    ])
    func writtenColours(written: String, stored: String) {
        #expect(FeatureColour.normalized(written) == stored)
    }

    @Test(arguments: ["", "#12345", "sky blue-ish", "#GGGGGG", "0x123456", "#1234567"])
    func notColours(written: String) {
        #expect(FeatureColour.normalized(written) == nil)
    }

    @Test func storedColoursReadBack() {
        #expect(FeatureColour.color(stored: "#cf3366") == Color(hex: 0xCF3366))
        #expect(FeatureColour.color(stored: "cf3366") == nil)
    }
}
