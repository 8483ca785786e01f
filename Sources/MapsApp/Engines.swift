import CairoKit
import GeoCore
import MapCore
import MapRenderer

/// Finds places by the text a person typed: a search's `q`, a directions end.
///
/// The maps app asks through this protocol, so it is tested with small fakes and wired to the
/// store's place search (`PlaceSearch`, a ``Geocoding``) by the front ends. A server calls it
/// from several threads at once.
public protocol PlaceFinding: Sendable {
    /// Places for `text`, best first, at most `limit`.
    ///
    /// - Parameters:
    ///   - near: the viewport centre the search is biased towards (nearer results first when
    ///     they match as well), or nil to rank by match and importance alone.
    ///   - names: the language of the names given back where the data has them (`name:es`);
    ///     nil for the names as the data writes them locally.
    ///   - typing: true while the text is being typed (its last word may be the beginning of
    ///     one); false for a text given whole (a link's, a search entered).
    func places(matching text: String, near: Coordinate?, limit: Int, names: Language?, typing: Bool) throws
        -> [FoundPlace]
}

extension PlaceFinding {
    /// Places for a text given whole (``places(matching:near:limit:names:typing:)``).
    public func places(matching text: String, near: Coordinate?, limit: Int, names: Language?) throws -> [FoundPlace] {
        try places(matching: text, near: near, limit: limit, names: names, typing: false)
    }
}

/// Draws map views and says what the data shows there. A server calls it from several threads
/// at once.
public protocol MapDrawing: Sendable {
    /// True when a traffic feed was given, so the traffic layer has congestion to colour.
    var hasTrafficFeed: Bool { get }

    /// The floors of what is in `view`, as the floor picker lists them, or nil when nothing in
    /// view is on a floor.
    func indoorBuilding(in view: MapView) throws -> IndoorBuilding?

    /// What the data holds where `view` looks: the sources to credit and, at street zooms
    /// outside every imported region, the notice that says so.
    ///
    /// - Parameter language: the language of the notice; nil for English.
    func coverage(of view: MapView, language: Language?) throws -> MapCoverage

    /// Draws `view`.
    ///
    /// - Parameters:
    ///   - scale: pixels per point for PNG, 1...8.
    ///   - language: the language of the map's words and, where the data has them, of place
    ///     names; nil for English words and local names.
    func draw(_ view: MapView, format: PictureFormat, scale: Double, language: Language?) throws -> DrawnMap
}

/// Renders XYZ tiles of an area into an MBTiles or PMTiles file, PNG or vector, and knows which
/// areas hold street data.
public protocol TileRendering: Sendable {
    /// The bounds of every imported street-data region.
    func regions() throws -> [CoordinateBounds]

    /// The credit lines of the imported rasters a map type's tiles draw: the aerial images
    /// for satellite and hybrid, the elevation models for terrain, none for the others.
    func rasterCredits(for mapType: MapType) throws -> [String]

    /// Renders `plan` into `output`, calling `progress` with the fraction done (0...1).
    func render(_ plan: TilePlan, into output: String, progress: (Double) -> Void) throws -> TileSummary

    /// The PNG bytes of every tile of `block` in `style`. Called from several threads at once
    /// by a server.
    func render(_ block: Metatile, style: TileStyle) throws -> [RenderedTile]

    /// The gzip-compressed Mapbox Vector Tile of `tile` (zoom 0...14); empty when nothing is in
    /// it. Called from several threads at once by a server.
    func vectorTile(_ tile: TileID) throws -> [UInt8]

    /// The gzip-compressed traffic tile of `tile` (``TrafficTiles``): the congestion of the
    /// roads the traffic feed lists; empty when none is in it or there is no feed.
    func trafficTile(_ tile: TileID) throws -> [UInt8]
}

extension TileRendering {
    /// No traffic feed: every traffic tile is empty.
    public func trafficTile(_ tile: TileID) throws -> [UInt8] { [] }
}

/// What the data holds where a view looks.
public struct MapCoverage: Sendable, Equatable, Codable {
    /// The credits the picture shows, e.g. "© OpenStreetMap contributors".
    public var credits: [String]
    /// The imported street-data regions in view, by name.
    public var regions: [String]
    /// What the picture says about missing data, or nil.
    public var notice: String?

    /// What a view covers: these credits and regions, and a notice about missing data or nil.
    public init(credits: [String], regions: [String], notice: String?) {
        self.credits = credits
        self.regions = regions
        self.notice = notice
    }
}

/// A drawn map and what was drawn.
public struct DrawnMap {
    /// The picture, ready to write or encode.
    public var canvas: Canvas
    /// Features drawn.
    public var features: Int
    /// Labels placed.
    public var labels: Int

    /// A drawn picture with the counts of features drawn and labels placed.
    public init(canvas: Canvas, features: Int, labels: Int) {
        self.canvas = canvas
        self.features = features
        self.labels = labels
    }
}
