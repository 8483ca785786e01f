import Foundation
import GeoCore
import MapCore
import MapRenderer
import MapsURL
import PlaceSearch
import Routing

/// The values of the options every front end gives by name, read once: the server passes its
/// query's name/value pairs, the CLI maps its flags to the same names
/// (``AnswerOptions/parameterNames``), and each kind of value has one set of limits and one
/// error text, naming the parameter at fault.
public enum Parameter {
    /// The language `text` names: `en`, `es`, `it` or `hi`, alone or as a tag (`es-419`,
    /// `it_IT`, `hi-IN`).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming `name` for any other.
    public static func language(_ text: String, name: String) throws(AppError) -> Language {
        guard let language = Language(tag: text) else {
            throw .invalidOption(name, message: "must be en, es, it or hi, not '\(text.prefix(40))'")
        }
        return language
    }

    /// A decimal number within `range`.
    public static func number(_ text: String, name: String, in range: ClosedRange<Double>) throws(AppError) -> Double {
        guard let value = DecimalText.parse(Substring(text), maxIntegerDigits: 7), range.contains(value) else {
            throw .invalidOption(
                name,
                message:
                    "must be a number from \(DecimalText.format(range.lowerBound)) to \(DecimalText.format(range.upperBound)), not '\(text.prefix(40))'"
            )
        }
        return value
    }

    /// Decimal numbers separated by commas, 1 to 100 of them (each as ``number(_:name:in:)``
    /// reads one, without a range: the caller checks what they stand for).
    public static func numbers(_ text: String, name: String) throws(AppError) -> [Double] {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map {
            DecimalText.parse($0.trimmingCharacters(in: .whitespaces), maxIntegerDigits: 7)
        }
        guard (1...100).contains(values.count), values.allSatisfy({ $0 != nil }) else {
            throw .invalidOption(
                name, message: "must be 1 to 100 decimal numbers separated by commas, not '\(text.prefix(60))'")
        }
        return values.compactMap { $0 }
    }

    /// The OSRM options only the route service takes here: `exclude` (kinds of road kept off).
    /// A table, trip, match or nearest road that ignored one would answer with the roads it was
    /// asked to keep off.
    public static let routeOnlyOptions = ["exclude"]

    /// Refuses an option of ``routeOnlyOptions`` among `names` given to OSRM's `service`
    /// (`table`, `trip`, …; `route` takes them).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the option.
    public static func refuseRouteOnly(_ names: [String], service: String) throws(AppError) {
        if service != "route", let name = names.first(where: routeOnlyOptions.contains) {
            throw .invalidOption(name, message: "is taken by routes only; \(service) uses every road")
        }
    }

    /// `text` when it is one of `values` (`true`/`false`, `split`/`ignore`, …).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming `name` and what it takes.
    public static func choice(_ text: String, name: String, among values: [String]) throws(AppError) -> String {
        guard values.contains(text) else {
            throw .invalidOption(name, message: "must be \(values.joined(separator: " or ")), not '\(text.prefix(40))'")
        }
        return text
    }

    /// Reads OSRM's `bearings` (`degrees,tolerance` or nothing a point), `approaches` (`curb`,
    /// `opposite`, `unrestricted` or nothing a point), `radiuses` (metres, `unlimited` or
    /// nothing a point) or `hints` (a waypoint's `hint` or nothing a point: one that is not
    /// this point's on this data, another server's, is passed over as OSRM passes over a stale
    /// one), entries separated by `;`, into each point's part of `approaches`; false for
    /// another name (left to the caller).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the option for a value out of
    ///   range, or a list of another length than the other option's.
    public static func readApproaches(_ name: String, _ value: String, into approaches: inout [Approach]?)
        throws(AppError) -> Bool
    {
        let entries = value.split(separator: ";", omittingEmptySubsequences: false)
        func meet<Part>(_ parts: [Part], _ set: (inout Approach, Part) -> Void) throws(AppError) {
            var met = approaches ?? Array(repeating: .any, count: parts.count)
            guard met.count == parts.count else {
                throw .invalidOption(
                    name, message: "gives \(parts.count) entries where the other point options give \(met.count)")
            }
            for index in parts.indices { set(&met[index], parts[index]) }
            approaches = met
        }
        switch name {
        case "bearings":
            let bearings = try entries.map { entry throws(AppError) -> (Double, Double)? in
                guard !entry.isEmpty else { return nil }
                let pair = entry.split(separator: ",", omittingEmptySubsequences: false)
                guard pair.count == 2 else {
                    throw .invalidOption(
                        name, message: "takes degrees,tolerance for each point, not '\(entry.prefix(40))'")
                }
                return (
                    try number(String(pair[0]), name: name, in: 0...360),
                    try number(String(pair[1]), name: name, in: 0...180)
                )
            }
            try meet(bearings) { $0.bearing = $1 }
        case "approaches":
            let names = Approach.Side.allCases.map(\.rawValue)
            let sides = try entries.map { entry throws(AppError) -> Approach.Side in
                entry.isEmpty ? .either : Approach.Side(rawValue: try choice(String(entry), name: name, among: names))!
            }
            try meet(sides) { $0.side = $1 }
        case "radiuses":
            let radiuses = try entries.map { entry throws(AppError) -> Double? in
                entry.isEmpty || entry == "unlimited"
                    ? nil : try number(String(entry), name: name, in: 0...1_000_000_000)
            }
            try meet(radiuses) { $0.radius = $1 }
        case "hints":
            try meet(entries.map { $0.isEmpty ? nil : String($0.prefix(1_000)) }) { $0.hint = $1 }
        default: return false
        }
        return true
    }

    /// OSRM's `snapping`: `any` (true: a point may meet any road of the mode's, a ferry or a
    /// private service road too) or `default` (false: never one of those, as a route is
    /// never started or ended on them).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming `name` for another value.
    public static func snapping(_ text: String, name: String) throws(AppError) -> Bool {
        try choice(text, name: name, among: ["default", "any"]) == "any"
    }

    /// OSRM's `continue_straight`: `true`, `false`, or `default` (nil: as the mode goes).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming `name` for another value.
    public static func continueStraight(_ text: String, name: String) throws(AppError) -> Bool? {
        let value = try choice(text, name: name, among: ["default", "true", "false"])
        return value == "default" ? nil : value == "true"
    }

    /// The refusal of point options (``readApproaches(_:_:into:)``'s) that do not give one
    /// entry for each of `points` points, naming the first of them that says something
    /// (`'approaches' gives 1 entry for 2 points: give one a point`); nil when they fit, or
    /// none were given.
    public static func approachesMisfit(_ approaches: [Approach]?, points: Int) -> AppError? {
        guard let approaches, approaches.count != points else { return nil }
        let name =
            approaches.contains { $0.bearing != nil }
            ? "bearings"
            : approaches.contains { $0.radius != nil }
                ? "radiuses" : approaches.contains { $0.hint != nil } ? "hints" : "approaches"
        let entries = approaches.count == 1 ? "1 entry" : "\(approaches.count) entries"
        let given = points == 1 ? "the point" : "\(points) points"
        return .invalidOption(name, message: "gives \(entries) for \(given): give one a point")
    }

    /// A way of travel by road by name: driving, walking, bicycling or two-wheeler.
    public static func roadMode(_ text: String, name: String) throws(AppError) -> TravelProfile.Mode {
        guard let travel = TravelMode(rawValue: text), let mode = DirectionsQuery.profile(for: travel) else {
            throw .invalidOption(
                name, message: "must be driving, walking, bicycling or two-wheeler, not '\(text.prefix(40))'")
        }
        return mode
    }

    /// A whole number within `range`.
    public static func count(_ text: String, name: String, in range: ClosedRange<Int>) throws(AppError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw .invalidOption(
                name,
                message:
                    "must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text.prefix(40))'")
        }
        return value
    }

    /// OSRM's `waypoints`: point indices separated by `;`, each a whole number below `points`.
    public static func waypoints(_ text: String, name: String, below points: Int) throws(AppError) -> [Int] {
        try text.split(separator: ";", omittingEmptySubsequences: false).map { entry throws(AppError) in
            try count(String(entry), name: name, in: 0...(points - 1))
        }
    }

    /// Whether `stops` (OSRM's `waypoints`) can be where legs through `points` points stop: the
    /// first point and the last among them, in ascending order.
    public static func areLegEnds(_ stops: [Int], of points: Int) -> Bool {
        stops.count >= 2 && stops.first == 0 && stops.last == points - 1
            && zip(stops, stops.dropFirst()).allSatisfy { $0 < $1 }
    }

    /// `LAT,LNG` in decimal degrees, within range.
    public static func coordinate(_ text: String, name: String) throws(AppError) -> Coordinate {
        guard let coordinate = Coordinate(parsing: text), coordinate.isValid else {
            throw .invalidOption(name, message: "must be LAT,LNG in decimal degrees, not '\(text.prefix(40))'")
        }
        return coordinate
    }

    /// `light` or `dark`.
    public static func scheme(_ text: String, name: String) throws(AppError) -> UserInterfaceStyle {
        guard let style = UserInterfaceStyle(rawValue: text), style != .unspecified else {
            throw .invalidOption(name, message: "must be light or dark, not '\(text.prefix(40))'")
        }
        return style
    }

    /// A map type by its name: normal, hybrid, satellite, terrain or none.
    public static func mapType(_ text: String, name: String) throws(AppError) -> MapType {
        guard let type = MapType(rawValue: text) else {
            throw .invalidOption(
                name, message: "must be normal, hybrid, satellite, terrain or none, not '\(text.prefix(40))'")
        }
        return type
    }

    /// A text to search for: at least one word, at most ``QueryText/maxLength`` characters, as
    /// Nominatim's `/search` takes it.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming `name` for an empty, blank or
    ///   too long text.
    public static func searchText(_ text: String, name: String) throws(AppError) -> String {
        guard text.count <= QueryText.maxLength else {
            throw .invalidOption(name, message: SearchError.queryTooLong(text.count).description)
        }
        guard QueryText.isSearchable(text) else {
            throw .invalidOption(name, message: SearchError.emptyQuery.description)
        }
        return text
    }

    /// The layers a comma-separated list names: traffic, transit, bicycling.
    public static func layers(_ text: String, name: String) throws(AppError) -> Set<MapLayer> {
        var layers: Set<MapLayer> = []
        for part in text.split(separator: ",") {
            guard let layer = MapLayer(rawValue: part.trimmingCharacters(in: .whitespaces)) else {
                throw .invalidOption(name, message: "may list traffic, transit and bicycling, not '\(part)'")
            }
            layers.insert(layer)
        }
        return layers
    }
}

extension AnswerOptions {
    /// The names of the options, as the server's `/api/answer` takes them and the CLI's flags
    /// map to: `size` (`WIDTHxHEIGHT` points, each ``sizeLimits``), `padding` (`TOP,LEFT,BOTTOM,RIGHT`
    /// points, each 0 to 2,048, leaving at least 64 × 64 points), `scheme` (light, dark),
    /// `maptype` (normal, hybrid, satellite, terrain, none), `layers` (traffic, transit,
    /// bicycling, comma-separated), `mylocation` (`LAT,LNG`), `accuracy` (metres, 0 to
    /// 1,000,000), `heading`, `bearing` (degrees, -360 to 360), `tilt` (degrees, 0 to 90),
    /// `level` (a floor's name), `hl` (en, es, it, hi or a tag of one), `step` (the navigation
    /// step shown, 0 to 10,000), `isochrone` (up to 4 minutes, comma-separated, each 1 to 120)
    /// and `isochronemode` (driving, walking, bicycling, two-wheeler), `departure_time` (when
    /// a transit journey leaves: `now` or POSIX seconds, as Google's Directions API takes it).
    public static let parameterNames = [
        "size", "padding", "scheme", "maptype", "layers", "mylocation", "accuracy", "heading", "bearing", "tilt",
        "level", "hl", "step", "isochrone", "isochronemode", "departure_time",
    ]

    /// The view's sides in points: 64 to 4,096 each.
    public static let sizeLimits = 64.0...4_096.0

    /// The options `parameters` give by name (``parameterNames``; others are left to the
    /// caller), the defaults for the rest; of a name given twice, the last.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the parameter at fault and what
    ///   it takes.
    public init(parameters: [(name: String, value: String)]) throws(AppError) {
        self.init()
        for (name, value) in parameters {
            switch name {
            case "size": size = try Self.size(value, name: name)
            case "padding": padding = try Self.padding(value, name: name)
            case "scheme": style = try Parameter.scheme(value, name: name)
            case "maptype": mapType = try Parameter.mapType(value, name: name)
            case "layers": layers = try Parameter.layers(value, name: name)
            case "mylocation": myLocation = try Parameter.coordinate(value, name: name)
            case "accuracy": accuracy = try Parameter.number(value, name: name, in: 0...1_000_000)
            case "heading": heading = try Parameter.number(value, name: name, in: -360...360)
            case "bearing": bearing = try Parameter.number(value, name: name, in: -360...360)
            case "tilt": tilt = try Parameter.number(value, name: name, in: 0...90)
            case "level": level = value
            case "hl": language = try Parameter.language(value, name: name)
            case "step": navigationStep = try Parameter.count(value, name: name, in: 0...10_000)
            case "isochrone": isochrone = try Self.minutes(value, name: name)
            case "isochronemode": isochroneMode = try Parameter.roadMode(value, name: name)
            case "departure_time":
                guard value != "now" else {
                    departure = Date()
                    continue
                }
                let seconds = try Parameter.count(value, name: name, in: 0...32_503_680_000)
                departure = Date(timeIntervalSince1970: Double(seconds))
            default: continue
            }
        }
        guard padding.left + padding.right <= size.width - Self.sizeLimits.lowerBound,
            padding.top + padding.bottom <= size.height - Self.sizeLimits.lowerBound
        else {
            throw .invalidOption(
                "padding",
                message:
                    "must leave at least \(Int(Self.sizeLimits.lowerBound)) × \(Int(Self.sizeLimits.lowerBound)) points of the \(Int(size.width))x\(Int(size.height)) view"
            )
        }
    }

    /// Up to ``MapsApp/maxContours`` minutes, comma-separated, each 1 to an isochrone's most
    /// (``Routing/Router/maxIsochroneSeconds``: 120 minutes).
    static func minutes(_ text: String, name: String) throws(AppError) -> [Double] {
        let most = Router.maxIsochroneSeconds / 60
        let values = try? Parameter.numbers(text, name: name)
        guard let values, values.count <= MapsApp.maxContours, values.allSatisfy({ (1...most).contains($0) }) else {
            throw .invalidOption(
                name,
                message:
                    "must be 1 to \(MapsApp.maxContours) minutes, comma-separated, each 1 to \(Int(most)), not '\(text.prefix(60))'"
            )
        }
        return values
    }

    /// The most padding an edge takes, points.
    public static let paddingLimit = 2_048.0

    /// `TOP,LEFT,BOTTOM,RIGHT` in points, each 0 to ``paddingLimit``.
    static func padding(_ text: String, name: String) throws(AppError) -> EdgeInsets {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            DecimalText.parse($0, maxIntegerDigits: 5)
        }
        guard parts.count == 4, let top = parts[0], let left = parts[1], let bottom = parts[2], let right = parts[3],
            [top, left, bottom, right].allSatisfy({ (0...paddingLimit).contains($0) })
        else {
            throw .invalidOption(
                name,
                message:
                    "must be TOP,LEFT,BOTTOM,RIGHT in points, each 0 to \(Int(paddingLimit)), like 0,48,24,0, not '\(text.prefix(40))'"
            )
        }
        return EdgeInsets(top: top, left: left, bottom: bottom, right: right)
    }

    /// `WIDTHxHEIGHT` in points, each within ``sizeLimits``.
    static func size(_ text: String, name: String) throws(AppError) -> Size {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = DecimalText.parse(parts[0], maxIntegerDigits: 5),
            let height = DecimalText.parse(parts[1], maxIntegerDigits: 5), sizeLimits.contains(width),
            sizeLimits.contains(height)
        else {
            throw .invalidOption(
                name,
                message:
                    "must be WIDTHxHEIGHT in points, each \(Int(sizeLimits.lowerBound)) to \(Int(sizeLimits.upperBound)), like 800x600, not '\(text.prefix(40))'"
            )
        }
        return Size(width: width, height: height)
    }
}

extension TileStyle {
    /// The names of a tile style's options, as the server's tile paths take them (with the
    /// map type from the path) and `openmaps tiles` maps its flags to: `maptype` (normal,
    /// hybrid, satellite, terrain, none), `scheme` (light, dark), `layers` (traffic, transit,
    /// bicycling, comma-separated), `hl` (en, es, it, hi or a tag of one; local names without),
    /// `scale` (1 or 2).
    public static let parameterNames = ["maptype"] + queryParameterNames + ["scale"]

    /// The names a tile URL's query carries (its path carries the map type and the scale).
    public static let queryParameterNames = ["scheme", "layers", "hl"]

    /// The style `parameters` give by name (``parameterNames``; others are left to the caller);
    /// of a name given twice, the last.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming the parameter at fault.
    public init(parameters: [(name: String, value: String)]) throws(AppError) {
        self.init()
        for (name, value) in parameters {
            switch name {
            case "maptype": mapType = try Parameter.mapType(value, name: name)
            case "scheme": style = try Parameter.scheme(value, name: name)
            case "layers":
                let layers = try Parameter.layers(value, name: name)
                traffic = layers.contains(.traffic)
                transit = layers.contains(.transit)
                bicycling = layers.contains(.bicycling)
            case "hl": language = try Parameter.language(value, name: name)
            case "scale":
                scale = try Parameter.count(
                    value, name: name, in: TileStyle.scales.lowerBound...TileStyle.scales.upperBound)
            default: continue
            }
        }
    }
}

extension Language {
    /// The language a list of tags in `Accept-Language`'s form names first of those OpenMaps
    /// speaks (`fi, es-ES;q=0.8` → Spanish), weights left aside; nil when none is one of them.
    public static func firstSpoken(in list: String) -> Language? {
        for part in list.split(separator: ",") {
            guard let tag = part.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) else { continue }
            if let language = Language(tag: tag) { return language }
        }
        return nil
    }

    /// The language `hl` names (en, es, it, hi, or a tag of one).
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` naming `hl` for another.
    public static func hl(_ text: String) throws(AppError) -> Language { try Parameter.language(text, name: "hl") }
}
