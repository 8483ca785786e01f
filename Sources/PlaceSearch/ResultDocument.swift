import Foundation
import GeoCore

/// The two shapes results are written in: a GeoJSON FeatureCollection (best first, geometry
/// `Point [lon, lat]`), and Nominatim's `jsonv2`, whose field names existing geocoding clients
/// read (`lat`/`lon` and `boundingbox` as strings, `category`/`type`, `place_rank`,
/// `display_name`, `address`), or its older `json` (the same with `class` for `category`, as
/// leaflet-control-geocoder reads it).
public enum ResultFormat: String, Sendable, CaseIterable {
    case geojson
    case jsonv2
    case json

    /// `results` as JSON text (sorted keys, pretty); a reverse lookup's `jsonv2` is one object
    /// (an error object when nothing was found), as Nominatim writes it. Opening hours are
    /// said in `language` (English by default).
    public func document(_ results: [PlaceResult], reverse: Bool = false, language: Language? = nil) -> String {
        let words = Phrasebook(language ?? .en)
        let object: Any
        switch self {
        case .geojson:
            object =
                [
                    "type": "FeatureCollection", "features": results.map { Self.geoJSONFeature($0, words: words) },
                ] as [String: Any]
        case .jsonv2, .json:
            let places = results.map { result in
                var place = Self.nominatimPlace(result, words: words)
                if self == .json { place["class"] = place.removeValue(forKey: "category") }
                return place
            }
            object = reverse ? (places.first ?? ["error": "Unable to geocode"]) : places
        }
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func geoJSONFeature(_ result: PlaceResult, words: Phrasebook) -> [String: Any] {
        var properties: [String: Any] = [
            "place_id": result.id, "name": result.name, "display_name": result.displayName,
            "class": result.featureClass, "kind": result.kind, "category": category(of: result).category,
            "type": category(of: result).type, "address": result.address, "score": result.score, "why": result.why,
            "source": result.source, "attribution": result.attribution, "licence": result.licence,
        ]
        if let osmType = result.osmType, let osmID = result.osmID {
            properties["osm_type"] = osmTypeNames[osmType] ?? osmType
            properties["osm_id"] = osmID
        }
        if let distance = result.distance { properties["distance"] = (distance * 10).rounded() / 10 }
        if let plusCode = plusCode(of: result) { properties["plus_code"] = plusCode }
        if let opening = result.opening { properties["opening"] = Self.opening(opening, words: words) }
        let extra = result.tags.filter { extraKeys.contains($0.key) }
        if !extra.isEmpty { properties["extratags"] = extra }
        var feature: [String: Any] = [
            "type": "Feature", "properties": properties,
            "geometry": ["type": "Point", "coordinates": [result.coordinate.longitude, result.coordinate.latitude]],
        ]
        if let southWest = result.bounds.southWest, let northEast = result.bounds.northEast {
            feature["bbox"] = [southWest.longitude, southWest.latitude, northEast.longitude, northEast.latitude]
        }
        return feature
    }

    static func nominatimPlace(_ result: PlaceResult, words: Phrasebook) -> [String: Any] {
        let (category, type) = category(of: result)
        let rank = placeRank(of: result)
        var place: [String: Any] = [
            "place_id": result.id, "licence": result.attribution + ", " + result.licence,
            "lat": DecimalText.format(result.coordinate.latitude),
            "lon": DecimalText.format(result.coordinate.longitude),
            "category": category, "type": type, "place_rank": rank,
            "importance": (max(0, min(1, result.score / 10)) * 10_000).rounded() / 10_000,
            "addresstype": rank >= 30 ? type : result.kind, "name": result.name, "display_name": result.displayName,
            "address": result.address,
        ]
        if let osmType = result.osmType, let osmID = result.osmID {
            place["osm_type"] = osmTypeNames[osmType] ?? osmType
            place["osm_id"] = osmID
        }
        if let plusCode = plusCode(of: result) { place["plus_code"] = plusCode }
        if let opening = result.opening { place["opening"] = Self.opening(opening, words: words) }
        if let southWest = result.bounds.southWest, let northEast = result.bounds.northEast {
            place["boundingbox"] = [southWest.latitude, northEast.latitude, southWest.longitude, northEast.longitude]
                .map(DecimalText.format)
        }
        return place
    }

    /// A result's plus code as Google's geocoding answers write it: `global_code`, and
    /// `compound_code` (the short code and the city) where it lies in a city.
    static func plusCode(of result: PlaceResult) -> [String: String]? {
        guard let code = result.plusCode else { return nil }
        var plusCode = ["global_code": code.code]
        plusCode["compound_code"] = result.compoundPlusCode
        return plusCode
    }

    /// Whether a place is open: `open_now`, `changes` (when it next closes or opens, on its
    /// clock, ISO 8601; absent for never), `time_zone` and `text` ("Open until 20:00").
    static func opening(_ opening: PlaceOpening, words: Phrasebook) -> [String: Any] {
        var object: [String: Any] = [
            "open_now": opening.status.isOpen, "time_zone": opening.zone.identifier, "text": opening.sentence(words),
        ]
        if opening.status.isUnknown { object["unknown"] = true }
        object["changes"] = opening.changesText
        return object
    }

    static let osmTypeNames = ["n": "node", "w": "way", "r": "relation"]
    static let extraKeys: Set<String> = [
        "opening_hours", "phone", "contact:phone", "website", "contact:website", "email", "wikidata", "wikipedia",
        "cuisine", "operator", "brand",
    ]

    /// OSM's key and value for a result: `amenity`/`pharmacy` from a kind `amenity=pharmacy`,
    /// else the class's key (`highway` for roads, `place`, `railway`, `boundary`).
    public static func category(of result: PlaceResult) -> (category: String, type: String) {
        if let separator = result.kind.firstIndex(of: "=") {
            return (String(result.kind[..<separator]), String(result.kind[result.kind.index(after: separator)...]))
        }
        let keys = [
            "road": "highway", "transit": "public_transport", "railway": "railway", "water": "natural",
            "waterway": "waterway", "park": "leisure", "landuse": "landuse", "landcover": "natural",
            "boundary": "boundary", "place": "place", "address": "place", "route": "route",
        ]
        return (keys[result.featureClass] ?? result.featureClass, result.kind)
    }

    /// Nominatim's place rank: 4 countries … 16 cities, 20 suburbs, 26 streets, 30 addresses and POIs.
    static func placeRank(of result: PlaceResult) -> Int {
        switch (result.featureClass, result.kind) {
        case ("place", "country"): 4
        case ("place", "state"), ("place", "region"): 8
        case ("place", "city"): 16
        case ("place", "town"): 18
        case ("place", "village"): 19
        case ("place", "suburb"), ("place", "borough"): 20
        case ("place", "quarter"), ("place", "neighbourhood"): 22
        case ("place", _): 25
        case ("road", _): 26
        default: 30
        }
    }
}
