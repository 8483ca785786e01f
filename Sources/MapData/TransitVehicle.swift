/// The vehicle a GTFS `route_type` runs, basic (0–12) and extended (100–1799): the one reading
/// of route types, for the map's stops and lines and for the itineraries' words.
public enum TransitVehicle: String, Sendable, CaseIterable {
    case tram, subway, train, bus, ferry, trolleybus, monorail, funicular
    /// Gondolas, cable cars and chair lifts.
    case aerialLift = "aerial_lift"

    /// The vehicle of `routeType`; nil for a type no vehicle here runs (a taxi, a type not in
    /// the specification).
    public init?(routeType: Int) {
        switch routeType {
        case 0, 5, 900...999: self = .tram  // Light rail, street cars and cable trams.
        case 12, 405: self = .monorail
        case 1, 400...499: self = .subway  // Metro and urban railways.
        case 2, 100...199: self = .train
        case 3, 200...299, 700...799: self = .bus  // Buses and coaches.
        case 4, 1000...1099, 1200...1299: self = .ferry  // Water transport and ferries.
        case 11, 800...899: self = .trolleybus
        case 7, 1400...1499: self = .funicular
        case 6, 1300...1399: self = .aerialLift
        default: return nil
        }
    }

    /// The transit layer's kind of line it is drawn as (`train`, `subway`, `tram`, `monorail`,
    /// `ferry`, `bus`, `trolleybus`: OSM's `route=*` values); nil for an aerial lift, which the
    /// layer does not draw.
    public var routeValue: String? {
        switch self {
        case .tram: "tram"
        case .subway: "subway"
        case .train, .funicular: "train"
        case .bus: "bus"
        case .ferry: "ferry"
        case .trolleybus: "trolleybus"
        case .monorail: "monorail"
        case .aerialLift: nil
        }
    }

    /// The phrasebook's word for it in an itinerary ("take the tram 1").
    public var wordKey: String {
        switch self {
        case .tram: "transit type tram"
        case .subway: "transit type subway"
        case .train: "transit type train"
        case .bus: "transit type bus"
        case .ferry: "transit type ferry"
        case .trolleybus: "transit type trolleybus"
        case .monorail: "transit type monorail"
        case .funicular: "transit type funicular"
        case .aerialLift: "transit type aerial lift"
        }
    }
}
