import Foundation
import GeoCore
import HTTPServer
import MapData
import MapsApp
import Transit

extension MapsServer {
    /// `/api/vehicles?bbox=minLon,minLat,maxLon,maxLat`: the realtime feeds' vehicles in the box
    /// (everywhere without one) as GeoJSON (``LiveVehicle/geoJSON(_:)``), never cached.
    func vehicles(_ request: HTTPRequest) -> HTTPResponse {
        liveGeoJSON(request) { bounds throws(AppError) in LiveVehicle.geoJSON(try app.vehicles(in: bounds)) }
    }

    /// `/api/alerts?bbox=minLon,minLat,maxLon,maxLat&hl=`: the realtime feeds' alerts about
    /// stops in the box, active now, as GeoJSON (``StopAlert/geoJSON(_:language:)``), in `hl`'s
    /// language where the feed has it; never cached.
    func stopAlerts(_ request: HTTPRequest) -> HTTPResponse {
        liveGeoJSON(request) { bounds throws(AppError) in
            let language = try request.query["hl"].map { text throws(AppError) in
                try Parameter.language(text, name: "hl")
            }
            return StopAlert.geoJSON(try app.stopAlerts(in: bounds), language: (language ?? .en).rawValue)
        }
    }

    /// The GeoJSON `body` writes for the request's `bbox` (nil without one): 400 for a request
    /// that cannot be read, never cached, open to other origins.
    private func liveGeoJSON(
        _ request: HTTPRequest, _ body: (CoordinateBounds?) throws(AppError) -> String
    ) -> HTTPResponse {
        var response: HTTPResponse
        do throws(AppError) {
            let bounds = try request.query["bbox"].map { text throws(AppError) in try MapsApp.bounds(bbox: text) }
            response = .json(200, Data(try body(bounds).utf8))
        } catch {
            if case .invalidOption = error { return Self.error(400, "\(error)") }
            return Self.error(500, "\(error)")
        }
        response.headers.append(("Cache-Control", "no-store"))
        response.headers.append(("Access-Control-Allow-Origin", "*"))
        return response
    }
}

/// Polls the realtime feeds kept with a store at their URLs, each at its interval, and hands
/// every message that reads to the journey planner (``StoreTransit/receive(_:)``): journeys
/// follow it from the next request, without a restart. A failed poll (no answer, an HTTP error,
/// a message that does not read) keeps the last good message and waits twice as long before
/// the next, up to ten intervals (at most 10 minutes); a good one goes back to the interval.
/// Messages older than their feed's maximum age are left out by the planner, judged by the clock.
public final class RealtimePoller: @unchecked Sendable {
    private let transit: StoreTransit
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    private var stopped = false
    private let wake = DispatchSemaphore(value: 0)
    private var threads: [Thread] = []

    /// Polls `transit`'s feeds kept with URLs (files are not polled), logging each failure.
    public init(transit: StoreTransit, log: @escaping @Sendable (String) -> Void) throws {
        self.transit = transit
        self.log = log
        transit.judgeRealtime { Date() }
        for feed in try transit.realtimeFeeds() where feed.isURL {
            // The thread holds the poller until it ends (at the wake-up after ``stop()``).
            let thread = Thread { self.poll(feed) }
            thread.name = "realtime \(feed.location)"
            threads.append(thread)
        }
        for thread in threads { thread.start() }
    }

    /// How many feeds are polled.
    public var feeds: Int { threads.count }

    /// Stops polling (each thread ends at its next wake-up).
    public func stop() {
        lock.withLock { stopped = true }
        for _ in threads { wake.signal() }
    }

    /// Seconds before the next poll after `failures` failures in a row: the interval doubled
    /// for each, up to ten intervals and 600 seconds.
    public static func delay(interval: Int, failures: Int) -> Int {
        guard failures > 0 else { return interval }
        let doubled = interval << min(failures, 10)
        return min(doubled, max(interval, min(10 * interval, 600)))
    }

    private func poll(_ kept: StoredRealtimeFeed) {
        var failures = 0
        // One client (one URL session) for the feed's whole life.
        let client = HTTPGet(timeout: Double(max(5, min(kept.interval, 30))))
        while true {
            if lock.withLock({ stopped }) { return }
            do {
                let bytes = try StoredRealtimeFeed.read(kept.location, client: client)
                _ = try RealtimeFeed(bytes: bytes, named: kept.location)
                var message = kept
                message.bytes = bytes
                message.fetched = Int(Date().timeIntervalSince1970)
                try transit.receive(message)
                failures = 0
            } catch {
                failures += 1
                log(
                    "realtime \(kept.source): \(error) (retrying in \(Self.delay(interval: kept.interval, failures: failures)) s)"
                )
            }
            _ = wake.wait(timeout: .now() + .seconds(Self.delay(interval: kept.interval, failures: failures)))
        }
    }
}
