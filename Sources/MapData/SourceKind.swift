/// Where a data set in the store came from, which says how it is drawn and credited.
public enum SourceKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// An OpenStreetMap extract imported as a region (street data).
    case osm
    /// The world basemap: coastlines, lakes, borders, rivers, and the world rasters.
    case basemap
    /// The gazetteer: cities and countries with their populations.
    case gazetteer
    /// A GTFS transit feed: its stations, stops and route lines.
    case gtfs
    /// A digital elevation model: heights (``Elevation``).
    case elevation
    /// An aerial image (an orthophoto): the satellite and hybrid maps' colours (``Imagery``).
    case imagery
}
