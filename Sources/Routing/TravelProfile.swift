import Foundation
import MapData

/// How one way of travel uses the road network, in one place: which ways and directions it may
/// take, how fast, and what it may not pass.
///
/// - **Driving** (and **two-wheeler**, with motorcycle access): motorways to service roads;
///   speeds by road class in km/h (motorway 90, trunk 80, primary 65, secondary 55, tertiary
///   40, unclassified and residential 25, service 15, living street 10; links about half),
///   `maxspeed` × 0.8 where tagged; access from `motorcar`/`motorcycle`, `motor_vehicle`,
///   `vehicle`, `access`; `oneway` (`-1` backwards), roundabouts and motorways one way.
/// - **Walking**: every road but motorways and trunks (unless `foot` allows), paths,
///   footways, steps, pedestrian areas, at 5 km/h; `foot`, `access`; one way only by
///   `oneway:foot`.
/// - **Bicycling**: roads, cycleways, paths and tracks at 15 km/h, at most 10 km/h on paving
///   stones, compacted or fine gravel, 8 on sett, gravel or dirt, 6 on cobbles, 4 in mud; footways and pedestrian areas pushed at 4 km/h unless
///   `bicycle` allows riding; steps carried at 2 km/h; no motorways or trunks; `oneway` unless
///   `oneway:bicycle=no` or a `cycleway=opposite*`.
/// - Ferries (`route=ferry`) for every mode, their `duration` when tagged, else 5 km/h.
/// - `no`, `private`, `agricultural`, `forestry`, `delivery` and `customers` close a way (and
///   `destination` too, but for cars it only costs more); barriers close a node to cars and
///   two-wheelers unless they are gates, lift gates, cattle grids, toll booths or border
///   controls; traffic signals cost cars 2 s.
public struct TravelProfile: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        case driving, walking, bicycling
        case twoWheeler = "two-wheeler"
    }

    public let mode: Mode

    public init(_ mode: Mode) { self.mode = mode }

    /// The access keys that decide, most specific first.
    var accessKeys: [String] {
        switch mode {
        case .driving: ["motorcar", "motor_vehicle", "vehicle", "access"]
        case .twoWheeler: ["motorcycle", "motor_vehicle", "vehicle", "access"]
        case .bicycling: ["bicycle", "vehicle", "access"]
        case .walking: ["foot", "access"]
        }
    }

    static let closed: Set<String> = [
        "no", "private", "agricultural", "forestry", "delivery", "customers", "emergency",
    ]

    static let carSpeeds: [String: Double] = [
        "motorway": 90, "motorway_link": 45, "trunk": 80, "trunk_link": 40, "primary": 65, "primary_link": 30,
        "secondary": 55, "secondary_link": 25, "tertiary": 40, "tertiary_link": 20, "unclassified": 25,
        "residential": 25, "living_street": 10, "service": 15, "road": 20,
    ]

    static let walkable: Set<String> = [
        "primary", "primary_link", "secondary", "secondary_link", "tertiary", "tertiary_link", "unclassified",
        "residential", "living_street", "service", "road", "track", "path", "footway", "pedestrian", "steps",
        "cycleway", "bridleway", "corridor", "platform",
    ]

    static let rideable: Set<String> = [
        "primary", "primary_link", "secondary", "secondary_link", "tertiary", "tertiary_link", "unclassified",
        "residential", "living_street", "service", "road", "track", "path", "cycleway", "bridleway",
    ]

    /// Bicycle speeds by surface, km/h (the fastest a surface allows; OSRM's bicycle profile's).
    static let surfaceSpeeds: [String: Double] = [
        "cement": 10, "compacted": 10, "fine_gravel": 10, "paving_stones": 10, "metal": 10, "bricks": 10,
        "grass": 8, "wood": 8, "sett": 8, "grass_paver": 8, "gravel": 8, "unpaved": 8, "ground": 8, "dirt": 8,
        "pebblestone": 8, "tartan": 8, "cobblestone": 6, "unhewn_cobblestone": 6, "clay": 6, "earth": 6,
        "stone": 6, "rocky": 6, "sand": 6, "mud": 4,
    ]

    static let passableBarriers: Set<String> = [
        "gate", "lift_gate", "cattle_grid", "toll_booth", "border_control", "entrance", "no", "swing_gate",
    ]

    /// How this mode may travel a way: its speed in km/h each way (nil when that way is closed)
    /// or, for a ferry with a tagged duration, its duration in seconds.
    public struct Use: Sendable, Equatable {
        public var forward: Double?
        public var backward: Double?
        /// A ferry's crossing time, seconds, when the way tags it.
        public var duration: Double?
        /// Extra cost factor (destination-only roads for cars).
        public var penalty = 1.0
    }

    /// How this mode may use a way with `tags`, or nil when it may not at all.
    public func use(_ tags: [String: String]) -> Use? {
        if tags["route"] == "ferry" {
            return Use(forward: 5, backward: 5, duration: Self.duration(tags["duration"]))
        }
        guard let highway = tags["highway"], tags["area"] != "yes" || highway == "pedestrian" else { return nil }
        var speed: Double
        var allowedByClass: Bool
        switch mode {
        case .driving, .twoWheeler:
            allowedByClass = Self.carSpeeds[highway] != nil
            speed = Self.carSpeeds[highway] ?? 0
            if let maxspeed = Self.kilometresPerHour(tags["maxspeed"]) {
                speed = min(maxspeed * 0.8, max(speed, 5) * 1.5)
            }
        case .walking:
            allowedByClass = Self.walkable.contains(highway) || (tags["sidewalk"] != nil && tags["sidewalk"] != "no")
            speed = 5
        case .bicycling:
            allowedByClass = Self.rideable.contains(highway)
            speed = 15
            if ["footway", "pedestrian", "platform", "corridor"].contains(highway) {
                allowedByClass = true
                speed = ["yes", "designated"].contains(tags["bicycle"] ?? "") ? 12 : 4
            } else if highway == "steps" {
                allowedByClass = true
                speed = 2
            }
            if let limit = Self.surfaceSpeeds[tags["surface"] ?? ""] { speed = min(speed, limit) }
        }
        // The most specific access tag decides; a closing one closes even what the class allows.
        var penalty = 1.0
        for key in accessKeys {
            guard let value = tags[key] else { continue }
            if Self.closed.contains(value) { return nil }
            if value == "destination" { penalty = mode == .walking ? 1 : 2 }
            if ["yes", "designated", "permissive", "destination"].contains(value) {
                allowedByClass = true
                if speed == 0 { speed = mode == .walking ? 5 : 15 }
            }
            break
        }
        guard allowedByClass, speed > 0 else { return nil }
        var use = Use(forward: speed, backward: speed, penalty: penalty)
        switch onewayDirection(tags, highway: highway) {
        case 1: use.backward = nil
        case -1: use.forward = nil
        default: break
        }
        return use
    }

    /// 1 one way forwards, -1 backwards, 0 both, for this mode.
    func onewayDirection(_ tags: [String: String], highway: String) -> Int {
        if mode == .walking {
            return Self.direction(tags["oneway:foot"])
        }
        if mode == .bicycling {
            if let value = tags["oneway:bicycle"] { return Self.direction(value) }
            if ["cycleway", "cycleway:left", "cycleway:right", "cycleway:both"].contains(where: {
                tags[$0]?.hasPrefix("opposite") == true
            }) {
                return 0
            }
        }
        if let value = tags["oneway"] { return Self.direction(value) }
        if ["roundabout", "circular"].contains(tags["junction"] ?? "") { return 1 }
        if highway == "motorway" || (highway == "motorway_link" && mode != .walking) { return 1 }
        return 0
    }

    static func direction(_ value: String?) -> Int {
        switch value {
        case "yes", "1", "true": 1
        case "-1", "reverse": -1
        default: 0
        }
    }

    /// Whether this mode passes a node with `tags` (a barrier closes it to cars and two-wheelers
    /// unless it is a gate or the like; any node's own access tags close it).
    public func passes(_ tags: [String: String]) -> Bool {
        for key in accessKeys {
            if let value = tags[key] { return !Self.closed.contains(value) }
        }
        if let barrier = tags["barrier"], mode == .driving || mode == .twoWheeler {
            return Self.passableBarriers.contains(barrier)
        }
        return true
    }

    /// Seconds a node costs to pass: traffic signals 2 s for cars and two-wheelers.
    public func delay(at tags: [String: String]) -> Double {
        (mode == .driving || mode == .twoWheeler) && tags["highway"] == "traffic_signals" ? 2 : 0
    }

    /// Whether a turn restriction binds this mode: walkers are bound by none; a restriction
    /// naming a vehicle (`restriction:bicycle`) binds that one; `except` frees the vehicles it names.
    public func obeys(_ restriction: RoadNetwork.Restriction) -> Bool {
        let vehicles: Set<String> =
            switch mode {
            case .walking: []
            case .driving: ["motorcar", "motor_vehicle", "vehicle"]
            case .twoWheeler: ["motorcycle", "motor_vehicle", "vehicle"]
            case .bicycling: ["bicycle", "vehicle"]
            }
        guard !vehicles.isEmpty else { return false }
        if !restriction.modes.isEmpty && vehicles.isDisjoint(with: restriction.modes) { return false }
        return vehicles.isDisjoint(with: restriction.except)
    }

    /// Seconds a turn costs, as OSRM's profiles charge it where more than two roads meet: a
    /// logistic curve of the angle up to `turnPenalty` (7.5 s for cars and two-wheelers, 6 s for
    /// bicycles, none on foot), right turns cheaper than left by `turnBias` (right-hand traffic),
    /// plus 20 s for a u-turn by car.
    public func turnCost(angle: Double, roads: Int, uTurn: Bool) -> Double {
        let (penalty, bias, uTurnPenalty): (Double, Double, Double) =
            switch mode {
            case .driving, .twoWheeler: (7.5, 1.075, 20)
            case .bicycling: (6, 1.4, 20)
            case .walking: (0, 1, 0)
            }
        guard penalty > 0 else { return 0 }
        let cost =
            angle >= 0
            ? penalty / (1 + exp(-((13 / bias) * angle / 180 - 6.5 * bias)))
            : penalty / (1 + exp(-((13 * bias) * -angle / 180 - 6.5 / bias)))
        return cost + (uTurn ? uTurnPenalty : 0)
    }

    /// `maxspeed` in km/h: `50`, `30 mph`, `RU:urban`-style values give nil.
    static func kilometresPerHour(_ value: String?) -> Double? {
        guard let value else { return nil }
        let parts = value.split(separator: " ")
        guard let number = parts.first.flatMap({ Double($0) }), number > 0 else { return nil }
        return parts.count > 1 && parts[1] == "mph" ? number * 1.609344 : number
    }

    /// A ferry's `duration` (`90`, `1:30`, `01:30:00`, ISO `PT1H30M`) in seconds.
    static func duration(_ value: String?) -> Double? {
        guard let value else { return nil }
        if value.hasPrefix("PT") {
            var seconds = 0.0
            var number = ""
            for character in value.dropFirst(2) {
                if character.isNumber || character == "." {
                    number.append(character)
                } else {
                    let amount = Double(number) ?? 0
                    seconds += character == "H" ? amount * 3600 : character == "M" ? amount * 60 : amount
                    number = ""
                }
            }
            return seconds > 0 ? seconds : nil
        }
        let parts = value.split(separator: ":").map { Double($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        let numbers = parts.compactMap { $0 }
        switch numbers.count {
        case 1: return numbers[0] * 60
        case 2: return numbers[0] * 3600 + numbers[1] * 60
        default: return numbers[0] * 3600 + numbers[1] * 60 + numbers[2]
        }
    }
}
