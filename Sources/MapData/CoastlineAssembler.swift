import GeoCore

/// The land and sea of an extract from its `natural=coastline` ways, within the extract's box,
/// as osmcoastline makes them: the ways joined end to end into chains (a coastline has the land
/// on its left), each chain cut to the box, and the pieces that leave the box closed along its
/// edge, turning left (anticlockwise), to the next piece that enters it. A closed chain inside
/// the box is an island (anticlockwise) or a sea inside land (clockwise). A chain that ends
/// inside the box, away from its edge, cannot be closed: it is reported, never guessed.
enum CoastlineAssembler {
    /// A coastline way: its node ids (to join ways) and positions, in the way's direction.
    struct Way {
        var nodeIDs: [Int64]
        var coordinates: [Coordinate]
    }

    /// What the coastline makes of the box.
    struct Result: Equatable {
        /// The land, each an anticlockwise ring (first == last).
        var land: [[Coordinate]]
        /// Seas enclosed by land (clockwise rings inside the box), holes of the land.
        var enclosedSeas: [[Coordinate]]
        /// Chains left out: they end inside the box, away from its edge (their end points).
        var broken: [Coordinate]
    }

    /// How far from the box's edge (as a share of the box's larger side) a chain's end still
    /// counts as on it: an extract cut by its nodes ends a way at its last node inside.
    static let edgeTolerance = 0.02

    /// The land and enclosed seas of `ways` within `box`; nil when there is no coastline.
    static func assemble(_ ways: [Way], in box: CoordinateBounds) -> Result? {
        guard let southWest = box.southWest, let northEast = box.northEast, !ways.isEmpty else { return nil }
        let rectangle = Rectangle(
            west: southWest.longitude, south: southWest.latitude, east: northEast.longitude, north: northEast.latitude)
        var result = Result(land: [], enclosedSeas: [], broken: [])
        var pieces: [[Coordinate]] = []
        for chain in chains(ways) {
            let closed = chain.first == chain.last && chain.count >= 4
            if closed && chain.allSatisfy(rectangle.contains) {
                if signedArea(chain) >= 0 { result.land.append(chain) } else { result.enclosedSeas.append(chain) }
                continue
            }
            for piece in rectangle.clip(chain, closed: closed) {
                guard var first = piece.first, var last = piece.last else { continue }
                let tolerance = edgeTolerance * max(rectangle.east - rectangle.west, rectangle.north - rectangle.south)
                guard rectangle.distanceToEdge(first) <= tolerance, rectangle.distanceToEdge(last) <= tolerance else {
                    result.broken.append(rectangle.distanceToEdge(first) > tolerance ? first : last)
                    continue
                }
                first = rectangle.snap(first)
                last = rectangle.snap(last)
                pieces.append([first] + piece.dropFirst().dropLast() + [last])
            }
        }
        result.land += closeAlongTheEdge(pieces, rectangle)
        if pieces.isEmpty && result.land.isEmpty && !result.enclosedSeas.isEmpty {
            // Only seas within land: the whole box is land around them.
            result.land.append(rectangle.ring)
        }
        return result
    }

    /// The ways joined end to end (a way's last node the next one's first), in the ways' direction.
    static func chains(_ ways: [Way]) -> [[Coordinate]] {
        var byFirst: [Int64: Int] = [:]
        for (index, way) in ways.enumerated() where way.nodeIDs.count >= 2 {
            byFirst[way.nodeIDs[0]] = index
        }
        var used = Set<Int>()
        var chains: [[Coordinate]] = []
        // Start from ways no other way leads into, then whatever is left (closed loops).
        let ends = Set(ways.compactMap { $0.nodeIDs.count >= 2 ? $0.nodeIDs.last : nil })
        let starts =
            ways.indices.filter { ways[$0].nodeIDs.count >= 2 && !ends.contains(ways[$0].nodeIDs[0]) } + ways.indices
        for start in starts where !used.contains(start) && ways[start].nodeIDs.count >= 2 {
            var index = start
            var chain: [Coordinate] = []
            while !used.contains(index) {
                used.insert(index)
                chain += chain.isEmpty ? ways[index].coordinates : Array(ways[index].coordinates.dropFirst())
                guard let last = ways[index].nodeIDs.last, let next = byFirst[last] else { break }
                index = next
            }
            chains.append(chain)
        }
        return chains
    }

    /// Twice the signed area of a ring in degrees (positive anticlockwise).
    static func signedArea(_ ring: [Coordinate]) -> Double {
        zip(ring, ring.dropFirst()).reduce(0) {
            $0 + ($1.0.longitude * $1.1.latitude - $1.1.longitude * $1.0.latitude)
        }
    }

    /// Rings from pieces whose ends lie on the box's edge: from each piece's end, along the edge
    /// anticlockwise to the nearest piece's start, and on.
    static func closeAlongTheEdge(_ pieces: [[Coordinate]], _ rectangle: Rectangle) -> [[Coordinate]] {
        var left = Set(pieces.indices)
        var rings: [[Coordinate]] = []
        while let first = left.min() {
            var ring: [Coordinate] = []
            var current = first
            while true {
                left.remove(current)
                ring += pieces[current]
                let exit = rectangle.perimeter(pieces[current].last!)
                // The next start anticlockwise from the exit (this ring's first piece among them).
                let candidates = Array(left) + [first]
                let next = candidates.min {
                    Rectangle.ahead(exit, rectangle.perimeter(pieces[$0][0]))
                        < Rectangle.ahead(exit, rectangle.perimeter(pieces[$1][0]))
                }!
                ring += rectangle.corners(from: exit, to: rectangle.perimeter(pieces[next][0]))
                if next == first { break }
                current = next
            }
            ring.append(ring[0])
            rings.append(ring)
        }
        return rings
    }

    /// The box, with its edge walked as a perimeter: 0 at the south-west corner, 1 the
    /// south-east, 2 the north-east, 3 the north-west (anticlockwise).
    struct Rectangle {
        var west: Double
        var south: Double
        var east: Double
        var north: Double

        func contains(_ point: Coordinate) -> Bool {
            point.longitude >= west && point.longitude <= east && point.latitude >= south && point.latitude <= north
        }

        /// The box as an anticlockwise ring.
        var ring: [Coordinate] {
            [
                Coordinate(latitude: south, longitude: west), Coordinate(latitude: south, longitude: east),
                Coordinate(latitude: north, longitude: east), Coordinate(latitude: north, longitude: west),
                Coordinate(latitude: south, longitude: west),
            ]
        }

        func distanceToEdge(_ point: Coordinate) -> Double {
            min(
                abs(point.longitude - west), abs(point.longitude - east), abs(point.latitude - south),
                abs(point.latitude - north))
        }

        /// `point` moved onto the nearest edge.
        func snap(_ point: Coordinate) -> Coordinate {
            let distances = [
                abs(point.latitude - south), abs(point.longitude - east), abs(point.latitude - north),
                abs(point.longitude - west),
            ]
            let longitude = min(max(point.longitude, west), east)
            let latitude = min(max(point.latitude, south), north)
            switch distances.firstIndex(of: distances.min()!)! {
            case 0: return Coordinate(latitude: south, longitude: longitude)
            case 1: return Coordinate(latitude: latitude, longitude: east)
            case 2: return Coordinate(latitude: north, longitude: longitude)
            default: return Coordinate(latitude: latitude, longitude: west)
            }
        }

        /// Where a point on the edge is along the perimeter, 0..<4.
        func perimeter(_ point: Coordinate) -> Double {
            let width = max(east - west, 1e-12)
            let height = max(north - south, 1e-12)
            let distances = [
                abs(point.latitude - south), abs(point.longitude - east), abs(point.latitude - north),
                abs(point.longitude - west),
            ]
            switch distances.firstIndex(of: distances.min()!)! {
            case 0: return (point.longitude - west) / width
            case 1: return 1 + (point.latitude - south) / height
            case 2: return 2 + (east - point.longitude) / width
            default:
                let t = 3 + (north - point.latitude) / height
                return t >= 4 ? 0 : t
            }
        }

        /// How far anticlockwise `to` is from `from` on the perimeter, in (0, 4].
        static func ahead(_ from: Double, _ to: Double) -> Double {
            let distance = (to - from).truncatingRemainder(dividingBy: 4)
            let forward = distance < 0 ? distance + 4 : distance
            return forward <= 1e-12 ? 4 : forward
        }

        /// The corners passed going anticlockwise from `from` to `to`.
        func corners(from: Double, to: Double) -> [Coordinate] {
            let span = Self.ahead(from, to)
            let corners = ring
            var passed: [Coordinate] = []
            var corner = (from + 1e-12).rounded(.up)
            while corner - from < span - 1e-12 {
                passed.append(corners[Int(corner.truncatingRemainder(dividingBy: 4))])
                corner += 1
            }
            return passed
        }

        /// The parts of `line` inside the box, each from where it enters to where it leaves
        /// (a closed line's part through its start joined into one).
        func clip(_ line: [Coordinate], closed: Bool) -> [[Coordinate]] {
            var pieces: [[Coordinate]] = []
            var current: [Coordinate] = []
            for (a, b) in zip(line, line.dropFirst()) {
                if current.isEmpty, contains(a) { current = [a] }
                let (enter, leave) = crossings(a, b)
                if !contains(a), let enter { current = [enter] }
                if contains(b) {
                    if !current.isEmpty { current.append(b) }
                } else if !current.isEmpty {
                    if let leave { current.append(leave) }
                    pieces.append(current)
                    current = []
                }
            }
            if !current.isEmpty { pieces.append(current) }
            // A closed line cut by the box: its last piece runs on into its first.
            if closed, pieces.count >= 2, let last = pieces.last, let first = pieces.first, last.last == first.first,
                contains(first[0])
            {
                pieces[0] = last + first.dropFirst()
                pieces.removeLast()
            }
            return pieces
        }

        /// Where segment `a`–`b` enters and leaves the box (Liang–Barsky), nil where it does not.
        func crossings(_ a: Coordinate, _ b: Coordinate) -> (enter: Coordinate?, leave: Coordinate?) {
            let dx = b.longitude - a.longitude
            let dy = b.latitude - a.latitude
            var low = 0.0
            var high = 1.0
            for (p, q) in [
                (-dx, a.longitude - west), (dx, east - a.longitude), (-dy, a.latitude - south),
                (dy, north - a.latitude),
            ] {
                if p == 0 {
                    if q < 0 { return (nil, nil) }
                } else {
                    let t = q / p
                    if p < 0 { low = max(low, t) } else { high = min(high, t) }
                }
            }
            guard low <= high else { return (nil, nil) }
            func at(_ t: Double) -> Coordinate {
                Coordinate(latitude: a.latitude + t * dy, longitude: a.longitude + t * dx)
            }
            return (low > 0 ? at(low) : nil, high < 1 ? at(high) : nil)
        }
    }
}
