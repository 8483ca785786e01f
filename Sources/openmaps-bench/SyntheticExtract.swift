import Foundation
import OSMWriter

/// `openmaps-bench synthetic --nodes N --out FILE.osm.pbf`: a country-size OSM PBF made up for
/// the import benchmark, valid for osmium and osm2pgsql, in the proportions of real data.
///
/// The land is a square grid of 200 m cells from 50°N 10°E northwards and eastwards. Each cell
/// has 100 nodes: a named residential street of 35 nodes (a way), 15 buildings of 4 corners
/// (closed ways, every third with an address), a café (a tagged node), and a park of 4 corners
/// (an untagged closed way) that every fifth cell makes a `leisure=park` multipolygon relation.
/// So 50 million nodes make 8 million ways and 100,000 relations. Ids are 1, 2, 3, … per
/// element type; nodes, ways and relations come in that order, 8,000 a block, zlib-compressed.
enum SyntheticExtract {
    static let nodesPerCell = 100
    static let cellDegrees = 0.002
    static let blockSize = 8000

    static func run(_ arguments: [String]) throws {
        let flags = BenchFlags(arguments)
        let nodes = flags.int("--nodes", or: 50_000_000)
        guard let output = flags["--out"] else {
            throw BenchError("usage: openmaps-bench synthetic --nodes N --out FILE.osm.pbf")
        }
        let cells = max(1, nodes / nodesPerCell)
        let side = Int(Double(cells).squareRoot().rounded(.up))
        let start = Date()
        guard FileManager.default.createFile(atPath: output + ".partial", contents: nil),
            let file = FileHandle(forWritingAtPath: output + ".partial")
        else { throw BenchError("cannot write \(output).partial") }
        let north = 50 + Double(side) * cellDegrees
        let east = 10 + Double(side) * cellDegrees
        try file.write(
            contentsOf: PBFWriter.blob(
                type: "OSMHeader",
                payload: PBFWriter.headerBlock(
                    required: ["OsmSchema-V0.6", "DenseNodes"], bounds: (10, 50, east, north)),
                compress: true))
        func flush(dense: [TestNode] = [], ways: [TestWay] = [], relations: [TestRelation] = []) throws {
            let block = PBFWriter.primitiveBlock(dense: dense, plain: [], ways: ways, relations: relations)
            try file.write(contentsOf: PBFWriter.blob(type: "OSMData", payload: block, compress: true))
        }
        // Nodes, cell by cell.
        var pending: [TestNode] = []
        pending.reserveCapacity(blockSize + nodesPerCell)
        for cell in 0..<cells {
            pending += cellNodes(cell, side: side)
            if pending.count >= blockSize {
                try flush(dense: pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        if !pending.isEmpty { try flush(dense: pending) }
        // Ways: 17 a cell (the street, 15 buildings, the park's ring).
        var ways: [TestWay] = []
        for cell in 0..<cells {
            ways += cellWays(cell)
            if ways.count >= blockSize {
                try flush(ways: ways)
                ways.removeAll(keepingCapacity: true)
            }
        }
        if !ways.isEmpty { try flush(ways: ways) }
        // Relations: every fifth cell's park.
        var relations: [TestRelation] = []
        for cell in stride(from: 0, to: cells, by: 5) {
            relations.append(
                TestRelation(
                    id: Int64(cell / 5 + 1), members: [(type: 1, id: Int64(cell * 17 + 17), role: "outer")],
                    tags: [("type", "multipolygon"), ("leisure", "park"), ("name", "Park \(cell / 5 + 1)")]))
            if relations.count >= blockSize {
                try flush(relations: relations)
                relations.removeAll(keepingCapacity: true)
            }
        }
        if !relations.isEmpty { try flush(relations: relations) }
        try file.close()
        guard rename(output + ".partial", output) == 0 else { throw BenchError("cannot rename into \(output)") }
        let size = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.intValue ?? 0
        print(
            String(
                format: "%@: %d nodes, %d ways, %d relations, %.0f MB in %.1f s", output, cells * nodesPerCell,
                cells * 17, (cells + 4) / 5, Double(size) / 1_048_576, Date().timeIntervalSince(start)))
    }

    /// The cell's south-west corner in 1e-7 degrees.
    static func origin(_ cell: Int, side: Int) -> (latitude: Int64, longitude: Int64) {
        let step = Int64((cellDegrees * 1e7).rounded())
        return (500_000_000 + Int64(cell / side) * step, 100_000_000 + Int64(cell % side) * step)
    }

    /// Node ids of a cell: `cell * 100 + 1` … `cell * 100 + 100`: 35 street nodes, the café,
    /// 60 building corners, 4 park corners.
    static func cellNodes(_ cell: Int, side: Int) -> [TestNode] {
        let (south, west) = origin(cell, side: side)
        let first = Int64(cell * nodesPerCell + 1)
        var nodes: [TestNode] = []
        nodes.reserveCapacity(nodesPerCell)
        // The street along the cell's south edge, 5.7 m between nodes.
        for index in 0..<35 {
            nodes.append(TestNode(id: first + Int64(index), latitude: south + 50, longitude: west + Int64(index) * 570))
        }
        nodes.append(
            TestNode(
                id: first + 35, latitude: south + 300, longitude: west + 9000,
                tags: [("amenity", "cafe"), ("name", "Café \(cell + 1)")]))
        // Buildings: 5 × 3 squares of 12 m, 40 m apart.
        for building in 0..<15 {
            let bottom = south + 500 + Int64(building / 5) * 4000
            let left = west + 500 + Int64(building % 5) * 4000
            let id = first + 36 + Int64(building * 4)
            let corners = [(bottom, left), (bottom, left + 1100), (bottom + 1100, left + 1100), (bottom + 1100, left)]
            for (offset, corner) in corners.enumerated() {
                nodes.append(TestNode(id: id + Int64(offset), latitude: corner.0, longitude: corner.1))
            }
        }
        // The park in the north-east corner.
        let park = [(16_000, 14_000), (16_000, 19_000), (19_000, 19_000), (19_000, 14_000)]
        for (offset, corner) in park.enumerated() {
            nodes.append(
                TestNode(
                    id: first + 96 + Int64(offset), latitude: south + Int64(corner.0), longitude: west + Int64(corner.1)
                ))
        }
        // Surveyed positions are never on a lattice: up to ±0.5 m of noise (a hash of the id), so
        // that the file compresses as real data does.
        return nodes.map { node in
            var node = node
            let hash = UInt64(bitPattern: node.id) &* 0x9E37_79B9_7F4A_7C15
            node.latitude += Int64(hash >> 58) - 32
            node.longitude += Int64((hash >> 52) & 63) - 32
            return node
        }
    }

    /// Way ids of a cell: `cell * 17 + 1` the street, `+ 2 … + 16` the buildings, `+ 17` the park.
    static func cellWays(_ cell: Int) -> [TestWay] {
        let firstNode = Int64(cell * nodesPerCell + 1)
        let firstWay = Int64(cell * 17 + 1)
        var ways = [
            TestWay(
                id: firstWay, refs: (0..<35).map { firstNode + Int64($0) },
                tags: [("highway", "residential"), ("name", "Street \(cell + 1)")])
        ]
        for building in 0..<15 {
            let corner = firstNode + 36 + Int64(building * 4)
            var tags = [("building", "yes")]
            if building % 3 == 0 {
                tags += [("addr:street", "Street \(cell + 1)"), ("addr:housenumber", "\(building + 1)")]
            }
            ways.append(
                TestWay(
                    id: firstWay + 1 + Int64(building), refs: [corner, corner + 1, corner + 2, corner + 3, corner],
                    tags: tags))
        }
        let park = firstNode + 96
        ways.append(TestWay(id: firstWay + 16, refs: [park, park + 1, park + 2, park + 3, park]))
        return ways
    }
}
