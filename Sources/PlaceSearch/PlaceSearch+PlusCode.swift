import Foundation
import GeoCore
import MapData

extension PlaceSearch {
    /// A text that starts with a plus code (``PlusCode``): a full code (`8FVC9G8F+6X`) names
    /// its cell wherever the words after it say; a short one (`CWC8+R9 Mountain View`) is
    /// recovered near the place the words after it name, else near the search's centre. Nil
    /// for any other text.
    ///
    /// - Throws: ``SearchError/notAPlusCode(_:_:)`` for a first word written as a code (only
    ///   code characters, a `+`, four characters or more) that is not one, and
    ///   ``SearchError/shortPlusCodeUnplaced(_:locality:)`` for a short code with nothing to
    ///   recover it near.
    func plusCode(_ query: SearchQuery) throws -> PlaceResult? {
        let words = query.text.split(whereSeparator: \.isWhitespace)
        guard let first = words.first?.trimmingCharacters(in: CharacterSet(charactersIn: ",;")), first.contains("+")
        else { return nil }
        let code: PlusCode
        do { code = try PlusCode(first) } catch {
            if Self.isWrittenAsPlusCode(first) { throw SearchError.notAPlusCode(first, error) }
            return nil
        }
        let locality = words.dropFirst().joined(separator: " ")
            .trimmingCharacters(in: CharacterSet(charactersIn: ", ").union(.whitespaces))
        var why = "plus code \(code)"
        var full = code
        if code.isShort {
            var reference = query.near
            if !locality.isEmpty {
                guard let words = QueryText(locality)?.words,
                    let place = try ranked(words, near: query.near, autocomplete: false).first(where: \.complete)
                else { throw SearchError.shortPlusCodeUnplaced(code.code, locality: locality) }
                reference = place.coordinate
                why += " near \(place.name)"
            }
            guard let reference else { throw SearchError.shortPlusCodeUnplaced(code.code, locality: nil) }
            full = try code.recovered(near: reference)
        }
        let center = try full.center()
        return PlaceResult(
            id: 0, osmType: nil, osmID: nil, name: full.code, featureClass: "plus_code", kind: "plus_code",
            address: [:], coordinate: center, bounds: try full.area(), distance: query.near.map(center.distance(to:)),
            source: "Open Location Code", attribution: "", licence: "Apache-2.0 (the specification)", score: 1,
            why: why, tags: [:])
    }

    /// True for a word of plus-code characters (either case, `0` padding) with a `+` and at
    /// least four characters besides: meant as a code, so refused with the reason when it is
    /// not one rather than searched as a name ("C+" and "5+7" are searched).
    static func isWrittenAsPlusCode(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        let others = bytes.filter { $0 != UInt8(ascii: "+") }
        return bytes.contains(UInt8(ascii: "+")) && others.count >= 4
            && others.allSatisfy { PlusCode.isCodeCharacter($0) || $0 == UInt8(ascii: "0") }
    }
}
