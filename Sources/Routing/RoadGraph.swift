import Foundation
import GeoCore
import MapData

/// The road network as one travel mode sees it: a directed graph whose nodes are the OSM nodes
/// of the ways that mode may use and whose edges are their segments, each way it may travel,
/// weighted by travel time (seconds); plus a grid of the segments for snapping.
///
/// Edges are held in compressed adjacency arrays both ways (out of a node for the forward
/// search, into it for the backward one).
public final class RoadGraph: @unchecked Sendable {
    /// The rules the graph was built with.
    public let profile: TravelProfile
    /// Node positions, by node index.
    public private(set) var positions: [Coordinate] = []
    /// A routable way: its OSM id, name, ref, class, signposted destinations, and whether it is
    /// a roundabout or a ferry.
    public struct WayInfo: Sendable {
        /// The OSM way's id.
        public var osmID: Int64
        /// `name`, as tagged.
        public var name: String?
        /// `ref`, as tagged.
        public var ref: String?
        /// Whether it is part of a ring whose traffic goes one way around (``TravelProfile/isOneWayRing(_:)``).
        public var isRoundabout = false
        /// `highway` (empty for a ferry, a platform or a pier without one).
        public var highway = ""
        /// `destination` and `destination:ref`, as tagged.
        public var destination: String?
        /// `destination:ref`, as tagged.
        public var destinationRef: String?
        /// `junction:ref`, as tagged: the exit numbers a slip road is signposted with.
        public var exits: String?
        /// Whether it is a ferry route.
        public var isFerry = false
        /// `turn:lanes` each way (`left|through|through;right`): `:forward`/`:backward`, else
        /// `turn:lanes` for a one-way road's direction.
        public var turnLanesForward: String?
        /// The lanes of the backward direction, as `turnLanesForward` says for the forward one.
        public var turnLanesBackward: String?
        /// Whether it is a bridge or a tunnel (`bridge` or `tunnel` other than `no`): its road
        /// is not on the ground under it.
        public var isOffGround = false
        /// Its lanes, both ways (`lanes`, else `lanes:forward` and `lanes:backward` added); 0
        /// when untagged.
        public var lanes = 0

        /// The lanes `tags` count, as ``lanes`` reads them.
        static func lanes(_ tags: [String: String]) -> Int {
            func count(_ key: String) -> Int? { tags[key].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } }
            if tags["lanes"] != nil { return count("lanes") ?? 0 }
            return (count("lanes:forward") ?? 0) + (count("lanes:backward") ?? 0)
        }
    }

    /// The routable ways, by the index edges refer to.
    public private(set) var ways: [WayInfo] = []

    // Forward adjacency: out of node n are edges firstOut[n]..<firstOut[n+1].
    var firstOut: [Int32] = []
    var outTarget: [Int32] = []
    // Backward adjacency: into node n are edges firstIn[n]..<firstIn[n+1], from inSource.
    var firstIn: [Int32] = []
    var inSource: [Int32] = []
    var inEdge: [Int32] = []
    /// Per edge: the weight the route's choice counts and the seconds it takes (equal unless
    /// the profile prefers some roads: ``TravelProfile/Direction/preference``), way index and
    /// its two nodes.
    var edgeWeight: [Float] = []
    var edgeDuration: [Float] = []
    var edgeWay: [Int32] = []
    var edgeFrom: [Int32] = []
    var edgeTo: [Int32] = []
    /// Edges entered only to reach a place on them (``TravelProfile/Direction/restricted``).
    var edgeRestricted: [Bool] = []
    /// Edges a cyclist walks, pushing the bicycle.
    var edgePushing: [Bool] = []
    /// Whether each edge runs its way's own direction (for `:forward` and `:backward` tags).
    var edgeAlong: [Bool] = []
    /// Per way: the kinds of road it is (``TravelProfile/RoadFeature`` bits).
    var wayFeatures: [UInt8] = []

    /// A segment of a way, for snapping: its two nodes and the edges along it each way.
    struct Segment {
        var from: Int32
        var to: Int32
        var forward: Int32  // edge from → to, or -1
        var backward: Int32  // edge to → from, or -1
        /// Whether a route may start or end on it (not on a ferry or a private service road, as
        /// OSRM's `is_startpoint`), unless a point asks for any road (``Approach/anyRoad``).
        var isStartpoint = true
    }

    var segments: [Segment] = []
    /// Segments by grid cell (``cellSize`` degrees), and the fine cells holding any by coarse
    /// cell (``coarseFactor`` fine cells a side), for points far from every road.
    var grid = CellIndex<Int32>()
    var coarseGrid = CellIndex<Int64>()
    static let cellSize = 0.001

    /// The OSM node id of each node.
    public private(set) var osmNodes: [Int64] = []
    /// The turn restrictions that bind this mode, by the graph node they turn at (via-node ones).
    var restrictions: [Int32: [(fromWay: Int64, toWay: Int64, only: Bool)]] = [:]
    /// Nodes this mode may reach and turn back from but not pass (barriers).
    var barriers: Set<Int32> = []
    /// The box of the network's nodes (nil when it has none).
    public private(set) var extent: CoordinateBounds?
    /// Nodes with traffic signals.
    var signals: Set<Int32> = []
    /// Per edge: whether a u-turn at its end is allowed: only where no other way on is (a dead
    /// end, a barrier, or every other turn forbidden), as OSRM allows them.
    var uTurnAllowed: [Bool] = []

    /// What a store holds of its road network, read once for the graphs of several modes
    /// (``RoutingGraphs/refresh(store:writer:progress:)``).
    public struct Network: Sendable {
        /// The routable ways, the tagged nodes on them and the turn restrictions.
        public var ways: [RoadNetwork.Way]
        public var nodes: [Int64: [String: String]]
        public var restrictions: [RoadNetwork.Restriction]
        /// The OpenStreetMap regions' bounds: the network's extent.
        public var regions: [CoordinateBounds]
        /// The heights of every way's points (metres, nil for a way the store's elevation
        /// models do not cover), when read and the store has models; nil otherwise.
        public var heights: [[Double]?]?

        /// Reads the network of `store`, with its ways' heights when `heights` (for a mode whose
        /// speed follows the slope, ``TravelProfile/climbs``).
        public init(store: MapStore, heights readHeights: Bool) throws {
            ways = try store.roadWays()
            nodes = try store.roadNodes()
            restrictions = try store.roadRestrictions()
            regions = try store.sources(counting: false).filter { $0.kind == .osm && $0.bounds.isValid }.map(\.bounds)
            guard readHeights else { return }
            var reader = try Elevation.Reader(store: store, within: .world)
            guard !reader.models.isEmpty else { return }
            heights = try ways.map { way throws(DataError) in
                var values: [Double] = []
                for point in way.points {
                    guard let sample = try reader.sample(at: point) else { return nil }
                    values.append(sample.metres)
                }
                return values
            }
        }
    }

    /// Builds the graph of `profile` from the store's road network; the OpenStreetMap regions'
    /// bounds are its extent. A mode whose speed follows the slope (``TravelProfile/climbs``)
    /// reads the heights of every way's points from the store's elevation models, where it has
    /// them.
    public convenience init(store: MapStore, profile: TravelProfile) throws {
        try self.init(network: Network(store: store, heights: profile.climbs), profile: profile)
    }

    /// Builds the graph of `profile` from a store's road network read before; a mode whose
    /// speed follows the slope uses the network's heights where it has them.
    public convenience init(network: Network, profile: TravelProfile) {
        self.init(
            ways: network.ways, nodes: network.nodes, restrictions: network.restrictions, profile: profile,
            heights: profile.climbs ? network.heights : nil)
        regions = network.regions
    }

    /// The imported regions' bounds, when the graph comes from a store.
    public private(set) var regions: [CoordinateBounds] = []

    /// Whether `point` lies within an imported region, or, for a graph not read from a store,
    /// within the network's extent. (The extent of several regions is the box around them all:
    /// a point between two cities is in it, far from either's roads.)
    public func covers(_ point: Coordinate) -> Bool {
        regions.isEmpty ? extent?.contains(point) == true : regions.contains { $0.contains(point) }
    }

    /// Builds the graph of `profile` from routable ways, the tagged nodes on them and the turn
    /// restrictions; with `heights` (metres, each way's points', nil for a way without them),
    /// a climbing mode's speeds follow each segment's slope (a bridge's or tunnel's the slope
    /// between its ends: the ground under it is not its road).
    public init(
        ways roadWays: [RoadNetwork.Way], nodes: [Int64: [String: String]],
        restrictions turnRestrictions: [RoadNetwork.Restriction] = [], profile: TravelProfile,
        heights: [[Double]?]? = nil
    ) {
        self.profile = profile
        var index: [Int64: Int32] = [:]
        func node(_ id: Int64, _ position: Coordinate) -> Int32 {
            if let existing = index[id] { return existing }
            let new = Int32(positions.count)
            index[id] = new
            positions.append(position)
            osmNodes.append(id)
            return new
        }
        let rules = nodes.mapValues { profile.node($0) }
        struct Edge {
            var from: Int32, to: Int32, weight: Float, duration: Float, way: Int32
            var restricted: Bool, pushing: Bool, along: Bool
        }
        var edges: [Edge] = []
        var cellPairs: [(cell: Int64, value: Int32)] = []
        for (wayNumber, way) in roadWays.enumerated() {
            guard let use = profile.use(way.tags), way.nodes.count == way.points.count, way.nodes.count >= 2 else {
                continue
            }
            let wayHeights = heights.flatMap { $0[wayNumber] }
            let offGround =
                way.tags["bridge"].map { $0 != "no" } == true || way.tags["tunnel"].map { $0 != "no" } == true
            let wayIndex = Int32(ways.count)
            wayFeatures.append(
                TravelProfile.RoadFeature.allCases.reduce(0) { $0 | ($1.matches(way.tags) ? $1.bit : 0) })
            // A platform's ref is its number at the station, not a road's.
            let isPlatform = [way.tags["highway"], way.tags["railway"], way.tags["public_transport"]].contains(
                "platform")
            ways.append(
                WayInfo(
                    osmID: way.osmID, name: way.tags["name"], ref: isPlatform ? nil : way.tags["ref"],
                    isRoundabout: TravelProfile.isOneWayRing(way.tags), highway: way.tags["highway"] ?? "",
                    destination: way.tags["destination"], destinationRef: way.tags["destination:ref"],
                    exits: way.tags["junction:ref"],
                    isFerry: way.tags["route"] == "ferry",
                    turnLanesForward: way.tags["turn:lanes:forward"] ?? way.tags["turn:lanes"],
                    turnLanesBackward: way.tags["turn:lanes:backward"], isOffGround: offGround,
                    lanes: WayInfo.lanes(way.tags)))
            var wayLength = 0.0
            for position in 1..<way.points.count {
                wayLength += way.points[position - 1].distance(to: way.points[position])
            }
            for position in 1..<way.nodes.count {
                let a = node(way.nodes[position - 1], way.points[position - 1])
                let b = node(way.nodes[position], way.points[position])
                let length = way.points[position - 1].distance(to: way.points[position])
                /// The edge along `direction` arriving at the node with `rule`; `along` whether
                /// it runs the way's own direction.
                func edge(
                    _ from: Int32, _ to: Int32, _ direction: TravelProfile.Direction,
                    arriving rule: TravelProfile.NodeRule?, along: Bool
                ) -> Edge {
                    var speed = direction.speed
                    if let wayHeights {
                        // Rise over run along the edge's direction.
                        let (rise, run) =
                            offGround
                            ? (wayHeights[wayHeights.count - 1] - wayHeights[0], wayLength)
                            : (wayHeights[position] - wayHeights[position - 1], length)
                        if run > 0 { speed = profile.climbing(direction, grade: (along ? rise : -rise) / run) }
                    }
                    var seconds =
                        use.duration.map { wayLength > 0 ? $0 * length / wayLength : $0 }
                        ?? length / (speed / 3.6)
                    var weight = seconds / direction.preference
                    if let rule, rule.delay > 0,
                        rule.direction == nil || rule.direction == (along ? "forward" : "backward")
                    {
                        seconds += rule.delay
                        weight += rule.delay
                    }
                    return Edge(
                        from: from, to: to, weight: Float(weight), duration: Float(seconds), way: wayIndex,
                        restricted: direction.restricted, pushing: direction.pushing, along: along)
                }
                var segment = Segment(from: a, to: b, forward: -1, backward: -1, isStartpoint: use.isStartpoint)
                if let forward = use.forward {
                    segment.forward = Int32(edges.count)
                    edges.append(edge(a, b, forward, arriving: rules[way.nodes[position]], along: true))
                }
                if let backward = use.backward {
                    segment.backward = Int32(edges.count)
                    edges.append(edge(b, a, backward, arriving: rules[way.nodes[position - 1]], along: false))
                }
                let segmentIndex = Int32(segments.count)
                segments.append(segment)
                for cell in Self.cells(from: way.points[position - 1], to: way.points[position]) {
                    cellPairs.append((cell, segmentIndex))
                }
            }
        }
        for (id, rule) in rules where !rule.passable {
            if let barrier = index[id] { barriers.insert(barrier) }
        }
        for (id, tags) in nodes where tags["highway"] == "traffic_signals" {
            if let signal = index[id] { signals.insert(signal) }
        }
        // Via-way restrictions: the edges along the via ways get copies, entered only from the
        // restriction's from way and leaving for its to way as the restriction says.
        var viaPaths: [ViaPath] = []
        let viaRestrictions = turnRestrictions.filter { profile.obeys($0) && !$0.viaWays.isEmpty }
        let edgeWays = viaRestrictions.isEmpty ? [] : edges.map { ($0.from, $0.to, ways[Int($0.way)].osmID) }
        for restriction in viaRestrictions {
            guard let path = Self.viaPath(restriction, edges: edgeWays) else { continue }
            let copies = path.edges.map { original -> Int32 in
                edges.append(edges[Int(original)])
                return Int32(edges.count - 1)
            }
            viaPaths.append(
                ViaPath(
                    fromWay: restriction.fromWay, toWay: restriction.toWay, only: restriction.kind.hasPrefix("only_"),
                    edges: path.edges, copies: copies))
        }
        // Compressed adjacency, out and in; edges keep their ids (segments refer to them).
        let count = positions.count
        var outDegree = [Int32](repeating: 0, count: count + 1)
        var inDegree = [Int32](repeating: 0, count: count + 1)
        for edge in edges {
            outDegree[Int(edge.from) + 1] += 1
            inDegree[Int(edge.to) + 1] += 1
        }
        for node in 0..<count {
            outDegree[node + 1] += outDegree[node]
            inDegree[node + 1] += inDegree[node]
        }
        firstOut = outDegree
        firstIn = inDegree
        var outFill = outDegree
        var inFill = inDegree
        outTarget = [Int32](repeating: 0, count: edges.count)
        inSource = [Int32](repeating: 0, count: edges.count)
        inEdge = [Int32](repeating: 0, count: edges.count)
        edgeWeight = edges.map(\.weight)
        edgeDuration = edges.map(\.duration)
        edgeWay = edges.map(\.way)
        edgeFrom = edges.map(\.from)
        edgeTo = edges.map(\.to)
        edgeRestricted = edges.map(\.restricted)
        edgePushing = edges.map(\.pushing)
        edgeAlong = edges.map(\.along)
        // Out-edges in CSR order need their own ids: keep a map from CSR slot to edge id.
        outEdge = [Int32](repeating: 0, count: edges.count)
        for (id, edge) in edges.enumerated() {
            let slot = Int(outFill[Int(edge.from)])
            outFill[Int(edge.from)] += 1
            outTarget[slot] = edge.to
            outEdge[slot] = Int32(id)
            let inSlot = Int(inFill[Int(edge.to)])
            inFill[Int(edge.to)] += 1
            inSource[inSlot] = edge.from
            inEdge[inSlot] = Int32(id)
        }
        labelComponents()
        grid = CellIndex(cellPairs)
        coarseGrid = CellIndex(
            grid.cells.map { key in
                let (row, column) = (Int(key >> 32), Int(Int32(truncatingIfNeeded: key)))
                return (
                    Self.key(Self.floorDivide(row, Self.coarseFactor), Self.floorDivide(column, Self.coarseFactor)), key
                )
            })
        if let first = positions.first {
            var south = first.latitude, north = first.latitude, west = first.longitude, east = first.longitude
            for position in positions {
                south = min(south, position.latitude)
                north = max(north, position.latitude)
                west = min(west, position.longitude)
                east = max(east, position.longitude)
            }
            extent = CoordinateBounds(
                southWest: Coordinate(latitude: south, longitude: west),
                northEast: Coordinate(latitude: north, longitude: east))
        }
        for restriction in turnRestrictions where profile.obeys(restriction) {
            guard restriction.viaNodes.count == 1, let via = index[restriction.viaNodes[0]] else { continue }
            let only = restriction.kind.hasPrefix("only_")
            // An "only" turn onto a way this mode cannot take (or the extract lacks) would close
            // every way out: it is left out, as OSRM leaves out restrictions it cannot place.
            if only {
                let exits = (Int(firstOut[Int(via)])..<Int(firstOut[Int(via) + 1])).map {
                    way(of: outEdge[$0]).osmID
                }
                guard exits.contains(restriction.toWay) else { continue }
            }
            restrictions[via, default: []].append((restriction.fromWay, restriction.toWay, only))
        }
        for path in viaPaths { banTurns(along: path) }
        markEdgeEnds()
        edgeBearing = edgeFrom.indices.map {
            Float(Self.bearing(positions[Int(edgeFrom[$0])], positions[Int(edgeTo[$0])]))
        }
        wayRank = ways.map { UInt8(Junction.rank(of: $0.highway)) }
        degree = (0..<positions.count).map { node in
            var neighbours = Set<Int32>()
            for slot in Int(firstOut[node])..<Int(firstOut[node + 1]) { neighbours.insert(outTarget[slot]) }
            for slot in Int(firstIn[node])..<Int(firstIn[node + 1]) { neighbours.insert(inSource[slot]) }
            return UInt8(min(neighbours.count, 255))
        }
        uTurnAllowed = (0..<edges.count).map { into in
            let node = Int(edgeTo[into])
            if barriers.contains(Int32(node)) { return true }
            for out in outEdges(of: node) where !isUTurn(Int32(into), out) && isAllowedThrough(Int32(into), out) {
                return false
            }
            return true
        }
    }

    /// How many roads meet at each node (its distinct neighbours).
    var degree: [UInt8] = []
    /// Each way's class as guidance ranks it (``Junction/rank(of:)``).
    var wayRank: [UInt8] = []

    /// Whether the turn from edge `into` to edge `out` (at the node between them) is allowed:
    /// not through a barrier, not against a turn restriction, and a u-turn only where nothing
    /// else is (``uTurnAllowed``).
    func allows(_ into: Int32, _ out: Int32) -> Bool {
        if isUTurn(into, out) { return uTurnAllowed[Int(into)] }
        return isAllowedThrough(into, out)
    }

    /// Whether `out` turns straight back along the segment `into` came by.
    func isUTurn(_ into: Int32, _ out: Int32) -> Bool {
        edgeTo[Int(out)] == edgeFrom[Int(into)] && edgeWay[Int(out)] == edgeWay[Int(into)]
    }

    /// What lies at each edge's end that a turn from it must look up (``EndMark``), so that
    /// a search's turns at the plain nodes, nearly all of them, read one byte.
    var edgeEndMarks: [UInt8] = []

    /// The bits of ``edgeEndMarks``.
    enum EndMark {
        static let barrier: UInt8 = 1
        static let restriction: UInt8 = 2
        static let bannedTurn: UInt8 = 4
        static let signal: UInt8 = 8
    }

    /// Works out ``edgeEndMarks`` from the barriers, signals, restrictions and banned turns.
    private func markEdgeEnds() {
        edgeEndMarks = edgeTo.map { node in
            (barriers.contains(node) ? EndMark.barrier : 0) | (restrictions[node] != nil ? EndMark.restriction : 0)
                | (signals.contains(node) ? EndMark.signal : 0)
        }
        for pair in bannedTurns { edgeEndMarks[Int(pair >> 32)] |= EndMark.bannedTurn }
    }

    /// Whether the turn passes the node (no barrier) and no turn restriction forbids it.
    private func isAllowedThrough(_ into: Int32, _ out: Int32) -> Bool {
        let marks = edgeEndMarks[Int(into)]
        if marks & (EndMark.barrier | EndMark.restriction | EndMark.bannedTurn) == 0 { return true }
        let node = edgeTo[Int(into)]
        if marks & EndMark.barrier != 0 { return false }
        if !bannedTurns.isEmpty && bannedTurns.contains(Self.pair(into, out)) { return false }
        guard let rules = restrictions[node] else { return true }
        let from = way(of: into).osmID
        let to = way(of: out).osmID
        for rule in rules where rule.fromWay == from {
            if rule.only ? rule.toWay != to : rule.toWay == to { return false }
        }
        return true
    }

    /// Turns forbidden one by one (`into` << 32 | `out`): those of the via-way restrictions.
    var bannedTurns: Set<UInt64> = []

    static func pair(_ into: Int32, _ out: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: into)) << 32 | UInt64(UInt32(bitPattern: out))
    }

    /// A via-way restriction placed on the graph: the edges along its via ways, in order, and
    /// their copies.
    struct ViaPath {
        var fromWay: Int64
        var toWay: Int64
        var only: Bool
        var edges: [Int32]
        var copies: [Int32]
    }

    /// The edges along a via-way restriction's via ways, from the node its from way shares with
    /// the first to the node the last shares with its to way; nil when the ways do not join
    /// so or cannot be travelled that way.
    static func viaPath(_ restriction: RoadNetwork.Restriction, edges: [(from: Int32, to: Int32, way: Int64)])
        -> (start: Int32, edges: [Int32])?
    {
        let chain = [restriction.fromWay] + restriction.viaWays + [restriction.toWay]
        var nodesOf: [Int64: Set<Int32>] = [:]
        var edgesOf: [Int64: [Int32]] = [:]
        let wanted = Set(chain)
        for (index, edge) in edges.enumerated() where wanted.contains(edge.way) {
            nodesOf[edge.way, default: []].formUnion([edge.from, edge.to])
            edgesOf[edge.way, default: []].append(Int32(index))
        }
        // The junctions: from ∩ via₁, via₁ ∩ via₂, …, viaₖ ∩ to, each one node.
        var junctions: [Int32] = []
        for index in 1..<chain.count {
            let shared = (nodesOf[chain[index - 1]] ?? []).intersection(nodesOf[chain[index]] ?? [])
            guard shared.count == 1 else { return nil }
            junctions.append(shared.first!)
        }
        var path: [Int32] = []
        for (offset, via) in restriction.viaWays.enumerated() {
            // Along the via way from one junction to the next, by its edges (a breadth-first walk).
            let (start, goal) = (junctions[offset], junctions[offset + 1])
            let wayEdges = edgesOf[via] ?? []
            var previous: [Int32: Int32] = [start: -1]
            var frontier = [start]
            while !frontier.isEmpty, previous[goal] == nil {
                var next: [Int32] = []
                for node in frontier {
                    for edge in wayEdges where edges[Int(edge)].from == node && previous[edges[Int(edge)].to] == nil {
                        previous[edges[Int(edge)].to] = edge
                        next.append(edges[Int(edge)].to)
                    }
                }
                frontier = next
            }
            guard previous[goal] != nil else { return nil }
            var leg: [Int32] = []
            var node = goal
            while let edge = previous[node], edge >= 0 {
                leg.append(edge)
                node = edges[Int(edge)].from
            }
            path += leg.reversed()
        }
        return path.isEmpty ? nil : (junctions[0], path)
    }

    /// Bans the turns that keep a via-way restriction: from its from way onto the via ways only
    /// by the copies, onto the copies only from there, along them only by copies, and off the
    /// last onto its to way (`no_`) or, for `only_`, off the path anywhere at all.
    private func banTurns(along path: ViaPath) {
        let into = { (node: Int32) in self.inEdges(of: Int(node)) }
        let out = { (node: Int32) in self.outEdges(of: Int(node)) }
        let osmWay = { (edge: Int32) in self.ways[Int(self.edgeWay[Int(edge)])].osmID }
        for (index, copy) in path.copies.enumerated() {
            let original = path.edges[index]
            let node = edgeFrom[Int(original)]
            for edge in into(node) {
                let allowed =
                    index == 0
                    ? osmWay(edge) == path.fromWay && !path.copies.contains(edge) : edge == path.copies[index - 1]
                if !allowed { bannedTurns.insert(Self.pair(edge, copy)) }
                if index == 0 && osmWay(edge) == path.fromWay { bannedTurns.insert(Self.pair(edge, original)) }
                if index > 0 && edge == path.copies[index - 1] { bannedTurns.insert(Self.pair(edge, original)) }
            }
        }
        let last = path.copies.last!
        for edge in out(edgeTo[Int(last)]) where path.only ? osmWay(edge) != path.toWay : osmWay(edge) == path.toWay {
            bannedTurns.insert(Self.pair(last, edge))
        }
        // `only_`: from the from way, that path or none: no other way off it at the start, nor
        // off the via ways before their end.
        guard path.only else { return }
        let start = edgeFrom[Int(path.edges[0])]
        for edge in into(start) where osmWay(edge) == path.fromWay && !path.copies.contains(edge) {
            for exit in out(start) where exit != path.copies[0] { bannedTurns.insert(Self.pair(edge, exit)) }
        }
        for (index, copy) in path.copies.enumerated().dropLast() {
            for exit in out(edgeTo[Int(copy)]) where exit != path.copies[index + 1] {
                bannedTurns.insert(Self.pair(copy, exit))
            }
        }
    }

    /// Seconds the turn from edge `into` to edge `out` takes this mode
    /// (``TravelProfile/turnCost(angle:roads:uTurn:wayChanges:roundabout:signal:)``).
    func turnDuration(_ into: Int32, _ out: Int32) -> Float {
        let node = Int(edgeTo[Int(into)])
        let uTurn = isUTurn(into, out)
        let roads = Int(degree[node])
        let wayChanges = edgeWay[Int(into)] != edgeWay[Int(out)]
        let signal = profile.signalsCostTurns && edgeEndMarks[Int(into)] & EndMark.signal != 0
        guard profile.chargesTurn(roads: roads, uTurn: uTurn, wayChanges: wayChanges, signal: signal) else { return 0 }
        let angle = Self.turn(from: edgeBearing[Int(into)], to: edgeBearing[Int(out)])
        let roundabout = way(of: into).isRoundabout || way(of: out).isRoundabout
        return Float(
            profile.turnCost(
                angle: Double(angle), roads: roads, uTurn: uTurn, wayChanges: wayChanges, roundabout: roundabout,
                signal: signal))
    }

    /// The weight of the turn from `into` to `out`: its time, and ``TravelProfile/restrictedEntry``
    /// more onto a restricted road from an open one.
    func turnWeight(_ into: Int32, _ out: Int32) -> Float {
        let entry: Float =
            edgeRestricted[Int(out)] && !edgeRestricted[Int(into)] ? Float(TravelProfile.restrictedEntry) : 0
        return turnDuration(into, out) + entry
    }

    /// Each edge's direction, degrees clockwise from north (edges are single straight segments).
    var edgeBearing: [Float] = []

    /// The direction from `a` to `b`, degrees clockwise from north, in a local flat frame.
    static func bearing(_ a: Coordinate, _ b: Coordinate) -> Double {
        let scale = cos(a.latitude * .pi / 180)
        return atan2((b.longitude - a.longitude) * scale, b.latitude - a.latitude) * 180 / .pi
    }

    /// The turn at `b` going a → b → c, in degrees: 0 straight on, positive to the right,
    /// negative to the left, ±180 back.
    static func turnAngle(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate) -> Double {
        turn(from: bearing(a, b), to: bearing(b, c))
    }

    /// The turn from heading `incoming` to heading `outgoing` (degrees, each in -180...180),
    /// in -180...180 degrees, positive to the right.
    static func turn<Degrees: BinaryFloatingPoint>(from incoming: Degrees, to outgoing: Degrees) -> Degrees {
        let angle = outgoing - incoming
        return angle > 180 ? angle - 360 : angle < -180 ? angle + 360 : angle
    }

    /// The edge id of each out-slot.
    var outEdge: [Int32] = []

    /// The way edge `edge` runs along.
    func way(of edge: Int32) -> WayInfo { ways[Int(edgeWay[Int(edge)])] }

    /// The class rank of the way edge `edge` runs along (``wayRank``).
    func rank(of edge: Int32) -> Int { Int(wayRank[Int(edgeWay[Int(edge)])]) }

    /// The edges out of `node`, and into it.
    func outEdges(of node: Int) -> ArraySlice<Int32> { outEdge[Int(firstOut[node])..<Int(firstOut[node + 1])] }
    func inEdges(of node: Int) -> ArraySlice<Int32> { inEdge[Int(firstIn[node])..<Int(firstIn[node + 1])] }
    /// Each node's strongly connected piece of the network (every node of a piece reaches
    /// every other along the edges' directions), and whether it is a large piece: points snap
    /// into one first, as a park's paths closed to bicycles, a parking aisle closed off from
    /// the streets or a one-way street leading out of the extract would otherwise strand a route.
    var component: [Int32] = []
    var isLargePiece: [Bool] = []
    /// A piece of at least this many nodes is large (OSRM's default small-component size);
    /// so is the largest piece, whatever its size.
    static let largePieceSize = 1_000

    /// Labels the strongly connected pieces (Tarjan's algorithm, iterative).
    private func labelComponents() {
        let count = positions.count
        var index = [Int32](repeating: -1, count: count)
        var lowLink = [Int32](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int32] = []
        var labels = [Int32](repeating: -1, count: count)
        var next: Int32 = 0
        var sizes: [Int32: Int] = [:]
        // Each frame: a node and the next out-slot to look at.
        var frames: [(node: Int32, slot: Int32)] = []
        for root in 0..<Int32(count) where index[Int(root)] < 0 {
            frames.append((root, firstOut[Int(root)]))
            index[Int(root)] = next
            lowLink[Int(root)] = next
            next += 1
            stack.append(root)
            onStack[Int(root)] = true
            while let frame = frames.last {
                let node = Int(frame.node)
                // A barrier is turned back from, not passed: no way on from it counts.
                if frame.slot < firstOut[node + 1] && !barriers.contains(Int32(node)) {
                    frames[frames.count - 1].slot += 1
                    let target = Int(outTarget[Int(frame.slot)])
                    if index[target] < 0 {
                        index[target] = next
                        lowLink[target] = next
                        next += 1
                        stack.append(Int32(target))
                        onStack[target] = true
                        frames.append((Int32(target), firstOut[target]))
                    } else if onStack[target] {
                        lowLink[node] = min(lowLink[node], index[target])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last {
                    lowLink[Int(parent.node)] = min(lowLink[Int(parent.node)], lowLink[node])
                }
                if lowLink[node] == index[node] {
                    var size = 0
                    while let member = stack.popLast() {
                        onStack[Int(member)] = false
                        labels[Int(member)] = Int32(node)
                        size += 1
                        if Int(member) == node { break }
                    }
                    sizes[Int32(node)] = size
                }
            }
        }
        component = labels
        let largest = sizes.values.max() ?? 0
        largePieceNodes = 0
        for (_, size) in sizes where size >= min(Self.largePieceSize, largest) { largePieceNodes += size }
        isLargePiece = labels.map { label in label >= 0 && (sizes[label] ?? 0) >= min(Self.largePieceSize, largest) }
    }

    /// Nodes in the network's large pieces.
    public private(set) var largePieceNodes = 0

    /// Calls `body` with each edge: its OSM nodes, seconds, metres and OSM way (to compare the
    /// profile, segment by segment, with another engine's annotations).
    public func forEachEdge(
        _ body: (_ from: Int64, _ to: Int64, _ seconds: Double, _ metres: Double, _ way: Int64) -> Void
    ) {
        for edge in 0..<edgeCount {
            let from = Int(edgeFrom[edge])
            let to = Int(edgeTo[edge])
            body(
                osmNodes[from], osmNodes[to], Double(edgeDuration[edge]), positions[from].distance(to: positions[to]),
                ways[Int(edgeWay[edge])].osmID)
        }
    }

    /// A key for each edge that names it across imports of the same roads: a hash of its two
    /// OpenStreetMap nodes and of how many edges between the same two came before it (parallel
    /// ways, a via-restriction's copies). Edge indices change with every import; these keys
    /// let a hierarchy built on a changed network keep the contraction order of the last one
    /// (``ContractionHierarchy/Ordering``). A way split in two keeps its edges' keys.
    public func edgeKeys() -> [UInt64] {
        var seen: [SIMD2<Int64>: UInt64] = [:]
        seen.reserveCapacity(edgeCount)
        return (0..<edgeCount).map { edge in
            let ends = SIMD2(osmNodes[Int(edgeFrom[edge])], osmNodes[Int(edgeTo[edge])])
            let occurrence = seen[ends, default: 0]
            seen[ends] = occurrence + 1
            return Self.scramble(
                Self.scramble(Self.scramble(UInt64(bitPattern: ends.x)) ^ UInt64(bitPattern: ends.y)) ^ occurrence)
        }
    }

    /// SplitMix64's finaliser: every bit of `value` spread over the result.
    private static func scramble(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// What the graph is, in a few characters: a hash of its edges (ends, weights, restrictions)
    /// and of every allowed turn's weight. A stored hierarchy built from another graph (the
    /// network or the profile's rules changed) has another fingerprint.
    public func fingerprint() -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash = (hash ^ ((value >> UInt64(shift)) & 0xff)) &* 0x100_0000_01b3
            }
        }
        mix(UInt64(edgeCount))
        for edge in 0..<edgeCount {
            mix(UInt64(UInt32(bitPattern: edgeFrom[edge])) << 32 | UInt64(UInt32(bitPattern: edgeTo[edge])))
            mix(UInt64(edgeWeight[edge].bitPattern) << 1 | (edgeRestricted[edge] ? 1 : 0))
            let node = Int(edgeTo[edge])
            for out in outEdges(of: node) where allows(Int32(edge), out) {
                mix(UInt64(UInt32(bitPattern: out)) << 32 | UInt64(turnWeight(Int32(edge), out).bitPattern))
            }
        }
        return "\(profile.mode.rawValue)-\(edgeCount)-" + String(hash, radix: 16)
    }

    /// Edge weights with the roads of `features` weighing ``TravelProfile/avoidanceFactor``
    /// times more; nil when the graph has none of them.
    func weights(avoiding features: Set<TravelProfile.RoadFeature>) -> [Float]? {
        let bits = features.reduce(UInt8(0)) { $0 | $1.bit }
        guard bits != 0, wayFeatures.contains(where: { $0 & bits != 0 }) else { return nil }
        return (0..<edgeCount).map { edge in
            wayFeatures[Int(edgeWay[edge])] & bits != 0
                ? edgeWeight[edge] * TravelProfile.avoidanceFactor : edgeWeight[edge]
        }
    }

    /// The kinds of road among `features` that the way of `edge` is.
    func features(of edge: Int32, among features: Set<TravelProfile.RoadFeature>) -> [TravelProfile.RoadFeature] {
        features.sorted().filter { wayFeatures[Int(edgeWay[Int(edge)])] & $0.bit != 0 }
    }

    /// Each edge's length, metres: the great-circle distance between its two nodes (worked
    /// out on first use and kept).
    var edgeLengths: [Float] {
        lengthBox.lock.withLock {
            if let made = lengthBox.value { return made }
            let made = (0..<edgeCount).map {
                Float(positions[Int(edgeFrom[$0])].distance(to: positions[Int(edgeTo[$0])]))
            }
            lengthBox.value = made
            return made
        }
    }
    private let lengthBox = SharedBox<[Float]>()
    /// What moves cost in map matching (``MatchCosts``), worked out on first use and kept.
    let matchCostBox = SharedBox<MatchCosts>()

    /// Number of nodes and of directed edges.
    public var nodeCount: Int { positions.count }
    /// Number of directed edges.
    public var edgeCount: Int { edgeWeight.count }

    static func cell(_ coordinate: Coordinate) -> (Int, Int) {
        (Int((coordinate.latitude / cellSize).rounded(.down)), Int((coordinate.longitude / cellSize).rounded(.down)))
    }

    static func key(_ row: Int, _ column: Int) -> Int64 { Int64(row) << 32 | Int64(UInt32(bitPattern: Int32(column))) }

    /// The grid cells a segment's box covers.
    static func cells(from a: Coordinate, to b: Coordinate) -> [Int64] {
        let (rowA, columnA) = cell(a)
        let (rowB, columnB) = cell(b)
        var keys: [Int64] = []
        for row in min(rowA, rowB)...max(rowA, rowB) {
            for column in min(columnA, columnB)...max(columnA, columnB) { keys.append(key(row, column)) }
        }
        return keys
    }

    /// Where a point meets the network: the nearest segment this mode can travel, the fraction
    /// along it (0 at `from`), the point on it and the distance to it in metres.
    public struct Snap: Sendable {
        var segment: Int32
        /// How far along the segment, 0 (its start) to 1 (its end).
        public var fraction: Double
        /// The point on the segment nearest the one snapped.
        public var point: Coordinate
        /// Metres from the point snapped to the segment.
        public var distance: Double
        /// The point snapped (as asked for, off the road).
        public var input: Coordinate
        /// The directions along its segment a route passes the point in, and nothing else,
        /// when these are held to (an ``Approach``, or a stop not turned back at); nil for any
        /// way, through the node it lies on by any road of the node's too.
        public var directions: Directions?
    }

    /// The nearest usable segment within `radius` metres of `point` that a route can meet the
    /// point on as `approach` asks; nil when none is that near.
    public func snap(_ point: Coordinate, within radius: Double = 5_000, approach: Approach = .any) throws -> Snap? {
        try snaps(point, within: radius, largeOnly: false, count: 1, approach: approach).first
    }

    /// The nearest segment of the network's large pieces within `radius` metres that a route
    /// can meet the point on as `approach` asks, or nil.
    public func snapToLargePiece(_ point: Coordinate, within radius: Double = 5_000, approach: Approach = .any) throws
        -> Snap?
    {
        try snaps(point, within: radius, largeOnly: true, count: 1, approach: approach).first
    }

    /// The node a snap lies on (at an end of its segment), or nil in between.
    func node(at snap: Snap) -> Int? {
        let segment = segments[Int(snap.segment)]
        return snap.fraction <= 0 ? Int(segment.from) : snap.fraction >= 1 ? Int(segment.to) : nil
    }

    /// Whether a snap lies in one of the network's large pieces.
    func isInLargePiece(_ snap: Snap) -> Bool {
        let segment = segments[Int(snap.segment)]
        return isLargePiece[Int(segment.from)] && isLargePiece[Int(segment.to)]
    }

    /// The `count` nearest usable segments within `radius` metres of `point` that a route can
    /// meet the point on as `approach` asks, nearest first (OSRM's `nearest` service): each
    /// segment once, with where on it the point is nearest.
    public func snaps(_ point: Coordinate, count: Int, within radius: Double = 5_000, approach: Approach = .any)
        throws -> [Snap]
    {
        try snaps(point, within: radius, largeOnly: false, count: max(count, 1), approach: approach)
    }

    private func snaps(_ point: Coordinate, within radius: Double, largeOnly: Bool, count: Int, approach: Approach)
        throws -> [Snap]
    {
        // Where the point met the roads before, as its hint says (``hint(of:)``): there again.
        if count == 1, let hint = approach.hint, let snap = snap(hinted: hint, at: point, approach: approach) {
            return [snap]
        }
        guard let extent, let southWest = extent.southWest, let northEast = extent.northEast else { return [] }
        // No farther than the extent's farthest corner: every segment is nearer than that.
        let corners = [
            southWest, northEast, Coordinate(latitude: southWest.latitude, longitude: northEast.longitude),
            Coordinate(latitude: northEast.latitude, longitude: southWest.longitude),
        ]
        let radius = min(radius, approach.radius ?? .infinity, corners.map { point.distance(to: $0) }.max()! + 1)
        let plane = LocalPlane(around: point)
        // The nearest found so far, nearest first, at most `count`; and how near a segment must
        // be to join them.
        var found: [Snap] = []
        var bound: Double { found.count < count ? .infinity : found[found.count - 1].distance }
        func consider(_ slots: Range<Int>) {
            for slot in slots {
                let index = grid.values[slot]
                let segment = self.segments[Int(index)]
                guard segment.isStartpoint || approach.anyRoad else { continue }
                if largeOnly && !(isLargePiece[Int(segment.from)] && isLargePiece[Int(segment.to)]) { continue }
                let (fraction, onto, metres) = plane.nearest(
                    onSegment: positions[Int(segment.from)], positions[Int(segment.to)])
                guard metres <= radius, metres < bound, !found.contains(where: { $0.segment == index }) else {
                    continue
                }
                var snap = Snap(segment: index, fraction: fraction, point: onto, distance: metres, input: point)
                if !approach.isAnyWay {
                    snap.directions = directions(of: index, meeting: point, as: approach)
                    if snap.directions!.isEmpty { continue }
                }
                found.insert(snap, at: found.firstIndex { $0.distance > metres } ?? found.count)
                if found.count > count { found.removeLast() }
            }
        }
        let shrink = max(0.2, cos(point.latitude * .pi / 180))
        // Rings of cells around the point, nearest first, until the next ring is farther than
        // the segments found: fine cells nearby, coarse ones (each a block of fine ones) beyond.
        let (row, column) = Self.cell(point)
        let (coarseRow, coarseColumn) = (
            Self.floorDivide(row, Self.coarseFactor), Self.floorDivide(column, Self.coarseFactor)
        )
        let fineMetres = Self.cellSize * 111_000 * shrink
        // No fine rings where the coarse cells around hold no road (out at sea, in a wood): the
        // coarse search below finds the nearest without looking into hundreds of empty cells.
        let roadsAround = (-1...1).contains { dr in
            (-1...1).contains { dc in !coarseGrid.range(Self.key(coarseRow + dr, coarseColumn + dc)).isEmpty }
        }
        let fineRings = roadsAround ? min(Int((radius / fineMetres).rounded(.up)) + 1, Self.fineRingLimit) : -1
        if fineRings >= 0 {
            for ring in 0...fineRings {
                if Double(ring - 1) * fineMetres > bound { return found }
                for (r, c) in Self.ring(ring, around: (row, column)) { consider(grid.range(Self.key(r, c))) }
            }
            // Done when no cell beyond the rings searched can hold anything nearer.
            if Double(fineRings) * fineMetres >= min(radius, bound) { return found }
        }
        // Beyond, best first: the coarse cells ring by ring, each queued by its least distance
        // from the point; taken off the queue nearest first once no cell of a later ring can be
        // nearer, a coarse cell queues its fine cells not searched yet, a fine cell has its
        // segments considered; a cell no nearer than the segments found is left whole. A point
        // far out at sea thus reads the few cells along the nearest shore, not every cell of the
        // rings out to it.
        let coarseMetres = fineMetres * Double(Self.coarseFactor)
        let coarseRings = Int((radius / coarseMetres).rounded(.up)) + 1
        var queue = MinHeap()
        // The queued cells, coarse and fine, by the index the queue holds.
        var queued: [(key: Int64, isFine: Bool)] = []
        func enqueue(_ key: Int64, isFine: Bool, least: Double) {
            guard least < min(radius, bound) else { return }
            queue.push(Float(least), Int32(queued.count))
            queued.append((key, isFine))
        }
        /// Searches the queued cells nearer than `limit` metres, nearest first.
        func searchQueued(nearerThan limit: Double) {
            while !queue.isEmpty, Double(queue.minimum) < limit {
                let (least, index) = queue.pop()
                if Double(least) >= min(radius, bound) { continue }
                let (key, isFine) = queued[Int(index)]
                if isFine {
                    consider(grid.range(key))
                    continue
                }
                for slot in coarseGrid.range(key) {
                    let fine = coarseGrid.values[slot]
                    let (fineRow, fineColumn) = (Int(fine >> 32), Int(Int32(truncatingIfNeeded: fine)))
                    if max(abs(fineRow - row), abs(fineColumn - column)) <= fineRings { continue }
                    enqueue(
                        fine, isFine: true,
                        least: Self.leastMetres(from: point, row: fineRow, fineColumn, cells: 1, in: plane))
                }
            }
        }
        for ring in 0...coarseRings {
            let ringLeast = Double(ring - 1) * coarseMetres
            searchQueued(nearerThan: ringLeast)
            if ringLeast > min(radius, bound) { break }
            for (r, c) in Self.ring(ring, around: (coarseRow, coarseColumn)) {
                let key = Self.key(r, c)
                guard !coarseGrid.range(key).isEmpty else { continue }
                enqueue(
                    key, isFine: false,
                    least: Self.leastMetres(
                        from: point, row: r * Self.coarseFactor, c * Self.coarseFactor, cells: Self.coarseFactor,
                        in: plane))
            }
        }
        searchQueued(nearerThan: .infinity)
        return found
    }

    /// The least distance in metres, on `plane` (around `point`), from `point` to any point of
    /// the square of `cells` × `cells` fine cells whose south-west cell is (`row`, `column`), a
    /// little under it so that rounding never makes it more.
    static func leastMetres(from point: Coordinate, row: Int, _ column: Int, cells: Int, in plane: LocalPlane) -> Double
    {
        let (south, west) = (Double(row) * cellSize, Double(column) * cellSize)
        let north = south + Double(cells) * cellSize
        let east = west + Double(cells) * cellSize
        let degreesNorth = max(0, south - point.latitude, point.latitude - north)
        let degreesEast = max(0, west - point.longitude, point.longitude - east)
        let y = degreesNorth * LocalPlane.metresPerDegreeLatitude
        let x = degreesEast * plane.metresPerDegreeLongitude
        return max(0, (x * x + y * y).squareRoot() * 0.999 - 0.01)
    }

    /// Fine cells to a side of a coarse cell, and the rings of fine cells searched before the
    /// coarse ones.
    static let coarseFactor = 16
    static let fineRingLimit = 8

    static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// The cells at Chebyshev distance `ring` from `center`: its perimeter only.
    static func ring(_ ring: Int, around center: (Int, Int)) -> [(Int, Int)] {
        guard ring > 0 else { return [center] }
        var cells: [(Int, Int)] = []
        cells.reserveCapacity(8 * ring)
        for c in (center.1 - ring)...(center.1 + ring) {
            cells.append((center.0 - ring, c))
            cells.append((center.0 + ring, c))
        }
        for r in (center.0 - ring + 1)...(center.0 + ring - 1) {
            cells.append((r, center.1 - ring))
            cells.append((r, center.1 + ring))
        }
        return cells
    }
}
