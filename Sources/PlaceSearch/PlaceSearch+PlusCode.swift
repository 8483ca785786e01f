import Foundation
import GeoCore
import MapData

extension PlaceSearch {
    /// A text that starts with a plus code (``PlusCode``): a full code (`8FVC9G8F+6X`) names
    /// its cell wherever the words after it say; a short one (`CWC8+R9 Mountain View`) is
    /// recovered near the place the words after it name, else near the search's centre. Nil
    /// for any other text, and for a short code with neither.
    func plusCode(_ query: SearchQuery) throws -> PlaceResult? {
        let words = query.text.split(whereSeparator: \.isWhitespace)
        guard let first = words.first?.trimmingCharacters(in: CharacterSet(charactersIn: ",;")), first.contains("+"),
            let code = try? PlusCode(first)
        else { return nil }
        let locality = words.dropFirst().joined(separator: " ")
            .trimmingCharacters(in: CharacterSet(charactersIn: ", ").union(.whitespaces))
        var why = "plus code \(code)"
        var full = code
        if code.isShort {
            var reference = query.near
            if !locality.isEmpty, let words = QueryText(locality)?.words,
                let place = try ranked(words, near: query.near, autocomplete: false).first(where: \.complete)
            {
                reference = place.coordinate
                why += " near \(place.name)"
            }
            guard let reference else { return nil }
            full = try code.recovered(near: reference)
        }
        let center = try full.center()
        return PlaceResult(
            id: 0, osmType: nil, osmID: nil, name: full.code, featureClass: "plus_code", kind: "plus_code",
            address: [:], coordinate: center, bounds: try full.area(), distance: query.near.map(center.distance(to:)),
            source: "Open Location Code", attribution: "", licence: "Apache-2.0 (the specification)", score: 1,
            why: why, tags: [:])
    }
}
