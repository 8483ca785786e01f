import Foundation
import GeoCore
import HTTPServer
import MapData
import MapsApp
import MapsServer
import TestSupport
import Testing
import Transit

/// A realtime feed polled from a host by the server, followed by journeys without a restart,
/// its vehicles served as GeoJSON.
@Suite struct RealtimeServingTests {
    /// What the feed host serves, changed by the test.
    final class Served: @unchecked Sendable {
        private let lock = NSLock()
        private var body: [UInt8] = []
        private var status = 200
        var requests = 0
        func set(_ body: [UInt8], status: Int = 200) { lock.withLock { (self.body, self.status) = (body, status) } }
        func get() -> (Int, [UInt8]) {
            lock.withLock {
                requests += 1
                return (status, body)
            }
        }
    }

    /// 07:50 on Tuesday 7 May 2024 in Helsinki, POSIX seconds.
    static let feedTime = 1_715_057_400

    static func feed(delay: Int, timestamp: Int) -> RealtimeFeed {
        var feed = RealtimeFeed(timestamp: timestamp)
        feed.tripUpdates = [
            .init(
                entity: "d", trip: .init(tripID: "t1", startDate: 2024_05_07),
                stopTimeUpdates: [.init(stopSequence: 1, departure: .init(delay: delay))])
        ]
        feed.alerts = [
            .init(
                entity: "works", informed: [.init(stopID: "B")],
                header: .init([
                    .init(language: "en", text: "Kamppi: lifts out of order"),
                    .init(language: "it", text: "Kamppi: ascensori guasti"),
                ]))
        ]
        feed.vehicles = [
            .init(
                entity: "v1", trip: .init(tripID: "t1"), vehicle: .init(label: "407"),
                coordinate: Coordinate(latitude: 60.1660, longitude: 24.9370), bearing: 30, timestamp: timestamp)
        ]
        return feed
    }

    func body(_ server: MapsServer, _ target: String) -> (Int, String)? {
        exchange(port: server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").map {
            ($0.status, $0.body)
        }
    }

    @Test func theServerPollsTheFeedAndJourneysFollowItWithoutARestart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rt-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: try FixtureStore.path(), toPath: store)
        let zip = folder.appendingPathComponent("feed.zip").path
        try Data(FixtureTimetable.zip()).write(to: URL(fileURLWithPath: zip))
        _ = try GTFSImporter.importFeed(zip, into: store, name: "example-transit")
        // The host: the feed made "now", five minutes late.
        let now = Int(Date().timeIntervalSince1970)
        let served = Served()
        served.set(Self.feed(delay: 300, timestamp: now).encoded())
        let host = try HTTPServer(port: 0, threads: 1) { _ in
            let (status, bytes) = served.get()
            return HTTPResponse(status: status, body: bytes)
        }
        defer { host.stop() }
        let url = "http://127.0.0.1:\(host.port)/gtfs-rt/trip-updates"
        _ = try RealtimeImport.importFeed(url, into: store, interval: 1, maxAge: 600)
        let app = try MapsApp.onStore(path: store)
        let transit = try #require(app.transit as? StoreTransit)
        let poller = try RealtimePoller(transit: transit) { _ in }
        defer { poller.stop() }
        #expect(poller.feeds == 1)
        let server = try MapsServer(app: app, options: .loopback())
        defer { server.stop() }
        let link = "comgooglemaps://?saddr=60.1650,24.9360&daddr=60.1780,24.9495&directionsmode=transit"
        func itinerary() throws -> [String] {
            let target =
                "/api/answer?url=\(link.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&departure_time=1715057940"
            let (status, text) = try #require(body(server, target))
            #expect(status == 200, "\(text)")
            let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            let transit = document?["transit"] as? [String: Any]
            return (transit?["itinerary"] as? [String] ?? []) + (transit?["live"] as? [String] ?? [])
        }
        let first = try itinerary()
        #expect(first.contains { $0.contains("(5 min late)") }, "\(first)")
        // The host's next message: two minutes late. Journeys follow it at the next poll.
        served.set(Self.feed(delay: 120, timestamp: now + 1).encoded())
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !(try itinerary().contains { $0.contains("(2 min late)") }) {
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(try itinerary().contains { $0.contains("(2 min late)") } == true)
        // A broken message keeps the last good one.
        served.set([0x0A, 0x05, 0x01], status: 200)
        let asked = served.requests
        while Date() < deadline.addingTimeInterval(5), served.requests < asked + 2 {
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(try itinerary().contains { $0.contains("(2 min late)") } == true)
        // The vehicles, in a box and everywhere; a box that is not one refused.
        let (status, vehicles) = try #require(body(server, "/api/vehicles?bbox=24.9,60.1,25.0,60.2"))
        let collection = try JSONSerialization.jsonObject(with: Data(vehicles.utf8)) as? [String: Any]
        let features = collection?["features"] as? [[String: Any]] ?? []
        #expect(status == 200 && features.count == 1)
        let properties = features.first?["properties"] as? [String: Any]
        #expect(properties?["route"] as? String == "1" && properties?["color"] as? String == "#00985f")
        #expect(properties?["label"] as? String == "407" && properties?["bearing"] as? Double == 30)
        let outside = try #require(body(server, "/api/vehicles?bbox=0,0,1,1")).1
        #expect(outside.contains("\"features\" : []"))
        // The alerts about stops, at the stop, in the language asked.
        let (_, alerts) = try #require(body(server, "/api/alerts?bbox=24.9,60.1,25.0,60.2&hl=it"))
        let alertFeatures =
            (try JSONSerialization.jsonObject(with: Data(alerts.utf8)) as? [String: Any])?["features"]
            as? [[String: Any]]
            ?? []
        let alert = alertFeatures.first?["properties"] as? [String: Any]
        #expect(alertFeatures.count == 1 && alert?["stop"] as? String == "Kamppi")
        #expect(alert?["header"] as? String == "Kamppi: ascensori guasti")
        let bad = try #require(body(server, "/api/vehicles?bbox=25,60,24,61"))
        #expect(bad.0 == 400 && bad.1.contains("bbox"))
    }

    @Test func pollsBackOffAfterFailuresUpToTenIntervals() {
        #expect(RealtimePoller.delay(interval: 30, failures: 0) == 30)
        #expect(RealtimePoller.delay(interval: 30, failures: 1) == 60)
        #expect(RealtimePoller.delay(interval: 30, failures: 3) == 240)
        #expect(RealtimePoller.delay(interval: 30, failures: 9) == 300)
        #expect(RealtimePoller.delay(interval: 120, failures: 9) == 600)
        #expect(RealtimePoller.delay(interval: 900, failures: 2) == 900)
    }
}
