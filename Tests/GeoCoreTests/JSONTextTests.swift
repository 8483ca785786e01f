import Foundation
import GeoCore
import Testing

/// The JSON documents are written as Foundation reads them back, value for value.
@Suite struct JSONTextTests {
    @Test func aDocumentReadsBackAsItWasWritten() throws {
        let document: [String: Any] = [
            "code": "Ok", "distance": 1234.5, "duration": 100.0, "count": 3, "big": Int64(1) << 40,
            "ok": true, "no": false, "empty": [Any](), "nothing": [String: Any](), "nan": Double.nan,
            "text": "quote \" backslash \\ tab \t newline \n bell \u{7} slash / Hindi हिन्दी «é»",
            "routes": [["legs": [1, 2.25, -0.000001], "name": "Mannerheimintie"]],
        ]
        let text = JSONText.pretty(document)
        let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(read["code"] as? String == "Ok" && read["distance"] as? Double == 1234.5)
        #expect(read["duration"] as? Int == 100 && read["count"] as? Int == 3 && read["big"] as? Int == 1 << 40)
        #expect(read["ok"] as? Bool == true && read["no"] as? Bool == false)
        #expect((read["empty"] as? [Any])?.isEmpty == true && (read["nothing"] as? [String: Any])?.isEmpty == true)
        #expect(read["nan"] is NSNull)
        #expect(read["text"] as? String == document["text"] as? String)
        let legs = ((read["routes"] as? [[String: Any]])?.first?["legs"] as? [Any]) ?? []
        #expect(legs.count == 3 && (legs[1] as? Double) == 2.25 && (legs[2] as? Double) == -0.000001)
        // Printed as Foundation prints it: keys sorted, two spaces a level, " : ".
        #expect(JSONText.pretty(["b": 1, "a": ["x"]]) == "{\n  \"a\" : [\n    \"x\"\n  ],\n  \"b\" : 1\n}")
    }
}
