/// What a stored feature is, broadly: the class every importer writes, the store indexes and
/// the renderer draws by. Within a class, a feature's `kind` (an open set, mostly OSM tag
/// values such as `primary` or `cafe`) refines it.
public enum FeatureClass: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    // Street data, from OpenStreetMap.
    /// `highway=*` ways (areas when `area=yes`).
    case road
    /// Railway lines: rail, subway, tram, light rail, …
    case railway
    /// Stations, stops, platforms and entrances.
    case transit
    /// Rivers, streams, canals, drains and ditches, as lines.
    case waterway
    /// Water areas: lakes and ponds (also the world's lakes), riverbanks, docks, reservoirs.
    case water
    /// Parks, gardens, playgrounds, nature reserves.
    case park
    /// `landuse=*` areas.
    case landuse
    /// Natural cover: wood, scrub, heath, grassland, beach, sand, wetland, bare rock.
    case landcover
    case building
    /// Indoor rooms, areas, corridors and walls (`indoor=*`), with their levels.
    case indoor
    /// Administrative boundaries.
    case boundary
    /// Named places: OSM `place=*` nodes and the gazetteer's cities and countries.
    case place
    /// Points of interest: amenities, shops, tourism, leisure, offices, crafts, history, health.
    case poi
    /// Addresses without another class.
    case address
    /// Airports and their parts (`aeroway=*`): aerodromes, heliports, aprons and helipads as
    /// areas, runways and taxiways as lines (areas when `area=yes`), gates as points.
    case aeroway
    /// Public transport route relations (bus, tram, subway, train, …), as their lines.
    case route
    /// What the bicycling layer draws (``FeatureClassifier/cyclingKind(_:)``): ways with cycle
    /// tracks or lanes, shared or designated, cycle streets, unpaved trails, ways closed to
    /// bicycles (`no:HIGHWAY`), and cycle route relations (`route-icn`, `route-ncn`, `route-rcn`,
    /// `route-lcn`, `route-mtb`) as their lines, with their refs.
    case cycling
    // World layers, from the basemap.
    /// Land and islands.
    case land
    /// Country and state borders.
    case border

    public static func < (lhs: FeatureClass, rhs: FeatureClass) -> Bool { lhs.rawValue < rhs.rawValue }
}
