import Foundation
import Testing

@testable import OSMReader

/// GPX traces as devices write them: track points in order with their times; routes and
/// waypoints when there is no track; what is wrong said with its line.
@Suite struct GPXReaderTests {
    /// Writes `text` to a file of its own and returns the path.
    static func file(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openmaps-\(UUID()).gpx")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func trackPointsInOrderWithTheirTimes() throws {
        let path = try Self.file(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="a phone" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata><time>2020-01-01T00:00:00Z</time></metadata>
              <wpt lat="1" lon="2"><name>not a track point</name></wpt>
              <trk><name>Morning &amp; ride</name>
                <trkseg>
                  <trkpt lat="43.7310" lon="7.4180"><ele>12.5</ele><time>2026-12-01T22:34:41Z</time></trkpt>
                  <trkpt lat="43.7312" lon="7.4183"><time>2026-12-01T23:34:42.5+01:00</time></trkpt>
                </trkseg>
                <trkseg><trkpt lat="-43.7314" lon="-7.4186"/></trkseg>
              </trk>
            </gpx>
            """)
        let points = try GPXReader.points(path: path)
        #expect(points.count == 3)
        #expect(points[0] == GPXPoint(latitude: 43.7310, longitude: 7.4180, time: 1_796_164_481))
        #expect(points[1].time == 1_796_164_482.5)
        #expect(points[2].latitude == -43.7314 && points[2].time == nil)
    }

    @Test func routeOrWaypointsWithoutATrack() throws {
        let route = try Self.file(
            #"<gpx version="1.1"><wpt lat="5" lon="6"/><rte><rtept lat="1" lon="2"/><rtept lat="3" lon="4"/></rte></gpx>"#
        )
        #expect(try GPXReader.points(path: route).map(\.latitude) == [1, 3])
        let waypoints = try Self.file(#"<gpx version="1.0"><wpt lat="5" lon="6"/></gpx>"#)
        #expect(try GPXReader.points(path: waypoints).map(\.longitude) == [6])
    }

    @Test func isoTimes() {
        #expect(GPXReader.unixTime("1970-01-01T00:00:00Z") == 0)
        #expect(GPXReader.unixTime("2000-02-29T12:00:00.5+01:30") == 951_820_200.5)
        #expect(GPXReader.unixTime("2000-02-29T12:00:00-0100") == 951_829_200)
        #expect(GPXReader.unixTime("2026-12-01T22:34:41") == 1_796_164_481)
        for wrong in [
            "2026-13-01T00:00:00Z", "2026-12-01", "yesterday", "2026-12-01T22:34:41Zulu", "2026-12-01T25:00:00Z",
        ] {
            #expect(GPXReader.unixTime(wrong) == nil, "\(wrong)")
        }
    }

    @Test func whatIsWrongIsSaidWithItsLine() throws {
        let notGPX = try Self.file(#"<osm version="0.6"></osm>"#)
        #expect(throws: OSMReaderError.self) { try GPXReader.points(path: notGPX) }
        let badLatitude = try Self.file("<gpx>\n<trk><trkseg><trkpt lat=\"91\" lon=\"2\"/></trkseg></trk></gpx>")
        do {
            _ = try GPXReader.points(path: badLatitude)
            Issue.record("a latitude of 91 was read")
        } catch {
            #expect(error.line == 2 && error.message.contains("lat"))
        }
        let badTime = try Self.file(
            "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>noon</time></trkpt></trkseg></trk></gpx>")
        #expect { try GPXReader.points(path: badTime) } throws: {
            ($0 as? OSMReaderError)?.message.contains("noon") == true
        }
        let truncated = try Self.file("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">")
        #expect(throws: OSMReaderError.self) { try GPXReader.points(path: truncated) }
    }
}
