import Foundation
import MapData

/// How one way of travel uses the road network, in one place: which ways and directions it may
/// take, how fast, what it prefers, what it may not pass and what turns cost. The rules follow
/// OSRM's car, foot and bicycle profiles, so that routes and times agree with the field's
/// reference engine; two-wheelers are cars with motorcycle access.
///
/// - **Driving**: roads by class at these speeds (km/h): motorway 90, trunk 85, primary 65,
///   secondary 55, tertiary 40, unclassified and residential 25, service 15, living street 10,
///   links about half of their road; any other highway at 10 when an access tag allows cars;
///   `maxspeed` (also `maxspeed:advisory`, `:forward`, `:backward`, `XX:urban`-style zones)
///   × 0.8 replaces the class speed; surfaces, `tracktype` and `smoothness` cap it (paving
///   stones 60, sett 40, cobblestone 30, gravel 40, …). The route prefers wide, marked roads:
///   alleys, parking aisles and driveways, roads narrower than 6 m or with one lane both ways,
///   side roads and reversible lanes count their time as longer (`preference`), which changes
///   which way is taken but not the time reported. `private`, `destination`, `delivery`,
///   `customers`, `permit` and `residents` roads are entered only at a route's ends; areas,
///   steps, reversible ways and ways under construction are never driven.
/// - **Walking**: every road class but motorways and trunks (unless `foot` allows), paths,
///   footways, steps, platforms and piers, at 5 km/h (3.75 on gravel, 2.5 in mud or sand);
///   roads whose sidewalks are mapped as ways of their own (`sidewalk=separate`) are walked
///   on those; one way only by `oneway:foot`.
/// - **Bicycling**: roads and cycleways at 15 km/h, paths 13, tracks 12, capped by surface
///   (paving stones and compacted 10, sett 9, cobblestone 7, gravel 6, mud 3, …) and by
///   `maxspeed`, never above 21; a direction a bicycle may not ride (against `oneway`, a
///   footway, pedestrian street, `bicycle=dismount`) is walked, pushing the bicycle, at 4 km/h
///   (steps 2) unless `foot=no`; `oneway:bicycle` and `cycleway=opposite*` contraflow lanes;
///   `cycleway=separate` leaves a road to its own cycleway.
/// - Ferries (`route=ferry`) for every mode, their `duration` when tagged, else 5 km/h.
/// - Access: the most specific key decides (`motorcar` before `motor_vehicle`, `vehicle`,
///   `access`; `bicycle`, `vehicle`, `access`; `foot`, `access`), each also `:forward` and
///   `:backward`; `no`, `private`, `agricultural`, `forestry`, `delivery` close a way.
/// - Nodes: barriers stop cars except gates (60 s), cattle grids, toll booths, border
///   controls, entrances, lowered kerbs and rising bollards; walls, fences and `barrier=yes`
///   stop everyone; a traffic signal costs 2 s (cars also 2 s at a stop sign, 1 s at give way).
///   A barrier is reached and turned back from, never passed.
/// - Turns (``turnCost(angle:roads:uTurn:wayChanges:roundabout:signal:)``).
public struct TravelProfile: Sendable, Equatable {
    /// A way of travel on the road network; the raw values are the names links and the CLI use.
    public enum Mode: String, Sendable, CaseIterable {
        case driving, walking, bicycling
        case twoWheeler = "two-wheeler"
    }

    /// The way of travel whose rules these are.
    public let mode: Mode

    /// The rules of `mode`.
    public init(_ mode: Mode) { self.mode = mode }

    /// Whether a route goes straight on past a stop rather than turning back at it: a car or a
    /// motorcycle keeps its way (it cannot turn on the spot in a street), a walker or a cyclist
    /// may turn back, as OSRM's profiles' `continue_straight_at_waypoint` have it.
    public var continuesStraightAtStops: Bool { mode == .driving || mode == .twoWheeler }

    /// The access keys that decide, most specific first.
    var accessKeys: [String] {
        switch mode {
        case .driving: ["motorcar", "motor_vehicle", "vehicle", "access"]
        case .twoWheeler: ["motorcycle", "motor_vehicle", "vehicle", "access"]
        case .bicycling: ["bicycle", "vehicle", "access"]
        case .walking: ["foot", "access"]
        }
    }

    /// Access values that allow a way whatever its class.
    var allowing: Set<String> {
        switch mode {
        case .driving, .twoWheeler: ["yes", "motorcar", "motor_vehicle", "vehicle", "permissive", "designated", "hov"]
        case .walking: ["yes", "foot", "permissive", "designated"]
        case .bicycling: ["yes", "permissive", "designated"]
        }
    }

    /// Access values that close a way (for cars, the ``restricting`` ones only where the road
    /// class is not a public road).
    var closing: Set<String> {
        switch mode {
        case .driving, .twoWheeler:
            [
                "no", "agricultural", "forestry", "emergency", "psv", "taxi", "share_taxi", "minibus", "bus", "foot",
                "emergency_vehicle", "restricted", "military", "official", "customers", "private", "delivery",
                "destination", "permit", "residents",
            ]
        case .walking: ["no", "agricultural", "forestry", "private", "delivery", "use_sidepath"]
        case .bicycling: ["no", "private", "agricultural", "forestry", "delivery", "use_sidepath"]
        }
    }

    /// Access values that let a car onto a public road only to reach a place on it.
    static let restricting: Set<String> = [
        "private", "delivery", "destination", "customers", "permit", "residents", "unknown",
    ]

    /// Road classes on which those values restrict rather than close.
    static let restrictable: Set<String> = [
        "motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link", "secondary", "secondary_link",
        "tertiary", "tertiary_link", "residential", "living_street", "unclassified", "service",
    ]

    static let carSpeeds: [String: Double] = [
        "motorway": 90, "motorway_link": 45, "trunk": 85, "trunk_link": 40, "primary": 65, "primary_link": 30,
        "secondary": 55, "secondary_link": 25, "tertiary": 40, "tertiary_link": 20, "unclassified": 25,
        "residential": 25, "living_street": 10, "service": 15,
    ]

    static let carSurfaceSpeeds: [String: Double] = [
        "cement": 80, "compacted": 80, "fine_gravel": 80, "paving_stones": 60, "metal": 60, "bricks": 60, "grass": 40,
        "wood": 40, "sett": 40, "grass_paver": 40, "gravel": 40, "unpaved": 40, "ground": 40, "dirt": 40,
        "pebblestone": 40, "tartan": 40, "cobblestone": 30, "clay": 30, "earth": 20, "stone": 20, "rocky": 20,
        "sand": 20, "laterite": 15, "mud": 10, "ice": 20, "snow": 30,
    ]
    static let carTracktypeSpeeds: [String: Double] = [
        "grade1": 60, "grade2": 40, "grade3": 30, "grade4": 25, "grade5": 20,
    ]
    static let carSmoothnessSpeeds: [String: Double] = [
        "intermediate": 80, "bad": 40, "very_bad": 20, "horrible": 10, "very_horrible": 5, "impassable": 0,
    ]
    /// How much the route's choice discounts service roads of these kinds (their time counts double).
    static let servicePreferences: [String: Double] = [
        "alley": 0.5, "parking": 0.5, "parking_aisle": 0.5, "driveway": 0.5, "drive-through": 0.5,
        "drive-thru": 0.5,
    ]

    static let walkable: Set<String> = [
        "primary", "primary_link", "secondary", "secondary_link", "tertiary", "tertiary_link", "unclassified",
        "residential", "living_street", "service", "track", "path", "steps", "pedestrian", "platform", "footway",
        "pier",
    ]
    static let walkingSurfaceSpeeds: [String: Double] = [
        "fine_gravel": 3.75, "gravel": 3.75, "pebblestone": 3.75, "mud": 2.5, "sand": 2.5,
    ]

    static let bicycleSpeeds: [String: Double] = [
        "cycleway": 15, "primary": 15, "primary_link": 15, "secondary": 15, "secondary_link": 15, "tertiary": 15,
        "tertiary_link": 15, "residential": 15, "unclassified": 15, "living_street": 15, "service": 15,
        "track": 12, "path": 13,
    ]
    /// Where a bicycle is pushed: km/h.
    static let pushingSpeeds: [String: Double] = ["footway": 4, "pedestrian": 4, "steps": 2]
    static let bicycleSurfaceSpeeds: [String: Double] = [
        "asphalt": 15, "chipseal": 15, "concrete": 15, "concrete_lanes": 15, "wood": 10, "metal": 10,
        "cobblestone:flattened": 10, "paving_stones": 10, "compacted": 10, "cobblestone": 7, "unpaved": 6,
        "fine_gravel": 10, "gravel": 6, "pebblestone": 6, "grass_paver": 6, "ground": 10, "dirt": 8, "earth": 6,
        "laterite": 5, "grass": 6, "mud": 3, "sand": 3, "woodchips": 3, "sett": 9,
    ]
    /// The fastest a bicycle goes anywhere: 21 km/h.
    static let bicycleMaximum = 21.0
    static let walkingSpeed = 5.0
    static let pushingSpeed = 4.0

    static let cyclewayLanes: Set<String> = ["track", "lane", "share_busway", "sharrow", "shared", "shared_lane"]
    static let contraflowLanes: Set<String> = ["opposite", "opposite_lane", "opposite_track"]

    /// One direction of a way as this mode travels it.
    public struct Direction: Sendable, Equatable {
        /// km/h, above 0.
        public var speed: Double
        /// How much the route's choice likes it, in (0, 1]: its time counts as time ÷ preference
        /// when routes are compared (never in the time reported). 1 by default.
        public var preference = 1.0
        /// Entered only to reach or leave a place on it (private and destination-only roads
        /// for cars): entering it costs ``TravelProfile/restrictedEntry`` seconds of preference.
        public var restricted = false
        /// A cyclist walking beside the bicycle.
        public var pushing = false

        /// A direction travelled at `speed` km/h, liked by `preference` (0, 1], entered only to reach a place when `restricted`, with the bicycle pushed when `pushing`.
        public init(speed: Double, preference: Double = 1, restricted: Bool = false, pushing: Bool = false) {
            self.speed = speed
            self.preference = preference
            self.restricted = restricted
            self.pushing = pushing
        }
    }

    /// Whether the mode's speed follows the slope where the store has an elevation model:
    /// cycling's (``climbing(_:grade:)``).
    public var climbs: Bool { mode == .bicycling }

    /// The speed of `direction` on a slope of `grade` (rise over run, positive uphill; taken
    /// within ±0.3, steeper being the model's noise), km/h: cycled uphill slower (÷ (1 + 8 ×
    /// grade): 5 % is 0.71 of the flat speed, 10 % 0.56), downhill faster up to a quarter (× (1 +
    /// 2.5 × descent)); a bicycle pushed, and every other mode, as on the flat.
    public func climbing(_ direction: Direction, grade: Double) -> Double {
        guard climbs, !direction.pushing, grade.isFinite else { return direction.speed }
        let slope = min(max(grade, -0.3), 0.3)
        return slope > 0 ? direction.speed / (1 + 8 * slope) : direction.speed * min(1.25, 1 - 2.5 * slope)
    }

    /// Kinds of road a route may be asked to avoid, as Google's `avoid` names them: toll roads
    /// (`toll=yes`), highways (motorways, their links, `motorroad=yes`) and ferries.
    public enum RoadFeature: String, Sendable, CaseIterable, Comparable {
        case ferries, highways, tolls

        public static func < (lhs: RoadFeature, rhs: RoadFeature) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Whether a way with `tags` is of this kind.
        public func matches(_ tags: [String: String]) -> Bool {
            switch self {
            case .tolls: tags["toll"] == "yes"
            case .highways:
                ["motorway", "motorway_link"].contains(tags["highway"] ?? "") || tags["motorroad"] == "yes"
            case .ferries: tags["route"] == "ferry"
            }
        }

        var bit: UInt8 {
            switch self {
            case .ferries: 1
            case .highways: 2
            case .tolls: 4
            }
        }
    }

    /// How much more a road to avoid weighs than its time: 20 times, so that a route takes one
    /// only where any other way is more than twenty times as long.
    public static let avoidanceFactor: Float = 20

    /// How this mode may travel a way: each direction (nil when closed) and, for a ferry with a
    /// tagged duration, its crossing time.
    public struct Use: Sendable, Equatable {
        /// How the way is travelled along its node order; nil when that direction is closed.
        public var forward: Direction?
        /// How the way is travelled against its node order; nil when that direction is closed.
        public var backward: Direction?
        /// A ferry's crossing time, seconds, when the way tags it.
        public var duration: Double?
        /// Whether a route may start or end on it (not on a ferry, not on a private service road).
        public var isStartpoint = true
    }

    /// The preference cost of entering a restricted road from an open one: 3,276.7 s, so that a
    /// route crosses one only to reach a place on it.
    public static let restrictedEntry = 3_276.7

    /// How this mode may use a way with `tags`, or nil when it may not at all.
    public func use(_ tags: [String: String]) -> Use? {
        if tags["impassable"] == "yes" || tags["status"] == "impassable" || tags["highway"] == "proposed" {
            return nil
        }
        let use: Use?
        switch mode {
        case .driving, .twoWheeler: use = drivingUse(tags)
        case .walking: use = walkingUse(tags)
        case .bicycling: use = cyclingUse(tags)
        }
        guard var use, use.forward != nil || use.backward != nil else { return nil }
        if tags["route"] == "ferry" { use.isStartpoint = false }
        return use
    }

    // MARK: Driving

    private func drivingUse(_ tags: [String: String]) -> Use? {
        let highway = tags["highway"] ?? ""
        if tags["area"] == "yes" || highway == "steps" || highway == "construction" { return nil }
        if tags["oneway"] == "reversible" { return nil }
        if let construction = tags["construction"], !["no", "widening", "minor"].contains(construction) { return nil }
        if tags["service"] == "emergency_access" { return nil }
        let (forwardAccess, backwardAccess) = Self.directional(tags, accessKeys)
        func direction(_ access: String?) -> (open: Bool, restricted: Bool) {
            guard let access else { return (true, false) }
            if Self.restricting.contains(access) && Self.restrictable.contains(highway) { return (true, true) }
            return (!closing.contains(access), false)
        }
        var forward = direction(forwardAccess)
        var backward = direction(backwardAccess)
        guard forward.open || backward.open else { return nil }
        // The oneway tag of the vehicle first, then the general one; motorways and roundabouts
        // one way unless tagged otherwise.
        let oneway =
            accessKeys.dropLast().lazy.compactMap { tags["oneway:\($0)"] }.first ?? tags["oneway"]
        switch Self.direction(oneway) {
        case 1: backward.open = false
        case -1: forward.open = false
        default:
            if oneway != "no",
                highway == "motorway" || Self.isRoundabout(tags)
            {
                backward.open = false
            }
        }
        var forwardSpeed: Double
        var backwardSpeed: Double
        var ferryDuration: Double?
        if tags["route"] == "ferry" || tags["route"] == "shuttle_train" {
            forwardSpeed = tags["route"] == "ferry" ? 5 : 10
            backwardSpeed = forwardSpeed
            ferryDuration = Self.duration(tags["duration"]).map { max($0, 1) }
        } else if tags["bridge"] == "movable" {
            forwardSpeed = 5
            backwardSpeed = 5
            ferryDuration = Self.duration(tags["duration"]).map { max($0, 1) }
        } else if let speed = Self.carSpeeds[highway] {
            forwardSpeed = speed
            backwardSpeed = speed
        } else {
            // Another class: 10 km/h where access allows it, else not driven.
            let speedFor = { (access: String?) -> Double in
                guard let access else { return 0 }
                return self.allowing.contains(access) || !self.closing.contains(access) ? 10 : 0
            }
            forwardSpeed = speedFor(forwardAccess)
            backwardSpeed = speedFor(backwardAccess)
            if forwardSpeed == 0 && backwardSpeed == 0 { return nil }
        }
        let limits = Self.directional(tags, ["maxspeed:advisory", "maxspeed", "source:maxspeed", "maxspeed:type"])
        if let limit = Self.speedLimit(limits.0), limit > 0 { forwardSpeed = limit * 0.8 }
        if let limit = Self.speedLimit(limits.1), limit > 0 { backwardSpeed = limit * 0.8 }
        for (table, key) in [
            (Self.carSurfaceSpeeds, "surface"), (Self.carTracktypeSpeeds, "tracktype"),
            (Self.carSmoothnessSpeeds, "smoothness"),
        ] {
            if let cap = table[tags[key] ?? ""] {
                forwardSpeed = min(forwardSpeed, cap)
                backwardSpeed = min(backwardSpeed, cap)
            }
        }
        let preference = drivingPreference(tags, bothWays: forward.open && backward.open)
        var use = Use(duration: ferryDuration)
        if forward.open && forwardSpeed > 0 {
            use.forward = Direction(speed: forwardSpeed, preference: preference, restricted: forward.restricted)
        }
        if backward.open && backwardSpeed > 0 {
            use.backward = Direction(speed: backwardSpeed, preference: preference, restricted: backward.restricted)
        }
        if highway == "service", forwardAccess == "private" { use.isStartpoint = false }
        return use
    }

    /// How much the route's choice discounts a road: service kinds, narrow or unmarked two-way
    /// roads, reversible lanes and side roads; the lowest applies.
    private func drivingPreference(_ tags: [String: String], bothWays: Bool) -> Double {
        var preference = Self.servicePreferences[tags["service"] ?? ""] ?? 1
        if bothWays {
            if tags["lane_markings"] == "no" { preference = min(preference, 0.75) }
            if let width = Self.metres(tags["width"]) {
                let narrow = width <= 3 ? 0.5 : width < 4 ? 0.6 : width < 5 ? 0.75 : width < 6 ? 0.8 : 1
                preference = min(preference, narrow)
            }
            if let lanes = tags["lanes"].flatMap({ Int($0.prefix { $0.isNumber }) }), lanes <= 1 {
                preference = min(preference, 0.5)
            }
        }
        if tags["oneway"] == "alternating" { preference = min(preference, 0.4) }
        if ["yes", "rotary"].contains(tags["side_road"] ?? "") { preference = min(preference, 0.8) }
        return preference
    }

    // MARK: Walking

    private func walkingUse(_ tags: [String: String]) -> Use? {
        if tags["motorroad"] == "yes" { return nil }
        let (forwardAccess, backwardAccess) = Self.directional(tags, accessKeys)
        var forwardOpen = forwardAccess.map { !closing.contains($0) } ?? true
        var backwardOpen = backwardAccess.map { !closing.contains($0) } ?? true
        guard forwardOpen || backwardOpen else { return nil }
        // Sidewalks drawn as ways of their own: the road is walked on those.
        if ["sidewalk", "sidewalk:both", "sidewalk:left", "sidewalk:right"].contains(where: { tags[$0] == "separate" })
        {
            forwardOpen = forwardOpen && forwardAccess != nil
            backwardOpen = backwardOpen && backwardAccess != nil
            guard forwardOpen || backwardOpen else { return nil }
        }
        switch Self.direction(tags["oneway:foot"]) {
        case 1: backwardOpen = false
        case -1: forwardOpen = false
        default: break
        }
        var speed: Double
        var ferryDuration: Double?
        if tags["route"] == "ferry" {
            speed = 5
            ferryDuration = Self.duration(tags["duration"]).map { max($0, 1) }
        } else if Self.walkable.contains(tags["highway"] ?? "") || tags["railway"] == "platform"
            || ["parking", "parking_entrance"].contains(tags["amenity"] ?? "") || tags["man_made"] == "pier"
        {
            speed = Self.walkingSpeed
        } else if forwardAccess != nil || backwardAccess != nil {
            // Another kind of way that an access tag opens (a cycleway with `foot=designated`).
            speed = Self.walkingSpeed
            if forwardAccess == nil { forwardOpen = false }
            if backwardAccess == nil { backwardOpen = false }
        } else {
            return nil
        }
        if let cap = Self.walkingSurfaceSpeeds[tags["surface"] ?? ""] { speed = min(speed, cap) }
        var use = Use(duration: ferryDuration)
        if forwardOpen { use.forward = Direction(speed: speed) }
        if backwardOpen { use.backward = Direction(speed: speed) }
        return use
    }

    // MARK: Bicycling

    private func cyclingUse(_ tags: [String: String]) -> Use? {
        let highway = tags["highway"] ?? ""
        if highway == "construction" { return nil }
        if let construction = tags["construction"], !["no", "widening", "minor"].contains(construction) { return nil }
        let access = accessKeys.lazy.compactMap { tags[$0] }.first
        let (forwardAccess, backwardAccess) = Self.directional(tags, accessKeys)
        if let access, closing.contains(access) { return nil }
        if let forwardAccess, let backwardAccess, closing.contains(forwardAccess), closing.contains(backwardAccess) {
            return nil
        }
        // Speed by kind of way; -1 where none applies (yet).
        var speed = -1.0
        var ferryDuration: Double?
        var allowsPushing = false
        if tags["bridge"] == "movable" {
            speed = 5
            ferryDuration = Self.duration(tags["duration"]).map { max($0, 1) }
            allowsPushing = true
        } else if tags["route"] == "ferry" {
            speed = 5
            ferryDuration = Self.duration(tags["duration"]).map { max($0, 1) }
        } else if tags["railway"] == "platform" || tags["public_transport"] == "platform" {
            speed = Self.pushingSpeed
            allowsPushing = true
        } else if ["parking", "parking_entrance"].contains(tags["amenity"] ?? "") {
            speed = 10
            allowsPushing = true
        } else if let class_ = Self.bicycleSpeeds[highway] {
            speed = class_
            allowsPushing = true
        } else if let access, allowing.contains(access) {
            speed = 15
            allowsPushing = true
        }
        var forward: Direction? = speed > 0 ? Direction(speed: speed) : nil
        var backward: Direction? = forward
        // One way: oneway:bicycle first, then oneway; roundabouts and motorways implied.
        let impliedOneway =
            Self.isRoundabout(tags) || highway == "motorway"
        var reverse = false
        let bicycleOneway = tags["oneway:bicycle"]
        if ["yes", "1", "true"].contains(bicycleOneway ?? "") {
            backward = nil
        } else if ["no", "0", "false"].contains(bicycleOneway ?? "") {
        } else if bicycleOneway == "-1" {
            forward = nil
            reverse = true
        } else if ["yes", "1", "true"].contains(tags["oneway"] ?? "") {
            backward = nil
        } else if ["no", "0", "false"].contains(tags["oneway"] ?? "") {
        } else if tags["oneway"] == "-1" {
            forward = nil
            reverse = true
        } else if impliedOneway {
            backward = nil
        }
        // Cycle lanes and tracks along the road, contraflow ones against its oneway.
        let cycleway = tags["cycleway"] ?? tags["cycleway:both"]
        let left = tags["cycleway:left"]
        let right = tags["cycleway:right"]
        var laneForward = false
        var laneBackward = false
        let lane = { (value: String?) in value.map { Self.cyclewayLanes.contains($0) } ?? false }
        let contraflow = { (value: String?) in value.map { Self.contraflowLanes.contains($0) } ?? false }
        if speed > 0 && forward != nil && backward != nil && !impliedOneway {
            laneForward = lane(cycleway) || lane(right) || contraflow(left)
            laneBackward = lane(cycleway) || lane(left) || contraflow(right)
        } else if contraflow(cycleway) || contraflow(right) || contraflow(left) {
            if contraflow(cycleway) {
                laneForward = true
                laneBackward = true
            } else if reverse {
                laneForward = true
            } else {
                laneBackward = true
            }
        } else if lane(cycleway) || lane(right) || lane(left) {
            if reverse { laneBackward = true } else { laneForward = true }
        }
        if laneForward { forward = Direction(speed: Self.bicycleSpeeds["cycleway"]!) }
        if laneBackward { backward = Direction(speed: Self.bicycleSpeeds["cycleway"]!) }
        // A direction that cannot be ridden is walked, pushing the bicycle, unless foot=no.
        if (forward == nil || backward == nil), tags["foot"] != "no" {
            var pushForward: Double?
            var pushBackward: Double?
            if let pushing = Self.pushingSpeeds[highway] {
                pushForward = pushing
                pushBackward = pushing
            } else if tags["man_made"] == "pier" {
                pushForward = Self.pushingSpeed
                pushBackward = Self.pushingSpeed
            } else if tags["foot"] == "yes" {
                pushForward = Self.pushingSpeed
                if !impliedOneway { pushBackward = Self.pushingSpeed }
            } else if tags["foot:forward"] == "yes" {
                pushForward = Self.pushingSpeed
            } else if tags["foot:backward"] == "yes" {
                pushBackward = Self.pushingSpeed
            } else if allowsPushing {
                pushForward = Self.pushingSpeed
                if !impliedOneway { pushBackward = Self.pushingSpeed }
            }
            if forward == nil, let pushForward { forward = Direction(speed: pushForward, pushing: true) }
            if backward == nil, let pushBackward { backward = Direction(speed: pushBackward, pushing: true) }
        }
        if tags["bicycle"] == "dismount" {
            forward = Direction(speed: Self.pushingSpeed, pushing: true)
            backward = forward
        }
        // Legal limits below the bicycle's speed, then the surface, then the bicycle's top speed.
        let limits = (
            Self.speedLimit(tags["maxspeed:forward"]) ?? Self.speedLimit(tags["maxspeed"]),
            Self.speedLimit(tags["maxspeed:backward"]) ?? Self.speedLimit(tags["maxspeed"])
        )
        let surface = Self.bicycleSurfaceSpeeds[tags["surface"] ?? ""]
        func capped(_ direction: Direction?, limit: Double?) -> Direction? {
            guard var direction else { return nil }
            if let limit, limit > 0 { direction.speed = min(direction.speed, limit) }
            if let surface { direction.speed = min(direction.speed, surface) }
            direction.speed = min(direction.speed, Self.bicycleMaximum)
            return direction.speed > 0 ? direction : nil
        }
        forward = capped(forward, limit: limits.0)
        backward = capped(backward, limit: limits.1)
        if let forwardAccess, closing.contains(forwardAccess) { forward = nil }
        if let backwardAccess, closing.contains(backwardAccess) { backward = nil }
        // A road whose cycleway is a way of its own is ridden on that one.
        if [cycleway, left, right, tags["cycleway:both"]].contains("separate"),
            !["yes", "permissive", "designated", "destination"].contains(tags["bicycle"] ?? "")
        {
            return nil
        }
        return Use(forward: forward, backward: backward, duration: ferryDuration)
    }

    // MARK: Nodes

    /// What a tagged node means to this mode.
    public struct NodeRule: Sendable, Equatable {
        /// False for a barrier: reached, turned back from, never passed.
        public var passable = true
        /// Seconds passing it costs (signals, stop signs, gates).
        public var delay = 0.0
        /// For a delay that binds one direction of the way only (`traffic_signals:direction`,
        /// `direction`): `forward` or `backward`; nil for both.
        public var direction: String?
    }

    /// How this mode passes a node with `tags`.
    public func node(_ tags: [String: String]) -> NodeRule {
        var rule = NodeRule()
        let access = accessKeys.lazy.compactMap { tags[$0] }.first
        let barrier = tags["barrier"]
        switch mode {
        case .driving, .twoWheeler:
            if let access {
                if closing.contains(access) && !Self.restricting.contains(access) { rule.passable = false }
            } else if let barrier {
                let passable: Set<String> = [
                    "cattle_grid", "border_control", "toll_booth", "sally_port", "no", "entrance", "height_restrictor",
                    "arch",
                ]
                let flatKerb = ["lowered", "flush"].contains(tags["kerb"] ?? "")
                let crossingKerb = barrier == "kerb" && tags["highway"] == "crossing"
                let audible = barrier == "fence" && ["audible", "audio"].contains(tags["sensory"] ?? "")
                if ["gate", "lift_gate"].contains(barrier) {
                    rule.delay = 60
                } else if !passable.contains(barrier) && tags["bollard"] != "rising" && !flatKerb && !crossingKerb
                    && !audible
                {
                    rule.passable = false
                }
            }
            switch tags["highway"] {
            case "traffic_signals":
                rule.delay += 2
                rule.direction = tags["traffic_signals:direction"] ?? tags["direction"]
            case "stop":
                rule.delay += 2
                rule.direction = tags["direction"]
            case "give_way":
                rule.delay += 1
                rule.direction = tags["direction"]
            default: break
            }
        case .walking, .bicycling:
            if let access {
                if closing.contains(access) && !(mode == .bicycling && tags["highway"] == "crossing") {
                    rule.passable = false
                }
            } else if let barrier, ["yes", "wall", "fence"].contains(barrier) {
                let audible = barrier == "fence" && ["audible", "audio"].contains(tags["sensory"] ?? "")
                if !audible && !(mode == .walking && tags["bollard"] == "rising") { rule.passable = false }
            }
            if tags["highway"] == "traffic_signals" {
                rule.delay = 2
                if mode == .bicycling {
                    let direction = tags["traffic_signals:direction"]
                    rule.direction = ["forward", "backward"].contains(direction ?? "") ? direction : nil
                }
            }
        }
        if let direction = rule.direction, !["forward", "backward"].contains(direction) { rule.direction = nil }
        return rule
    }

    // MARK: Turns

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

    /// Seconds a turn costs, as OSRM's profiles charge it (right-hand traffic):
    ///
    /// - cars and two-wheelers, where more than two roads meet: a logistic curve of the angle
    ///   up to 7.5 s (right turns cheaper by a bias of 1.075), and up to 2 s more for a left
    ///   turn across oncoming traffic (not at roundabouts);
    /// - bicycles, wherever a way meets another: (angle ÷ 90°)² × 6 s, ÷ 1.4 to the right,
    ///   × 1.4 to the left;
    /// - walkers: nothing;
    /// - a u-turn (allowed only where nothing else is): 20 s more by vehicle, 2 s on foot.
    ///
    /// A traffic signal between two segments of a road (not at a junction) costs a bicycle
    /// 19.1 s: OSRM's bicycle profile costs passing one as a 180° turn (17.1 s) plus its 2 s
    /// signal penalty, and routes are compared with OSRM's; a signal's own 2 s is the node's
    /// delay (``node(_:)``).
    ///
    /// - Parameters:
    ///   - angle: degrees, -180...180, positive to the right.
    ///   - roads: how many roads meet at the node.
    ///   - wayChanges: whether the turn leaves one way for another.
    ///   - roundabout: whether either side is a roundabout.
    ///   - signal: whether the node has traffic signals.
    public func turnCost(
        angle: Double, roads: Int, uTurn: Bool, wayChanges: Bool = true, roundabout: Bool = false,
        signal: Bool = false
    ) -> Double {
        guard chargesTurn(roads: roads, uTurn: uTurn, wayChanges: wayChanges, signal: signal) else { return 0 }
        switch mode {
        case .driving, .twoWheeler:
            let bias = 1.075
            var cost =
                angle >= 0
                ? 7.5 / (1 + exp(-((13 / bias) * angle / 180 - 6.5 * bias)))
                : 7.5 / (1 + exp(-((13 * bias) * -angle / 180 - 6.5 / bias)))
            if angle < 0 && !uTurn && roads > 2 && !roundabout {
                cost += 2 / (1 + exp(-(13 * abs(angle) / 180 - 3.25)))
            }
            return cost + (uTurn ? 20 : 0)
        case .bicycling:
            let angle = signal && roads == 2 && !uTurn ? 180 : angle
            let normalized = angle / 90
            let cost = angle >= 0 ? normalized * normalized * 6 / 1.4 : normalized * normalized * 6 * 1.4
            return cost + (uTurn ? 20 : 0)
        case .walking:
            return 2
        }
    }

    /// Whether a turn costs this mode anything at all (so that its angle need not be
    /// measured): cars where more than two roads meet, bicycles also where the way changes or
    /// at a signal, walkers only to turn back; a u-turn always.
    public func chargesTurn(roads: Int, uTurn: Bool, wayChanges: Bool, signal: Bool) -> Bool {
        switch mode {
        case .driving, .twoWheeler: roads > 2 || uTurn
        case .bicycling: roads > 2 || uTurn || wayChanges || signal
        case .walking: uTurn
        }
    }

    /// Whether a traffic signal changes what a turn costs this mode (bicycles, as OSRM's
    /// profile charges them).
    public var signalsCostTurns: Bool { mode == .bicycling }

    // MARK: Values

    /// True for a way around a roundabout or a circular junction (`junction=roundabout` or
    /// `circular`): one-way for every mode unless tagged otherwise.
    public static func isRoundabout(_ tags: [String: String]) -> Bool {
        tags["junction"] == "roundabout" || tags["junction"] == "circular"
    }

    /// True for a roundabout's way whose traffic goes one way around: a roundabout for guidance
    /// (exits counted, one step to the exit). A ring tagged `oneway=no` is driven both ways and
    /// told as streets are, as OSRM tells it.
    public static func isOneWayRing(_ tags: [String: String]) -> Bool {
        isRoundabout(tags) && tags["oneway"] != "no"
    }

    /// The values of the first of `keys` tagged for each direction (`key:forward`,
    /// `key:backward`, then `key`), most specific key first.
    static func directional(_ tags: [String: String], _ keys: [String]) -> (String?, String?) {
        var forward: String?
        var backward: String?
        for key in keys {
            forward = forward ?? tags[key + ":forward"]
            backward = backward ?? tags[key + ":backward"]
            if forward == nil || backward == nil {
                let common = tags[key]
                forward = forward ?? common
                backward = backward ?? common
            }
            if forward != nil && backward != nil { break }
        }
        // Lists (`yes;no`): the most permissive part.
        return (forward.map(mostPermissive), backward.map(mostPermissive))
    }

    static func mostPermissive(_ value: String) -> String {
        guard value.contains(";") else { return value }
        let parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let rank = { (part: String) -> Int in
            ["yes", "permissive", "designated"].contains(part) ? 3 : restricting.contains(part) ? 2 : 1
        }
        return parts.max { rank($0) < rank($1) } ?? value
    }

    static func direction(_ value: String?) -> Int {
        switch value {
        case "yes", "1", "true": 1
        case "-1", "reverse": -1
        default: 0
        }
    }

    /// Speed limits of zones by name (`FR:urban`, `GB:nsl_single`), km/h; else by its kind.
    static let zoneLimits: [String: Double] = [
        "at:rural": 100, "at:trunk": 100, "ar:urban": 40, "ar:rural": 110, "be:motorway": 120, "be-bru:rural": 70,
        "be-bru:urban": 30, "be-vlg:rural": 70, "bg:motorway": 140, "by:urban": 60, "by:motorway": 110,
        "ca-on:rural": 80, "ch:rural": 80, "ch:trunk": 100, "ch:motorway": 120, "de:living_street": 7,
        "de:rural": 100, "dk:rural": 80, "es:trunk": 90, "fr:rural": 80, "gb:nsl_single": 96.54,
        "gb:nsl_dual": 112.63, "gb:motorway": 112.63, "lv:living_street": 20, "nl:rural": 80, "nl:trunk": 100,
        "no:rural": 80, "no:motorway": 110, "ph:urban": 40, "ph:rural": 80, "ph:motorway": 100, "pl:rural": 100,
        "pl:expressway": 120, "pl:motorway": 140, "ro:trunk": 100, "ru:living_street": 20, "ru:urban": 60,
        "ru:motorway": 110, "uk:nsl_single": 96.54, "uk:nsl_dual": 112.63, "uk:motorway": 112.63, "za:urban": 60,
        "za:rural": 100, "none": 140,
    ]
    static let zoneKindLimits: [String: Double] = ["urban": 50, "rural": 90, "trunk": 110, "motorway": 130]

    /// A speed limit in km/h: `50`, `50 km/h`, `30 mph`, `10 knots`, or a zone (`FI:urban`); nil
    /// when absent or unreadable, 0 for `DE:motorway` (no limit).
    static func speedLimit(_ value: String?) -> Double? {
        guard let value else { return nil }
        if let number = kilometresPerHour(value) { return number }
        let lowered = value.lowercased()
        if lowered == "de:motorway" { return 0 }
        if let limit = zoneLimits[lowered] { return limit }
        guard let colon = lowered.firstIndex(of: ":") else { return nil }
        return zoneKindLimits[String(lowered[lowered.index(after: colon)...])]
    }

    /// `maxspeed` in km/h: `50`, `50 km/h`, `30 mph`, `10 knots`; nil for anything else.
    static func kilometresPerHour(_ value: String?) -> Double? {
        guard let value else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        guard let number = Double(digits), number > 0 else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        switch unit {
        case "": return number
        case "km/h", "kmh", "kph": return number
        case "mph": return number * 1.609344
        case "knots": return number * 1.852
        default: return nil
        }
    }

    /// A length in metres (`3`, `3.5 m`, `3,5`); nil when unreadable.
    static func metres(_ value: String?) -> Double? {
        guard let value else { return nil }
        let number = value.replacingOccurrences(of: ",", with: ".").prefix { $0.isNumber || $0 == "." }
        return Double(number)
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
