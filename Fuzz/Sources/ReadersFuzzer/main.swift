import CFuzzerDriver
import Foundation
import MapData
import OSMReader
import OSMWriter
import ZlibKit

/// libFuzzer entry point for the data readers: the first byte picks the reader, the rest is the
/// file. Any bytes must end in elements read or a clear error, never a crash, a hang or
/// unbounded memory (ASan and libFuzzer's own limits watch for those).
/// - 0: an OpenStreetMap extract (PBF or XML, plain, gzip or bzip2, told by content), every block read;
/// - 1: an OSM change file (`.osc`, plain or compressed);
/// - 2: a GTFS feed (a zip), its network and timetable read as an import reads them.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzReaders(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)
    guard FileManager.default.createFile(atPath: scratch, contents: Data(buffer: bytes)) else { return 0 }
    switch data[0] % 3 {
    case 0:
        if let file = try? OSMFile(path: scratch) { _ = try? file.summary() }
    case 1:
        _ = try? OSMChangeFile.read(scratch)
    default:
        _ = try? GTFSImporter.read(scratch)
    }
    return 0
}

/// The file each input is written to, one per process.
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
    "openmaps-fuzz-\(ProcessInfo.processInfo.processIdentifier)"
).path

/// `ReadersFuzzer --seeds DIR`: writes small valid inputs of each reader into DIR, to start the
/// corpus from.
func writeSeeds(into folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    func seed(_ name: String, _ selector: UInt8, _ bytes: [UInt8]) throws {
        try Data([selector] + bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
    }
    let nodes = [
        TestNode(id: 1, latitude: 601_700_000, longitude: 249_400_000, version: 1),
        TestNode(id: 2, latitude: 601_710_000, longitude: 249_410_000, tags: [("amenity", "cafe")], version: 2),
        TestNode(id: 3, latitude: 601_705_000, longitude: 249_420_000),
    ]
    let ways = [TestWay(id: 10, refs: [1, 2, 3, 1], tags: [("building", "yes"), ("name", "Talo")], version: 3)]
    let relations = [
        TestRelation(id: 20, members: [(1, 10, "outer")], tags: [("type", "multipolygon"), ("leisure", "park")])
    ]
    try seed("pbf", 0, PBFWriter.file(dense: nodes, ways: ways, relations: relations))
    try seed("pbf-raw", 0, PBFWriter.file(plain: nodes, ways: ways, relations: relations, compress: false))
    let xml = OSMXMLWriter.file(nodes: nodes, ways: ways, relations: relations)
    try seed("xml", 0, xml)
    try seed("xml-gz", 0, try Zlib.gzip(xml))
    let changes: [OSMChange] = [
        .init(
            action: .create,
            element: .node(
                OSMNode(id: 4, latitudeNano: 60_170_000_000, longitudeNano: 24_940_000_000, tags: [("shop", "bakery")]))
        ),
        .init(action: .modify, element: .way(OSMWay(id: 10, nodeIDs: [1, 2, 4, 1], tags: [("building", "yes")]))),
        .init(action: .delete, element: .node(OSMNode(id: 3, latitudeNano: 0, longitudeNano: 0, tags: []))),
    ]
    let osc = OSMChangeWriter.document(changes)
    try seed("osc", 1, osc)
    try seed("osc-gz", 1, try Zlib.gzip(osc))
    try seed(
        "gtfs", 2,
        storedZip([
            (
                "agency.txt",
                "agency_id,agency_name,agency_url,agency_timezone\nA,Metro,https://metro.example,Europe/Helsinki\n"
            ),
            (
                "stops.txt",
                "stop_id,stop_name,stop_lat,stop_lon\nS1,Kamppi,60.1690,24.9310\nS2,Rautatientori,60.1710,24.9440\n"
            ),
            ("routes.txt", "route_id,agency_id,route_short_name,route_type\nR1,A,M1,1\n"),
            ("trips.txt", "route_id,service_id,trip_id\nR1,WK,T1\n"),
            (
                "stop_times.txt",
                "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:03:00,08:03:00,S2,2\n"
            ),
            (
                "calendar.txt",
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\n"
            ),
        ]))
}

/// A zip archive of `files`, stored without compression.
func storedZip(_ files: [(String, String)]) -> [UInt8] {
    func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    var archive: [UInt8] = []
    var directory: [UInt8] = []
    for (name, text) in files {
        let body = Array(text.utf8)
        let crc = Int(Zlib.crc32(body))
        let offset = archive.count
        let common =
            le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4) + le(body.count, 4) + le(body.count, 4)
            + le(name.utf8.count, 2) + le(0, 2)
        archive += le(0x0403_4B50, 4) + common + Array(name.utf8) + body
        directory +=
            le(0x0201_4B50, 4) + le(20, 2) + common + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4)
            + le(offset, 4) + Array(name.utf8)
    }
    let end =
        le(0x0605_4B50, 4) + le(0, 2) + le(0, 2) + le(files.count, 2) + le(files.count, 2)
        + le(directory.count, 4) + le(archive.count, 4) + le(0, 2)
    return archive + directory + end
}

if CommandLine.arguments.count == 3 && CommandLine.arguments[1] == "--seeds" {
    do { try writeSeeds(into: CommandLine.arguments[2]) } catch {
        FileHandle.standardError.write(Data("cannot write the seeds: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzReaders(data, size) })
