import Foundation
import GeoCore
import MapData
import Transit

/// Journeys on a realtime feed against the same journeys on the timetable alone, over a transit
/// O-D set (`../shared/bench/od-*-transit.json`): a feed delaying every third trip (1 to 10
/// minutes from its first stop) on each day the set departs, one thread, walks as straight
/// lines in both (the walks are not what is measured), the median of `runs` a pair; and the
/// time to apply a feed of 1,000 trip updates (read, applied, the network laid out again).
enum RealtimeBench {
    static func run(_ arguments: [String]) throws {
        let flags = BenchFlags(arguments)
        let runs = flags.int("--runs", or: 3)
        let set =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: flags["--od"] ?? "")))
            as? [String: Any]
        let pairs = (set?["pairs"] as? [[String: Any]] ?? []).compactMap {
            pair -> (origin: Coordinate, destination: Coordinate, time: ServiceTime)? in
            guard let origin = pair["origin"] as? [Double], origin.count == 2,
                let destination = pair["destination"] as? [Double], destination.count == 2,
                let departAt = pair["depart_at"] as? String, let time = ServiceTime(local: departAt)
            else { return nil }
            return (
                Coordinate(latitude: origin[1], longitude: origin[0]),
                Coordinate(latitude: destination[1], longitude: destination[0]), time
            )
        }
        let feeds = try MapStore(path: flags["--store"] ?? "").timetables()
        guard let (source, timetable) = feeds.first else {
            print("openmaps realtime: the store has no timetable")
            return
        }
        let network = TransitNetwork(feeds: feeds) { Walk.straight($0, $1).seconds }
        let trips = timetable.trips.indices.filter { timetable.trips[$0].callCount > 1 }
        let dates = Set(pairs.map { $0.time.within(last: timetable.lastServiceDate).date }).sorted()
        /// A feed delaying each (trip, day) of `runs` from its first stop.
        func feed(_ runs: [(trip: Int, date: Int)]) -> RealtimeFeed {
            var feed = RealtimeFeed(timestamp: Int(Date().timeIntervalSince1970))
            for (trip, date) in runs {
                feed.tripUpdates.append(
                    RealtimeFeed.TripUpdate(
                        entity: "\(date)-\(trip)",
                        trip: RealtimeFeed.TripDescriptor(tripID: timetable.trips[trip].id, startDate: date),
                        stopTimeUpdates: [
                            RealtimeFeed.StopTimeUpdate(
                                stopSequence: Int(timetable.callSequences[timetable.calls(of: trip).lowerBound]),
                                departure: RealtimeFeed.StopTimeEvent(delay: 60 * (1 + trip % 10)))
                        ]))
            }
            return feed
        }
        let third = trips.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        let delays = feed(dates.flatMap { date in third.map { ($0, date) } })
        let live = network.following([source: LiveTimetable(timetable: timetable, feed: delays)])
        // Applying 1,000 updates (the timetable's trips on as many days back from the last as
        // it takes): the message read, applied and the network laid out again.
        let last = timetable.lastServiceDate
        let days = (0..<(1_000 / max(trips.count, 1) + 1)).map { CivilDay.adding(-$0, to: last) }
        let thousand = feed(Array(days.flatMap { date in trips.map { ($0, date) } }.prefix(1_000)))
        let bytes = thousand.encoded()
        var applying: [Double] = []
        var applied = LiveTimetable.Report()
        for _ in 0..<5 {
            let begin = ContinuousClock.now
            let read = try RealtimeFeed(bytes: bytes)
            let result = LiveTimetable(timetable: timetable, feed: read)
            _ = network.following([source: result])
            applying.append(Statistics.seconds(since: begin) * 1000)
            applied = result.report
        }
        let plain = JourneyPlanner(network: network) { Walk.straight($0, $1) }
        let followed = JourneyPlanner(network: live) { Walk.straight($0, $1) }
        var staticTimes: [Double] = []
        var liveTimes: [Double] = []
        var later = 0
        for pair in pairs {
            var a: [Double] = []
            var b: [Double] = []
            var onTime: [Journey] = []
            var delayed: [Journey] = []
            for _ in 0..<max(runs, 1) {
                var begin = ContinuousClock.now
                onTime = plain.journeys(from: pair.origin, to: pair.destination, leaving: pair.time)
                a.append(Statistics.seconds(since: begin) * 1e6)
                begin = ContinuousClock.now
                delayed = followed.journeys(from: pair.origin, to: pair.destination, leaving: pair.time)
                b.append(Statistics.seconds(since: begin) * 1e6)
            }
            staticTimes.append(Statistics.median(a))
            liveTimes.append(Statistics.median(b))
            if let first = JourneyPlanner.ranked(onTime).first, let second = JourneyPlanner.ranked(delayed).first,
                second.arrival > first.arrival
            {
                later += 1
            }
        }
        let s = staticTimes.sorted()
        let l = liveTimes.sorted()
        let mean = { (values: [Double]) in values.reduce(0, +) / Double(max(values.count, 1)) }
        print(
            String(
                format:
                    "openmaps realtime: %d journeys, %d trip updates (a third of %d trips, on %d service days), %d arrive later | static p50 %.2f ms p99 %.2f mean %.2f | realtime p50 %.2f ms p99 %.2f mean %.2f | ratio (mean) %.2f× | %d updates (%d runs delayed) applied in %.1f ms (median of 5)",
                pairs.count, delays.tripUpdates.count, trips.count, dates.count, later,
                Statistics.percentile(s, 50) / 1000, Statistics.percentile(s, 99) / 1000, mean(s) / 1000,
                Statistics.percentile(l, 50) / 1000, Statistics.percentile(l, 99) / 1000, mean(l) / 1000,
                mean(l) / max(mean(s), 1e-9), thousand.tripUpdates.count, applied.updated, Statistics.median(applying)))
    }
}
