import Foundation
import GeoCore
import MapData

/// ``PlaceFinding`` over a store's name index: the names of every imported feature (all their
/// languages and alternative names) and the gazetteer's cities and countries.
///
/// Ranking: how well the name matches (the whole name, its beginning, or words in it), the
/// place's importance (population; places before other features), and, with a search centre,
/// the distance from it, so that "Santa Cruz" near San Francisco is the Californian city and
/// "Paris" alone the French capital. A text none of whose names match whole is read as an
/// address from its broadest comma-separated part to its narrowest ("Tokyo Tower, Tokyo,
/// Japan"): each part must lie within ``partRadius`` of the broader one found before it, and
/// the narrowest part found is the answer, marked as the closest match.
public struct StorePlaceFinder: PlaceFinding {
    public let store: MapStore
    /// Candidates read from the index for each text: 50.
    static let candidateCount = 50
    /// How near two features of one name are the same place: 150 m.
    public static let samePlaceRadius = 150.0
    /// How far a narrower part of an address may lie from the broader one: 100 km.
    public static let partRadius = 100_000.0

    public init(store: MapStore) { self.store = store }

    public func places(matching text: String, near: Coordinate?, limit: Int) throws -> [FoundPlace] {
        let whole = try ranked(text, near: near)
        if !whole.isEmpty { return Array(whole.prefix(limit)) }
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            Self.isName($0)
        }
        var broader: FoundPlace?
        var narrowest: (part: String, places: [FoundPlace])?
        for part in parts.reversed() {
            // A country's point is its capital: it ranks nothing and bounds nothing.
            let anchor = broader?.kind == "country" ? nil : broader?.position
            var found = try ranked(part, near: anchor ?? near)
            if found.isEmpty, let street = Self.withoutNumbers(part) {
                found = try ranked(street, near: anchor ?? near)
            }
            if let anchor { found = found.filter { $0.position.distance(to: anchor) <= Self.partRadius } }
            guard let best = found.first else { continue }
            narrowest = (part, found)
            broader = best
        }
        guard let narrowest else { return [] }
        return narrowest.places.prefix(limit).map {
            var place = $0
            place.why = "\(FoundPlace.partialMatchPrefix): '\(narrowest.part)' (\(place.name))"
            return place
        }
    }

    /// The features whose names hold every word of `text`, best first.
    private func ranked(_ text: String, near: Coordinate?) throws -> [FoundPlace] {
        let wanted = text.lowercased()
        let sources = Dictionary(
            try store.sources(counting: false).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let scored = try store.features(named: text, limit: Self.candidateCount).compactMap {
            feature -> (FoundPlace, Double)? in
            guard let position = feature.geometry.anchor else { return nil }
            let name = feature.name ?? text
            let names = [name.lowercased()] + (try store.names(ofFeature: feature.id)).map { $0.lowercased() }
            // Match: a whole name (any of its names, as a country's code "USA") 2, a name's
            // beginning 1, words inside a name 0.
            var score =
                names.contains(wanted) ? 2.0 : names.contains(where: { $0.hasPrefix(wanted) }) ? 1.0 : 0.0
            // Importance: population on a log scale (a city of a million adds about 0.86), and
            // places before streets and shops.
            score += log10(Double(max(feature.population ?? 0, 0)) + 1) / 7
            if feature.featureClass == .place { score += 0.25 }
            var distance: Double?
            if let near {
                let metres = position.distance(to: near)
                distance = metres
                // Nearer first: 1 km costs 0, 100 km 1, 10,000 km 2.
                score -= log10(1 + metres / 1000) / 2
            }
            let place = FoundPlace(
                name: name, position: position, kind: feature.kind, why: "name matches '\(text)'",
                distance: distance, source: sources[MapStore.sourceID(ofFeature: feature.id)])
            return (place, score)
        }
        // One place is often mapped twice (a shop and its building): a name already found
        // within ``samePlaceRadius`` of a better match is that place again.
        var kept: [FoundPlace] = []
        for (place, _) in scored.sorted(by: { $0.1 > $1.1 }) {
            let isRepeat = kept.contains {
                $0.name == place.name && $0.position.distance(to: place.position) <= Self.samePlaceRadius
            }
            if !isRepeat { kept.append(place) }
        }
        return kept
    }

    /// True for a part worth looking up: it has a word of three letters or more (not a bare
    /// postcode or a two-letter state code).
    private static func isName(_ part: String) -> Bool {
        part.split(separator: " ").contains { word in word.filter(\.isLetter).count >= 3 }
    }

    /// The part without its house numbers and postcodes ("Mannerheimintie 5" gives
    /// "Mannerheimintie"), or nil when nothing changes or nothing is left.
    private static func withoutNumbers(_ part: String) -> String? {
        let words = part.split(separator: " ").filter { !$0.contains(where: \.isNumber) }
        let street = words.joined(separator: " ")
        return street.isEmpty || street == part ? nil : street
    }
}
