import Foundation
import GeoCore
import HTTPServer
import TestSupport
import Testing

@testable import MapData

/// `data install --region` against a loopback host: a catalogue in Geofabrik's layout, an
/// extract (central Monaco) served by ranges with its MD5, a broken download resumed, a damaged
/// one refused before anything is imported.
@Suite struct RegionInstallTests {
    /// Serves the catalogue, the extract and its checksum, by ranges; keeps the ranges asked.
    final class Host: @unchecked Sendable {
        let extract: [UInt8]
        var checksum: String
        private let lock = NSLock()
        private var asked: [String] = []
        var ranges: [String] { lock.withLock { asked } }
        private(set) var server: HTTPServer!

        init() throws {
            extract = [UInt8](FileManager.default.contents(atPath: UpdateTests.monaco)!)
            var sum = MD5()
            sum.update(extract)
            checksum = sum.hex()
            server = try HTTPServer(port: 0, threads: 1) { [unowned self] request in self.answer(request) }
        }

        var base: String { "http://127.0.0.1:\(server.port)" }

        var catalogue: [UInt8] {
            let json: [String: Any] = [
                "type": "FeatureCollection",
                "features": [
                    [
                        "type": "Feature",
                        "properties": [
                            "id": "monaco-centre", "name": "Monaco (centre)", "parent": "europe",
                            "urls": [
                                "pbf": "\(base)/europe/monaco-centre-latest.osm.pbf",
                                "updates": "\(base)/europe/monaco-centre-updates",
                            ],
                        ],
                        "geometry": [
                            "type": "Polygon",
                            "coordinates": [[[7.40, 43.72], [7.44, 43.72], [7.44, 43.76], [7.40, 43.72]]],
                        ],
                    ]
                ],
            ]
            return [UInt8](try! JSONSerialization.data(withJSONObject: json))
        }

        func answer(_ request: HTTPRequest) -> HTTPResponse {
            switch request.path {
            case "/index-v1.json": return HTTPResponse(status: 200, body: catalogue)
            case "/europe/monaco-centre-latest.osm.pbf.md5":
                return HTTPResponse(status: 200, body: Array("\(checksum)  monaco-centre-latest.osm.pbf\n".utf8))
            case "/europe/monaco-centre-latest.osm.pbf":
                guard let range = request.headers["range"], range.hasPrefix("bytes="),
                    case let bounds = range.dropFirst(6).split(separator: "-").compactMap({ Int($0) }),
                    bounds.count == 2
                else { return HTTPResponse(status: 200, body: extract) }
                lock.withLock { asked.append(range) }
                guard bounds[0] < extract.count else { return HTTPResponse(status: 416) }
                let end = min(bounds[1], extract.count - 1)
                return HTTPResponse(
                    status: 206, headers: [("Content-Range", "bytes \(bounds[0])-\(end)/\(extract.count)")],
                    body: Array(extract[bounds[0]...end]))
            default: return HTTPResponse(status: 404)
            }
        }
    }

    @Test func aRegionIsDownloadedByRangesResumedCheckedAndImported() throws {
        let host = try Host()
        defer { host.server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let installer = DataInstaller(directory: directory, store: directory + "/store.sqlite")
        let catalogue = try RegionCatalogue(location: host.base + "/index-v1.json")
        let region = try catalogue.region(named: "Monaco (centre)")
        #expect(region.id == "monaco-centre" && region.parent == "europe")
        #expect(region.bounds?.southWest?.latitude == 43.72 && region.bounds?.northEast?.longitude == 7.44)
        // A download that broke off after 100,000 bytes.
        let partial = directory + "/regions/monaco-centre.osm.pbf.partial"
        try FileManager.default.createDirectory(atPath: directory + "/regions", withIntermediateDirectories: true)
        try Data(host.extract[..<100_000]).write(to: URL(fileURLWithPath: partial))
        let installed = try installer.installRegion("monaco-centre", from: catalogue)
        #expect(installed.download.resumedAt == 100_000 && installed.download.bytes == host.extract.count)
        #expect(installed.download.md5 == host.checksum)
        #expect(host.ranges.first == "bytes=100000-\(100_000 + RegionDownload.pieceSize - 1)")
        #expect(installed.report.region == "monaco-centre" && installed.report.features > 1000)
        #expect(FileManager.default.contents(atPath: installed.file) == Data(host.extract))
        #expect(!FileManager.default.fileExists(atPath: partial))
        let position = try OSMReplication.position(storePath: installer.storePath, region: nil)
        #expect(position.url == host.base + "/europe/monaco-centre-updates")
        // Pieces smaller than the file: every byte comes, in order.
        let pieces = directory + "/pieces.osm.pbf"
        try RegionDownload.fetch(region.pbf, to: pieces, pieceSize: 65_536)
        #expect(FileManager.default.contents(atPath: pieces) == Data(host.extract))
    }

    @Test func aDownloadThatDoesNotMatchItsChecksumIsRefusedBeforeTheImport() throws {
        let host = try Host()
        defer { host.server.stop() }
        host.checksum = String(repeating: "0", count: 32)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let installer = DataInstaller(directory: directory, store: directory + "/store.sqlite")
        let catalogue = try RegionCatalogue(location: host.base + "/index-v1.json")
        #expect {
            try installer.installRegion("monaco-centre", from: catalogue)
        } throws: { "\($0)".contains("does not match its published MD5") }
        #expect(!FileManager.default.fileExists(atPath: installer.storePath))
        #expect(!FileManager.default.fileExists(atPath: directory + "/regions/monaco-centre.osm.pbf.partial"))
        #expect(throws: DataError.self) { try catalogue.region(named: "atlantis") }
    }

    @Test func theChecksumIsMD5() {
        func md5(_ text: String) -> String {
            var sum = MD5()
            sum.update(Array(text.utf8))
            return sum.hex()
        }
        // RFC 1321's test suite.
        #expect(md5("") == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(md5("abc") == "900150983cd24fb0d6963f7d28e17f72")
        #expect(md5("message digest") == "f96b697d7cb7938d525a2f31aaf161d0")
        #expect(
            md5("12345678901234567890123456789012345678901234567890123456789012345678901234567890")
                == "57edf4a22be3c955ac49da2e2107b67a")
        // Fed in uneven pieces, the same sum.
        var pieces = MD5()
        let text = Array("12345678901234567890123456789012345678901234567890123456789012345678901234567890".utf8)
        for start in stride(from: 0, to: text.count, by: 7) {
            pieces.update(Array(text[start..<min(start + 7, text.count)]))
        }
        #expect(pieces.hex() == "57edf4a22be3c955ac49da2e2107b67a")
    }
}
