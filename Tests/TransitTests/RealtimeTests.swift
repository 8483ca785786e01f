import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import MapsApp
import TestSupport
import Testing

@testable import MapsCLI
@testable import Transit

/// GTFS-Realtime feeds read, kept with a store and followed by the journey planner.
@Suite struct RealtimeTests {
    typealias Feed = RealtimeFeed

    static let ruoholahti = TransitTests.ruoholahti
    static let kallio = TransitTests.kallio
    /// Tuesday 7 May 2024, 07:59 in Helsinki.
    static let tuesday = ServiceTime(date: 2024_05_07, weekday: 1, seconds: 7 * 3600 + 59 * 60)
    /// 07:50 that Tuesday in Helsinki (summer time: UTC+3), POSIX seconds.
    static let feedTime = 1_715_057_400

    static func timetable(_ files: [String: String] = FixtureTimetable.files) throws -> Timetable {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(UUID().uuidString).zip").path
        try Data(FixtureTimetable.zip(files)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try Timetable(feed: path)
    }

    /// The journeys on `timetable` (at `feed`'s times when given), walks as straight lines.
    static func journeys(
        _ timetable: Timetable, feed: Feed? = nil, leaving time: ServiceTime = tuesday,
        to destination: Coordinate = kallio
    ) -> [Journey] {
        var network = TransitNetwork(feeds: [("example", timetable)]) { Walk.straight($0, $1).seconds }
        if let feed { network = network.following(["example": LiveTimetable(timetable: timetable, feed: feed)]) }
        return JourneyPlanner(network: network) { Walk.straight($0, $1) }.journeys(
            from: ruoholahti, to: destination, leaving: time)
    }

    static func rides(_ journeys: [Journey]) -> [Journey.Ride] {
        journeys.flatMap { $0.legs.compactMap { if case .ride(let ride) = $0 { ride } else { nil } } }
    }

    /// A feed of one trip update.
    static func feed(_ update: Feed.TripUpdate) -> Feed {
        var feed = Feed(timestamp: feedTime)
        feed.tripUpdates = [update]
        return feed
    }

    /// A feed delaying tram t1 by `seconds` from its first stop.
    static func delayed(_ seconds: Int, date: Int? = 2024_05_07) -> Feed {
        feed(
            Feed.TripUpdate(
                entity: "d", trip: Feed.TripDescriptor(tripID: "t1", startDate: date),
                stopTimeUpdates: [Feed.StopTimeUpdate(stopSequence: 1, departure: Feed.StopTimeEvent(delay: seconds))]))
    }

    @Test func aFeedReadsBackAsWritten() throws {
        var feed = Self.delayed(300)
        feed.tripUpdates[0].stopTimeUpdates.append(
            Feed.StopTimeUpdate(
                stopID: "C", arrival: Feed.StopTimeEvent(delay: -60, time: Self.feedTime + 1200), relationship: .skipped
            ))
        feed.tripUpdates.append(
            Feed.TripUpdate(
                entity: "x", trip: Feed.TripDescriptor(tripID: "t3", relationship: .duplicated),
                properties: Feed.TripProperties(tripID: "t3b", startDate: 2024_05_07, startTime: 30_000)))
        feed.alerts = [
            Feed.Alert(
                entity: "a", periods: [Self.feedTime...(Self.feedTime + 3600)],
                informed: [Feed.EntitySelector(routeID: "1"), Feed.EntitySelector(stopID: "B")], cause: 9, effect: 3,
                header: Feed.TranslatedText([
                    .init(language: "en", text: "Works"), .init(language: "it", text: "Lavori"),
                ]))
        ]
        feed.vehicles = [
            Feed.VehiclePosition(
                entity: "v", trip: Feed.TripDescriptor(tripID: "t1"),
                vehicle: Feed.VehicleDescriptor(id: "7", label: "407"),
                coordinate: Coordinate(latitude: 60.1675, longitude: 24.938), bearing: 45, status: 2,
                timestamp: Self.feedTime)
        ]
        let read = try Feed(bytes: feed.encoded())
        #expect(read.tripUpdates == feed.tripUpdates && read.alerts == feed.alerts)
        let vehicle = try #require(read.vehicles.first)
        #expect(
            abs(vehicle.coordinate.latitude - 60.1675) < 1e-5 && vehicle.bearing == 45
                && vehicle.vehicle?.label == "407")
        #expect(read.alerts[0].header?.text(in: "it") == "Lavori" && read.alerts[0].header?.text(in: "hi") == "Works")
    }

    @Test(arguments: [
        ("truncated", "runs past the end"),
        ("no header", "header: missing"),
        ("bad date", "entity[0].trip_update.trip.start_date: '2024-05-07' is not a date YYYYMMDD"),
        ("differential", "header.incrementality: DIFFERENTIAL"),
        ("no entity id", "entity[0].id: missing"),
    ])
    func aBrokenFeedIsRefusedByField(kind: String, message: String) throws {
        var bytes = Self.delayed(60).encoded()
        var writer = ProtobufWriter()
        switch kind {
        case "truncated": bytes.removeLast(3)
        case "no header":
            writer.message(2) { entity in entity.string(1, "e") }
            bytes = writer.bytes
        case "bad date":
            writer.message(1) { $0.string(1, "2.0") }
            writer.message(2) { entity in
                entity.string(1, "e")
                entity.message(3) { update in update.message(1) { $0.string(3, "2024-05-07") } }
            }
            bytes = writer.bytes
        case "differential":
            writer.message(1) { header in
                header.string(1, "2.0")
                header.uint(2, 1)
            }
            bytes = writer.bytes
        default:
            writer.message(1) { $0.string(1, "2.0") }
            writer.message(2) { entity in entity.message(3) { update in update.message(1) { $0.string(1, "t1") } } }
            bytes = writer.bytes
        }
        do {
            _ = try Feed(bytes: bytes, named: "feed.pb")
            Issue.record("\(kind) was read")
        } catch {
            #expect(error.kind == .invalidData && error.description.contains(message), "\(error)")
            #expect(error.description.hasPrefix("feed.pb: "))
        }
    }

    @Test func aDelayEqualsTheTimetableEditedTheSameWay() throws {
        let timetable = try Self.timetable()
        // Tram 1 five minutes late from Ruoholahti: at Kamppi after the 08:08 bus has left.
        let live = Self.journeys(timetable, feed: Self.delayed(300))
        var files = FixtureTimetable.files
        files["stop_times.txt"] = files["stop_times.txt"]!
            .replacingOccurrences(of: "t1,08:00:00,08:00:00,A,1", with: "t1,08:05:00,08:05:00,A,1")
            .replacingOccurrences(of: "t1,08:10:00,08:10:00,C,3", with: "t1,08:15:00,08:15:00,C,3")
        let edited = Self.journeys(try Self.timetable(files))
        func summary(_ journeys: [Journey]) -> [String] {
            journeys.map { journey in
                "\(journey.departure)-\(journey.arrival):"
                    + Self.rides([journey]).map { "\($0.tripID)@\($0.departure)-\($0.arrival)" }.joined(separator: ",")
            }
        }
        #expect(summary(live) == summary(edited))
        let onTime = Self.journeys(timetable)
        #expect(summary(live) != summary(onTime))
        #expect(Self.rides(live).allSatisfy { !$0.isLive })
        // Ridden to its end, the tram says it is 5 minutes late.
        let toHakaniemi = Self.journeys(timetable, feed: Self.delayed(300), to: TransitTests.hakaniemi)
        let tram = try #require(Self.rides(toHakaniemi).first { $0.tripID == "t1" })
        #expect(tram.departureDelay == 300 && tram.departure == 8 * 3600 + 5 * 60)
        #expect(JourneyDocument.statusWords(tram, words: Phrasebook(.es)) == "con 5 min de retraso")
        // Another day's tram runs on time.
        let wednesday = Self.journeys(
            timetable, feed: Self.delayed(300), leaving: ServiceTime(date: 2024_05_08, weekday: 2, seconds: 28_740))
        #expect(
            summary(wednesday)
                == summary(
                    Self.journeys(timetable, leaving: ServiceTime(date: 2024_05_08, weekday: 2, seconds: 28_740))))
    }

    @Test func aDelayPropagatesUntilALaterUpdateAndTimesNeverRunBackwards() throws {
        let timetable = try Self.timetable()
        var feed = Self.delayed(300)
        // At Hakaniemi only a minute late: the delay shrinks there.
        feed.tripUpdates[0].stopTimeUpdates.append(
            Feed.StopTimeUpdate(stopSequence: 3, arrival: Feed.StopTimeEvent(delay: 60)))
        let live = LiveTimetable(timetable: timetable, feed: feed)
        let trip = try #require(live.timetable.trips.indices.last)
        let calls = live.timetable.calls(of: trip)
        let departures = calls.map { Int(live.timetable.departures[$0]) }
        let arrivals = calls.map { Int(live.timetable.arrivals[$0]) }
        let scheduled = timetable.calls(of: 0).map { Int(timetable.arrivals[$0]) }
        #expect(
            departures[0] == 8 * 3600 + 300 && arrivals[1] == scheduled[1] + 300 && arrivals[2] == scheduled[2] + 60)
        #expect(live.delays[trip] == [300, 300, 60])
        #expect(
            zip(arrivals, departures).allSatisfy { $0 <= $1 }
                && zip(departures, arrivals.dropFirst()).allSatisfy { $0 <= $1 })
        // An absolute time wins over a delay, and an earlier time than the stop before is held back.
        var early = Self.delayed(300)
        early.tripUpdates[0].stopTimeUpdates.append(
            Feed.StopTimeUpdate(stopID: "B", arrival: Feed.StopTimeEvent(delay: 999, time: Self.feedTime + 60)))
        let held = LiveTimetable(timetable: timetable, feed: early)
        let heldCalls = held.timetable.calls(of: held.timetable.trips.count - 1)
        #expect(held.timetable.arrivals[heldCalls.lowerBound + 1] == held.timetable.departures[heldCalls.lowerBound])
    }

    @Test func aCancelledTripIsNeverRiddenAndASkippedStopNotBoarded() throws {
        let timetable = try Self.timetable()
        #expect(Self.rides(Self.journeys(timetable)).contains { $0.tripID == "t1" })
        let cancelled = Self.feed(
            Feed.TripUpdate(
                entity: "c", trip: Feed.TripDescriptor(tripID: "t1", startDate: 2024_05_07, relationship: .canceled)))
        let live = LiveTimetable(timetable: timetable, feed: cancelled)
        #expect(live.report.cancelled == 1 && live.cancelled[0] == [2024_05_07])
        let around = Self.journeys(timetable, feed: cancelled, to: TransitTests.hakaniemi)
        #expect(!Self.rides(around).contains { $0.tripID == "t1" })
        let skipped = Self.feed(
            Feed.TripUpdate(
                entity: "s", trip: Feed.TripDescriptor(tripID: "t1", startDate: 2024_05_07),
                stopTimeUpdates: [Feed.StopTimeUpdate(stopSequence: 1, relationship: .skipped)]))
        let rides = Self.rides(Self.journeys(timetable, feed: skipped))
        #expect(
            !rides.contains { $0.tripID == "t1" && $0.from == "Ruoholahti" }, "\(rides.map { ($0.tripID, $0.from) })")
    }

    @Test func anAddedTripIsRiddenAndAnUnknownOneCountedAndIgnored() throws {
        let timetable = try Self.timetable()
        // A bus added from Kamppi at 08:07, at Kallio 08:09.
        let start = LiveTimetable.serviceDayStart(2024_05_07, in: TimeZone(identifier: "Europe/Helsinki")!)
        var feed = Self.feed(
            Feed.TripUpdate(
                entity: "n",
                trip: Feed.TripDescriptor(tripID: "extra", routeID: "2", startDate: 2024_05_07, relationship: .added),
                stopTimeUpdates: [
                    Feed.StopTimeUpdate(stopID: "B", departure: Feed.StopTimeEvent(time: start + 8 * 3600 + 7 * 60)),
                    Feed.StopTimeUpdate(stopID: "D", arrival: Feed.StopTimeEvent(time: start + 8 * 3600 + 9 * 60)),
                ]))
        feed.tripUpdates.append(Feed.TripUpdate(entity: "u", trip: Feed.TripDescriptor(tripID: "nowhere")))
        let live = LiveTimetable(timetable: timetable, feed: feed)
        #expect(live.report.added == 1 && live.report.unknown == 1 && live.report.unknownTrips == ["nowhere"])
        let best = try #require(Self.journeys(timetable, feed: feed).first { $0.rides > 0 })
        #expect(Self.rides([best]).map(\.tripID) == ["t1", "extra"], "\(Self.rides([best]).map(\.tripID))")
        #expect(best.arrival < 8 * 3600 + 12 * 60)
    }

    @Test func aFrequencyRunIsMatchedByItsStartTimeAndARouteTripByRouteDirectionAndStart() throws {
        let timetable = try Self.timetable()
        // Bus 2's 09:15 run, named by the template's id and its start.
        let run = LiveTimetable(
            timetable: timetable,
            feed: Self.feed(
                Feed.TripUpdate(
                    entity: "f",
                    trip: Feed.TripDescriptor(tripID: "t4", startTime: 9 * 3600 + 15 * 60, startDate: 2024_05_07),
                    delay: 120)))
        #expect(run.report.updated == 1)
        let made = try #require(run.timetable.trips.last)
        #expect(made.id == "t4@1" && run.timetable.departures[Int(made.firstCall)] == 9 * 3600 + 17 * 60)
        let byRoute = LiveTimetable(
            timetable: timetable,
            feed: Self.feed(
                Feed.TripUpdate(
                    entity: "r",
                    trip: Feed.TripDescriptor(routeID: "2", startTime: 8 * 3600 + 8 * 60, startDate: 2024_05_07),
                    delay: 60)))
        #expect(byRoute.report.updated == 1 && byRoute.timetable.trips.last?.id == "t3")
    }

    /// Tram 1 twice: x1 from Ruoholahti at 08:00, x2 at 08:05, ten minutes to Kamppi and ten to Hakaniemi.
    static func twoRuns() throws -> Timetable {
        var files = FixtureTimetable.files
        files["trips.txt"] = "route_id,service_id,trip_id\n1,wk,x1\n1,wk,x2\n"
        files["stop_times.txt"] = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            x1,08:00:00,08:00:00,A,1
            x1,08:10:00,08:10:00,B,2
            x1,08:20:00,08:20:00,C,3
            x2,08:05:00,08:05:00,A,1
            x2,08:15:00,08:15:00,B,2
            x2,08:25:00,08:25:00,C,3
            """
        files["frequencies.txt"] = nil
        return try timetable(files)
    }

    @Test func aJourneySaysWhichRunItWouldHaveTakenIsCancelled() throws {
        let timetable = try Self.twoRuns()
        let feed = Self.feed(
            Feed.TripUpdate(
                entity: "c", trip: Feed.TripDescriptor(tripID: "x1", startDate: 2024_05_07, relationship: .canceled)))
        let best = try #require(
            Self.journeys(timetable, feed: feed, to: TransitTests.hakaniemi).first { $0.rides > 0 })
        #expect(Self.rides([best]).map(\.tripID) == ["x2"])
        #expect(best.cancelled.map(\.departure) == [8 * 3600] && best.cancelled.first?.stop == "Ruoholahti")
        #expect(
            JourneyDocument.notes(best, words: Phrasebook(.it)).first
                == "Corsa soppressa: il tram 1 delle 08:00 da Ruoholahti.")
        #expect(
            JourneyDocument.notes(best, words: Phrasebook(.en)).first
                == "The 08:00 tram 1 from Ruoholahti is cancelled.")
        // Leaving after it, the cancelled run is not the rider's concern.
        let later = try #require(
            Self.journeys(
                timetable, feed: feed, leaving: ServiceTime(date: 2024_05_07, weekday: 1, seconds: 8 * 3600 + 60),
                to: TransitTests.hakaniemi
            ).first { $0.rides > 0 })
        #expect(later.cancelled.isEmpty)
    }

    @Test func aLateTripOvertakenByTheNextIsNotBoardedBeforeIt() throws {
        // Two runs of one line on the same stops; the first 10 minutes late from Kamppi on.
        let timetable = try Self.twoRuns()
        let feed = Self.feed(
            Feed.TripUpdate(
                entity: "l", trip: Feed.TripDescriptor(tripID: "x1", startDate: 2024_05_07),
                stopTimeUpdates: [Feed.StopTimeUpdate(stopSequence: 2, arrival: Feed.StopTimeEvent(delay: 600))]))
        let live = TransitNetwork(feeds: [("example", timetable)]) { Walk.straight($0, $1).seconds }.following([
            "example": LiveTimetable(timetable: timetable, feed: feed)
        ])
        let kamppi = Coordinate(latitude: 60.1700, longitude: 24.9400)
        let found = JourneyPlanner(network: live) { Walk.straight($0, $1) }.journeys(
            from: kamppi, to: TransitTests.hakaniemi,
            leaving: ServiceTime(date: 2024_05_07, weekday: 1, seconds: 29_520))
        let ride = try #require(Self.rides(found).first)
        #expect(ride.tripID == "x2" && ride.arrival == 8 * 3600 + 25 * 60, "\(Self.rides(found).map(\.tripID))")
    }

    @Test func aDuplicatedTripRunsAgainFromItsNewStart() throws {
        let timetable = try Self.timetable()
        // Tram 1 again at 08:30, as t1-extra.
        let feed = Self.feed(
            Feed.TripUpdate(
                entity: "d", trip: Feed.TripDescriptor(tripID: "t1", startDate: 2024_05_07, relationship: .duplicated),
                properties: Feed.TripProperties(
                    tripID: "t1-extra", startDate: 2024_05_07, startTime: 8 * 3600 + 30 * 60)))
        let live = LiveTimetable(timetable: timetable, feed: feed)
        #expect(live.report.added == 1)
        let copy = try #require(live.timetable.trips.last)
        #expect(copy.id == "t1-extra" && live.timetable.departures[Int(copy.firstCall)] == 8 * 3600 + 30 * 60)
        let found = Self.journeys(
            timetable, feed: feed, leaving: ServiceTime(date: 2024_05_07, weekday: 1, seconds: 8 * 3600 + 25 * 60),
            to: TransitTests.hakaniemi)
        #expect(Self.rides(found).contains { $0.tripID == "t1-extra" })
        // The timetable's t1 still runs at 08:00.
        #expect(
            Self.rides(Self.journeys(timetable, feed: feed, to: TransitTests.hakaniemi)).contains { $0.tripID == "t1" })
    }

    @Test func alertsTouchingAJourneyAreShownInTheLanguageAsked() throws {
        let timetable = try Self.timetable()
        var feed = Self.delayed(0)
        feed.alerts = [
            Feed.Alert(
                entity: "works", informed: [Feed.EntitySelector(stopID: "B")],
                header: Feed.TranslatedText([
                    .init(language: nil, text: "Kamppi: works"), .init(language: "es", text: "Kamppi: obras"),
                ])),
            Feed.Alert(
                entity: "elsewhere", informed: [Feed.EntitySelector(routeID: "9")],
                header: Feed.TranslatedText([.init(language: nil, text: "no")])),
            Feed.Alert(
                entity: "over", periods: [0...1000], informed: [Feed.EntitySelector(routeID: "1")],
                header: Feed.TranslatedText([.init(language: nil, text: "old")])),
        ]
        let best = try #require(Self.journeys(timetable, feed: feed).first { $0.rides > 0 })
        #expect(best.alerts.map(\.entity) == ["works"] && best.liveFeedTime == Self.feedTime)
        let spanish = JourneyDocument.notes(best, words: Phrasebook(.es))
        #expect(spanish == ["Aviso: Kamppi: obras", "Horarios en tiempo real según los datos de las 07:50."])
        #expect(JourneyDocument.notes(best, words: Phrasebook(.hi)).first == "सूचना: Kamppi: works")
        #expect(JourneyDocument.status(Self.rides([best])[0]).code == "on_time")
    }

    /// A copy of the transit test store.
    func storeCopy() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(UUID().uuidString).sqlite").path
        try FileManager.default.copyItem(atPath: try TransitTests.store.get(), toPath: path)
        return path
    }

    func write(_ feed: Feed) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(UUID().uuidString).pb").path
        try Data(feed.encoded()).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aFeedKeptWithTheStoreIsFollowedAndABrokenOneChangesNothing() throws {
        let store = try storeCopy()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let good = try write(Self.delayed(300))
        defer { try? FileManager.default.removeItem(atPath: good) }
        let imported = OpenMapsCLI.run(["import", "--realtime", good, "--store", store])
        #expect(
            imported.exitCode == 0 && imported.standardOutput.contains("example-transit: realtime feed"),
            "\(imported.standardError)")
        #expect(imported.standardOutput.contains("1 trip update: 1 run at predicted times"))
        // Truncated: refused by field, the message kept before still there.
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(UUID().uuidString).pb").path
        try Data(Self.delayed(900).encoded().dropLast(4)).write(to: URL(fileURLWithPath: broken))
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let refused = OpenMapsCLI.run(["import", "--realtime", broken, "--store", store, "--feed", "example-transit"])
        #expect(
            refused.exitCode != 0 && refused.standardError.contains("not a GTFS-Realtime feed"),
            "\(refused.standardError)")
        let kept = try MapStore(path: store).realtimeFeeds()
        #expect(kept.count == 1 && kept.first?.bytes == Self.delayed(300).encoded())
        // A feed for no imported feed, and a feed named that is not there.
        let stranger = try write(Self.feed(Feed.TripUpdate(entity: "z", trip: Feed.TripDescriptor(tripID: "zz"))))
        defer { try? FileManager.default.removeItem(atPath: stranger) }
        let unmatched = OpenMapsCLI.run(["import", "--realtime", stranger, "--store", store])
        #expect(unmatched.exitCode != 0 && unmatched.standardError.contains("say which with --feed"))
        let unnamed = OpenMapsCLI.run(["import", "--realtime", good, "--store", store, "--feed", "nope"])
        #expect(unnamed.standardError.contains("no GTFS feed 'nope' (it has: example-transit)"))
        // The command line follows the kept message whatever the clock says.
        let route = OpenMapsCLI.run([
            "route", "60.1650,24.9360", "60.1780,24.9495", "--mode", "transit", "--depart", "2024-05-07T07:59",
            "--store", store, "--format", "text", "--lang", "it",
        ])
        #expect(route.standardOutput.contains("(in ritardo di 5 min)"), "\(route.standardOutput)")
        // A server judging by its clock leaves a message older than its maximum age out.
        let app = try MapsApp.onStore(path: store)
        let transit = try #require(app.transit as? StoreTransit)
        let clock = Clock(Self.feedTime + 3600)
        transit.judgeRealtime { Date(timeIntervalSince1970: Double(clock.now)) }
        let state = try transit.realtimeState()
        #expect(state.followed.isEmpty && state.ignored.first?.problem == "stale")
        let stale = try transit.journeys(from: Self.ruoholahti, to: Self.kallio, leaving: Self.tuesday)
        #expect(Self.rides(stale).allSatisfy { !$0.isLive })
        // A message polled again replaces it.
        let fresh = StoredRealtimeFeed(
            source: "example-transit", location: good, fetched: Self.feedTime + 3590, interval: 30, maxAge: 300,
            bytes: Self.delayed(120).encoded())
        var renewed = Self.delayed(120)
        renewed.timestamp = Self.feedTime + 3590
        try transit.receive(
            StoredRealtimeFeed(
                source: fresh.source, location: fresh.location, fetched: fresh.fetched, interval: 30, maxAge: 300,
                bytes: renewed.encoded()))
        let followed = try transit.journeys(from: Self.ruoholahti, to: Self.kallio, leaving: Self.tuesday)
        #expect(Self.rides(followed).contains { $0.tripID == "t1" && $0.departureDelay == 120 })
        // With no newer message, it goes stale as the clock runs.
        clock.now = Self.feedTime + 3590 + 301
        let later = try transit.journeys(from: Self.ruoholahti, to: Self.kallio, leaving: Self.tuesday)
        #expect(Self.rides(later).allSatisfy { !$0.isLive })
        #expect(try transit.realtimeState().ignored.first?.age == 301)
    }

    /// A clock a test sets.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Int
        init(_ value: Int) { self.value = value }
        var now: Int {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    @Test(arguments: [StoreEngine.sqlite, .postgis])
    func aFeedIsKeptOnEitherEngineAndReplacedByTheNextFromTheSamePlace(engine: StoreEngine) throws {
        let store: String
        switch engine {
        case .sqlite:
            store = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(UUID().uuidString).sqlite").path
        case .postgis: store = try PrivatePostgres.newDatabase()
        }
        let zip = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(UUID().uuidString).zip").path
        try Data(FixtureTimetable.zip()).write(to: URL(fileURLWithPath: zip))
        defer { try? FileManager.default.removeItem(atPath: zip) }
        _ = try GTFSImporter.importFeed(zip, into: store, name: "example-transit")
        let path = try write(Self.delayed(300))
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try RealtimeImport.importFeed(path, into: store, interval: 20, maxAge: 90)
        try Data(Self.delayed(240).encoded()).write(to: URL(fileURLWithPath: path))
        let report = try RealtimeImport.importFeed(path, into: store, interval: 20, maxAge: 90)
        #expect(report.source == "example-transit" && report.applied.updated == 1)
        let kept = try MapStore(path: store).realtimeFeeds()
        #expect(kept.count == 1 && kept.first?.bytes == Self.delayed(240).encoded())
        #expect(kept.first?.interval == 20 && kept.first?.maxAge == 90 && kept.first?.location == path)
        let app = try MapsApp.onStore(path: store)
        let found = try #require(app.transit).journeys(
            from: Self.ruoholahti, to: TransitTests.hakaniemi, leaving: Self.tuesday)
        #expect(Self.rides(found).contains { $0.tripID == "t1" && $0.departureDelay == 240 })
    }

    @Test func theTransitLayerDrawsTheVehiclesInTheirRoutesColour() throws {
        let store = try storeCopy()
        defer { try? FileManager.default.removeItem(atPath: store) }
        var feed = Self.delayed(0)
        // Tram 1 between Ruoholahti and Kamppi, heading north-east.
        let position = Coordinate(latitude: 60.1675, longitude: 24.9380)
        feed.vehicles = [
            Feed.VehiclePosition(
                entity: "v", trip: Feed.TripDescriptor(tripID: "t1"), vehicle: Feed.VehicleDescriptor(label: "407"),
                coordinate: position, bearing: 45)
        ]
        let path = try write(feed)
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try RealtimeImport.importFeed(path, into: store)
        let app = try MapsApp.onStore(path: store)
        let link = "comgooglemaps://?center=60.1675,24.9380&zoom=16&views=transit"
        let answer = try app.answer(link)
        let dots = answer.mapView.overlays.compactMap { overlay -> Marker? in
            if case .marker(let marker) = overlay, marker.isFlat { marker } else { nil }
        }
        #expect(dots.count == 1 && dots.first?.title == "1" && dots.first?.rotation == 45)
        #expect(dots.first?.color == Color(hex: 0x00985F))
        // Drawn at its place in tram 1's green; not drawn without the transit layer.
        let picture = try app.picture(of: answer).canvas
        let centre = answer.mapView.projection.point(for: position)
        let pixel = try #require(picture.pixel(x: Int(centre.x.rounded()), y: Int(centre.y.rounded())))
        #expect(pixel.distance(to: Pixel(Color(hex: 0x00985F))) <= 3, "\(pixel)")
        let plain = try app.answer("comgooglemaps://?center=60.1675,24.9380&zoom=16")
        #expect(!plain.mapView.overlays.contains { if case .marker(let marker) = $0 { marker.isFlat } else { false } })
    }

    @Test func theSeedJourneyTakesTheNextTrainWhenItsTrainIsLate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rt-nyc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: try SeedPlaces.westVillageStore(), toPath: store)
        _ = try GTFSImporter.importFeed(
            SeedPlaces.path(of: "nyc-subway-2018-partial.zip"), into: store, name: "nyc-subway")
        // 14 St–8 Av to Sutphin Blvd–Archer Av–JFK on Tuesday 2 October 2018 at 08:00: the E.
        let from = Coordinate(latitude: 40.7395, longitude: -74.0030)
        let to = Coordinate(latitude: 40.7005, longitude: -73.8080)
        let leaving = ServiceTime(date: 2018_10_02, weekday: 1, seconds: 8 * 3600)
        func best(_ store: String) throws -> Journey {
            let app = try MapsApp.onStore(path: store)
            return try #require(try app.transit?.journeys(from: from, to: to, leaving: leaving).first { $0.rides > 0 })
        }
        let onTime = try best(store)
        let first = try #require(Self.rides([onTime]).first)
        // Ten minutes late from its first stop.
        var feed = Feed(timestamp: 1_538_481_000)
        feed.tripUpdates = [
            Feed.TripUpdate(
                entity: "late", trip: Feed.TripDescriptor(tripID: first.tripID, startDate: 2018_10_02),
                stopTimeUpdates: [Feed.StopTimeUpdate(stopSequence: 1, departure: Feed.StopTimeEvent(delay: 600))])
        ]
        let path = try write(feed)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try RealtimeImport.importFeed(path, into: store)
        #expect(report.source == "nyc-subway" && report.applied.updated == 1)
        let late = try best(store)
        let taken = try #require(Self.rides([late]).first)
        // Another train, leaving before the late one comes, or the late one itself, arriving later.
        #expect(late.arrival > onTime.arrival)
        #expect(taken.tripID != first.tripID || taken.departure == first.departure + 600)
        #expect(taken.tripID == first.tripID || taken.departure < first.departure + 600)
    }
}
