import Foundation
import GeoCore
import MapCore
import MapData
import MapsApp
import TestSupport
import Testing

@testable import MapsCLI
@testable import Transit

/// Timetables read from a feed and journeys planned on them, over the fixture store's streets.
@Suite struct TransitTests {
    /// A copy of the fixture store with ``FixtureTimetable`` imported (once a process).
    static let store: Result<String, any Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmaps-transit-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: try FixtureStore.path(), toPath: store)
        let feed = folder.appendingPathComponent("timetable.zip").path
        try Data(FixtureTimetable.zip()).write(to: URL(fileURLWithPath: feed))
        _ = try GTFSImporter.importFeed(feed, into: store, name: "example-transit")
        return store
    }

    /// A feed file of `files` in a fresh temporary folder.
    func feed(_ files: [String: String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString).zip").path
        try Data(FixtureTimetable.zip(files)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aTimetableIsReadWithBlankTimesFilledFrequenciesWrittenOutAndCalendars() throws {
        let path = try feed(FixtureTimetable.files)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let timetable = try Timetable(feed: path)
        #expect(timetable.timezone == "Europe/Helsinki")
        // Kamppi's blank time on t1 lies between 08:00 and 08:10 by distance along the way.
        let t1 = timetable.calls(of: 0)
        let kamppi = Int(timetable.arrivals[t1.lowerBound + 1])
        let a = Coordinate(latitude: 60.1650, longitude: 24.9360)
        let b = Coordinate(latitude: 60.1700, longitude: 24.9400)
        let c = Coordinate(latitude: 60.1780, longitude: 24.9500)
        let share = a.distance(to: b) / (a.distance(to: b) + b.distance(to: c))
        #expect(abs(kamppi - (8 * 3600 + Int((600 * share).rounded()))) <= 1)
        // After midnight: 24:10 is 87,000 s after the service day's midnight.
        #expect(timetable.departures[timetable.calls(of: 1).lowerBound] == 87_000)
        // Bus 2 every 15 minutes from 09:00 to 10:00 and from 17:00 to 17:30: six runs written
        // out, the template emptied.
        let runs = timetable.trips.filter { $0.id.hasPrefix("t4@") }
        #expect(runs.count == 6 && Set(runs.map(\.id)).count == 6)
        #expect(timetable.trips.first { $0.id == "t4" }?.callCount == 0)
        let weekdays = try #require(timetable.services.first)
        #expect(weekdays.runs(on: 2024_05_07, weekday: 1) && !weekdays.runs(on: 2024_05_06, weekday: 0))
        #expect(!weekdays.runs(on: 2024_05_11, weekday: 5) && !weekdays.runs(on: 2025_01_06, weekday: 0))
    }

    @Test func localTimesAndServiceDaysAreCountedInDays() throws {
        let tuesday = try #require(ServiceTime(local: "2017-10-03T15:58"))
        #expect(tuesday == ServiceTime(date: 2017_10_03, weekday: 1, seconds: 57_480))
        #expect(ServiceTime(local: "2024-02-29T00:00")?.weekday == 3)
        #expect(ServiceTime(local: "2023-02-29T00:00") == nil && ServiceTime(local: "2024-04-31T08:00") == nil)
        #expect(ServiceTime(local: "2024-05-07T24:00") == nil && ServiceTime(local: "2024-05-07") == nil)
        // A timetable ended in 2018: the same Tuesday of its last week.
        let now = ServiceTime(date: 2026_12_01, weekday: 1, seconds: 0)
        #expect(now.within(last: 2018_12_31) == ServiceTime(date: 2018_12_25, weekday: 1, seconds: 0))
        #expect(now.within(last: 2030_01_01) == now)
        #expect(ServiceTime(date: 2024_03_01, weekday: 4, seconds: 0).previousDay == (2024_02_29, 3))
        #expect(ServiceTime(date: 2025_01_01, weekday: 2, seconds: 0).previousDay == (2024_12_31, 1))
    }

    @Test(arguments: [
        (
            "stop_times.txt", "t1,25:61:00,25:61:00,A,1",
            "stop_times.txt line 2: arrival_time '25:61:00' is not a time HH:MM:SS"
        ),
        ("stop_times.txt", "t1,08:00:00,08:00:00,Z,1", "stop_times.txt line 2: stop_id 'Z' is not in stops.txt"),
        (
            "trips.txt", "1,holiday,t1,Hakaniemi",
            "trips.txt line 2: service_id 'holiday' is not in calendar.txt or calendar_dates.txt"
        ),
        ("calendar.txt", "wk,1,1,1,1,1,0,2,20240101,20241231", "calendar.txt line 2: sunday '2' is not 0 or 1"),
    ])
    func badDataIsNamedByFileLineAndField(file: String, firstRow: String, message: String) throws {
        var files = FixtureTimetable.files
        var lines = files[file]!.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[1] = firstRow
        files[file] = lines.joined(separator: "\n")
        let path = try feed(files)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try Timetable(feed: path)
        } throws: { error in
            (error as? DataError)?.message == message
        }
        // And the import fails as a whole: the store keeps no part of the feed.
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("s-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        #expect(throws: DataError.self) { try GTFSImporter.importFeed(path, into: store) }
        let kept = FileManager.default.fileExists(atPath: store) ? try MapStore(path: store).timetables().count : 0
        #expect(kept == 0)
    }

    @Test func noBoardingWhereTheFeedSaysNoPickup() throws {
        var files = FixtureTimetable.files
        files["stop_times.txt"] = files["stop_times.txt"]!
            .replacingOccurrences(
                of: "trip_id,arrival_time,departure_time,stop_id,stop_sequence",
                with: "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type"
            )
            .replacingOccurrences(of: "t3,08:08:00,08:08:00,B,1", with: "t3,08:08:00,08:08:00,B,1,1")
        let path = try feed(files)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let timetable = try Timetable(feed: path)
        #expect(timetable.callRestrictions.filter { $0 & 1 != 0 }.count == 1)
        let network = TransitNetwork(feeds: [("example", timetable)]) { Walk.straight($0, $1).seconds }
        let planner = JourneyPlanner(network: network) { Walk.straight($0, $1) }
        let found = planner.journeys(
            from: Self.ruoholahti, to: Self.kallio, leaving: ServiceTime(date: 2024_05_07, weekday: 1, seconds: 28_740))
        // The 08:08 bus may not be boarded at Kamppi: no journey rides it (where it would be
        // ridden without the rule).
        func rides(_ journeys: [Journey]) -> [String] {
            journeys.flatMap { $0.legs.compactMap { if case .ride(let ride) = $0 { ride.tripID } else { nil } } }
        }
        #expect(!rides(found).contains("t3"))
        let open = try Timetable(feed: try feed(FixtureTimetable.files))
        let openPlanner = JourneyPlanner(
            network: TransitNetwork(feeds: [("example", open)]) { Walk.straight($0, $1).seconds }
        ) { Walk.straight($0, $1) }
        let unrestricted = openPlanner.journeys(
            from: Self.ruoholahti, to: Self.kallio, leaving: ServiceTime(date: 2024_05_07, weekday: 1, seconds: 28_740))
        #expect(rides(unrestricted).contains("t3"))
    }

    @Test func aFeedWithoutCalendarsIsRefusedATimetableButKeepsItsNetwork() throws {
        var files = FixtureTimetable.files
        files["calendar.txt"] = nil
        files["calendar_dates.txt"] = nil
        let path = try feed(files)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: DataError.self) { try Timetable(feed: path) }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("s-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let report = try GTFSImporter.importFeed(path, into: store)
        #expect(report.routes == 2 && report.trips == 0)
    }

    /// The journeys from Ruoholahti's corner to Kallio's on a day at a time.
    func journeys(_ date: Int, _ weekday: Int, _ seconds: Int, from: Coordinate, to: Coordinate) throws -> [Journey] {
        let app = try MapsApp.onStore(path: try Self.store.get())
        return try #require(app.transit).journeys(
            from: from, to: to, leaving: ServiceTime(date: date, weekday: weekday, seconds: seconds))
    }

    static let ruoholahti = Coordinate(latitude: 60.1650, longitude: 24.9360)
    static let kallio = Coordinate(latitude: 60.1790, longitude: 24.9325)
    static let hakaniemi = Coordinate(latitude: 60.1780, longitude: 24.9495)

    @Test func aJourneyWalksRidesChangesAndWalks() throws {
        // Tuesday 7 May 2024, 07:59: too late to walk to Kamppi for the 08:08 bus, in time for the
        // 08:00 tram that makes it (two minutes to change).
        let found = try journeys(2024_05_07, 1, 7 * 3600 + 59 * 60, from: Self.ruoholahti, to: Self.kallio)
        let best = try #require(found.first)
        #expect(best.rides == 2, "\(found.map { ($0.rides, $0.arrival, $0.legs.count) })")
        let rides = best.legs.compactMap { if case .ride(let ride) = $0 { ride } else { nil } }
        #expect(rides.map(\.route.shortName) == ["1", "2"])
        #expect(rides.first?.from == "Ruoholahti" && rides.first?.to == "Kamppi" && rides.last?.to == "Kallio")
        #expect(rides.last.map { JourneyDocument.clock($0.departure) } == "08:08")
        #expect(best.arrival >= 8 * 3600 + 12 * 60 && best.arrival < 8 * 3600 + 14 * 60)
    }

    @Test func aJourneyWalkingLessIsOfferedBesideTheQuickest() throws {
        // Leaving Ruoholahti at 07:50: walking 12 minutes to Kamppi catches the 08:08 bus as well
        // as the 08:00 tram does, so the quickest needs one ride but walks; the tram and the bus
        // arrive as early and walk less.
        let found = try journeys(2024_05_07, 1, 7 * 3600 + 50 * 60, from: Self.ruoholahti, to: Self.kallio)
        let walking = try #require(found.first { $0.rides == 1 })
        let lessWalking = try #require(
            found.first { $0.rides == 2 }, "\(found.map { ($0.rides, $0.walkingSeconds, $0.arrival) })")
        #expect(walking.walkingSeconds > JourneyPlanner.lessWalkingFrom)
        #expect(lessWalking.walkingSeconds + 120 <= walking.walkingSeconds)
        #expect(lessWalking.arrival == walking.arrival)
        // Its times are real walks, not the search's weighed ones: the walk to the tram leaves at 07:50.
        guard case .walk(let first) = lessWalking.legs.first else { return }
        #expect(first.departure == 7 * 3600 + 50 * 60 && first.walk.seconds < 120)
    }

    @Test func theChangeTimeAtAStopIsKept() throws {
        // Leaving after the morning tram, the only rides left are the 09:00 bus and its repeats.
        let found = try journeys(2024_05_07, 1, 8 * 3600 + 30 * 60, from: Self.ruoholahti, to: Self.kallio)
        for journey in found where journey.rides > 0 {
            let rides = journey.legs.compactMap { if case .ride(let ride) = $0 { ride } else { nil } }
            #expect(rides.allSatisfy { $0.departure >= 8 * 3600 + 30 * 60 })
        }
    }

    @Test func aTripAfterMidnightRunsOnItsServiceDay() throws {
        // Wednesday 00:05: Tuesday's 24:10 tram is the 00:10 one.
        let found = try journeys(2024_05_08, 2, 5 * 60, from: Self.ruoholahti, to: Self.hakaniemi)
        let ride = found.compactMap { journey in
            journey.legs.compactMap { if case .ride(let ride) = $0 { ride } else { nil } }.first
        }.first
        #expect(ride.map { JourneyDocument.clock($0.departure) } == "00:10")
        #expect(ride?.arrival == 20 * 60)
    }

    @Test func arrivingByLeavesAsLateAsTheRidesAllow() throws {
        let app = try MapsApp.onStore(path: try Self.store.get())
        // Be at Kallio by 08:15 on Tuesday: the 08:00 tram and the 08:08 bus.
        let found = try #require(app.transit).journeys(
            from: Self.ruoholahti, to: Self.kallio,
            arrivingBy: ServiceTime(date: 2024_05_07, weekday: 1, seconds: 29_700))
        let ride = try #require(found.first { $0.rides > 0 })
        #expect(ride.rides == 2 && ride.arrival <= 29_700)
        // Leaving just in time for the tram, not at the first departure tried.
        #expect(ride.departure > 7 * 3600 + 55 * 60 && ride.departure <= 8 * 3600)
        // Too early for any ride: walking only.
        let early = try #require(app.transit).journeys(
            from: Self.ruoholahti, to: Self.kallio,
            arrivingBy: ServiceTime(date: 2024_05_07, weekday: 1, seconds: 27_000))
        #expect(early.allSatisfy { $0.rides == 0 && $0.arrival <= 27_000 })
    }

    @Test func aHolidayHasNoService() throws {
        // Monday 6 May 2024 is removed from the weekday service: walking is all there is.
        let found = try journeys(2024_05_06, 0, 7 * 3600 + 59 * 60, from: Self.ruoholahti, to: Self.kallio)
        #expect(found.allSatisfy { $0.rides == 0 })
        #expect(found.count == 1)
    }

    @Test func aTransitLinkIsAnsweredWithItsJourneyDrawnAndWrittenOut() throws {
        let app = try MapsApp.onStore(path: try Self.store.get())
        let link = "comgooglemaps://?saddr=60.1650,24.9360&daddr=60.1790,24.9325&directionsmode=transit"
        var options = AnswerOptions()
        options.language = .es
        // Tuesday 7 May 2024, 07:59 in Helsinki (summer time, 04:59 UTC).
        options.departure = Date(timeIntervalSince1970: 1_715_057_940)
        let answer = try app.answer(link, options: options)
        let journey = try #require(answer.journey)
        #expect(journey.rides == 2 && answer.notes.isEmpty, "\(answer.notes)")
        // The rides drawn in their route's colour (tram 1's green), the walks dotted.
        let lines = answer.mapView.overlays.compactMap { overlay -> Polyline? in
            if case .polyline(let line) = overlay, line.title != nil { line } else { nil }
        }
        #expect(lines.contains { $0.title == "route" && $0.strokeColor == Color(hex: 0x00985F) })
        #expect(lines.contains { $0.title == "walk" && $0.pattern == [1, 9] })
        // Pins where each ride is boarded and left, in its colour.
        let pins = answer.mapView.overlays.compactMap { overlay -> Marker? in
            if case .marker(let marker) = overlay, marker.color != nil { marker } else { nil }
        }
        #expect(pins.map(\.title) == ["Ruoholahti", "Kamppi", "Kamppi", "Kallio"])
        #expect(pins.first?.color == Color(hex: 0x00985F))
        let document = AnswerDocument(answer)
        #expect(document.transit?.summary.hasPrefix("Sal a las 07:59") == true)
        #expect(document.transit?.itinerary.count == 6)
        // A day the timetable no longer runs: the same weekday of its last week, said so.
        options.departure = Date(timeIntervalSince1970: 1_796_104_740)  // Tuesday 1 December 2026, 07:59
        let later = try app.answer(link, options: options)
        #expect(later.notes.contains { $0.code == .timetableDate })
    }

    @Test func theCLIWritesJourneysAsJSONAndAsAnItineraryInFourLanguages() throws {
        let store = try Self.store.get()
        let arguments = [
            "route", "60.1650,24.9360", "60.1790,24.9325", "--mode", "transit", "--depart", "2024-05-07T07:59",
            "--store", store,
        ]
        let json = OpenMapsCLI.run(arguments)
        #expect(json.exitCode == 0)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let route = try #require((document["routes"] as? [[String: Any]])?.first)
        #expect(document["code"] as? String == "Ok" && document["timezone"] as? String == "Europe/Helsinki")
        #expect(route["departure"] as? String == "07:59" && route["rides"] as? Int == 2)
        let legs = route["legs"] as? [[String: Any]] ?? []
        #expect(legs.contains { $0["route"] as? String == "1" && $0["route_color"] as? String == "00985F" })
        #expect(legs.filter { $0["mode"] as? String == "walking" }.allSatisfy { $0["steps"] is [[String: Any]] })
        let spanish = OpenMapsCLI.run(arguments + ["--format", "text", "--lang", "es"])
        #expect(spanish.standardOutput.contains("toma el tranvía 1 en dirección a Hakaniemi en Ruoholahti"))
        let hindi = OpenMapsCLI.run(arguments + ["--format", "text", "--lang", "hi"])
        #expect(hindi.standardOutput.contains("बजे Kamppi पर उतरें") || hindi.standardOutput.contains("अगले स्टॉप, Kamppi"))
        let bad = OpenMapsCLI.run(Array(arguments.dropLast(4)) + ["--depart", "2024-13-07T07:55", "--store", store])
        #expect(bad.exitCode == 64 && bad.standardError.contains("'--depart' must be YYYY-MM-DDTHH:MM"))
    }

    /// A small feed over the real West Village streets: line X from Christopher St to W 4 St,
    /// line Y from Bleecker St (a short walk from W 4 St) to Jane St.
    static let westVillageFeed: [String: String] = [
        "agency.txt":
            "agency_id,agency_name,agency_url,agency_timezone\nx,Example Lines,https://example.org,America/New_York\n",
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        S1,Christopher St,40.7334,-74.0027
        S2,W 4 St,40.7358,-74.0010
        S3,Bleecker St,40.7365,-74.0020
        S4,Jane St,40.7380,-74.0060
        """,
        "routes.txt": "route_id,route_short_name,route_type\nX,X,3\nY,Y,3\n",
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        all,1,1,1,1,1,1,1,20240101,20241231
        """,
        "trips.txt": "route_id,service_id,trip_id\nX,all,x1\nY,all,y1\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        x1,07:56:00,07:56:00,S1,1
        x1,07:57:00,07:57:00,S2,2
        y1,07:59:30,07:59:30,S3,1
        y1,08:01:00,08:01:00,S4,2
        """,
    ]

    @Test func walksGoByTheStreetsAndChangesWalkBetweenStops() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: try SeedPlaces.westVillageStore(), toPath: store)
        let feed = folder.appendingPathComponent("feed.zip").path
        try Data(FixtureFeed.zip(Self.westVillageFeed)).write(to: URL(fileURLWithPath: feed))
        _ = try GTFSImporter.importFeed(feed, into: store, name: "west-village-lines")
        let app = try MapsApp.onStore(path: store)
        let found = try #require(app.transit).journeys(
            from: Coordinate(latitude: 40.7333, longitude: -74.0028),
            to: Coordinate(latitude: 40.7381, longitude: -74.0061),
            leaving: ServiceTime(date: 2024_05_07, weekday: 1, seconds: 7 * 3600 + 55 * 60))
        let best = try #require(found.first)
        #expect(best.rides == 2, "\(found.map { ($0.rides, $0.arrival, $0.legs.count) })")
        // The change: a walk from W 4 St to Bleecker St between the rides.
        let names = best.legs.map { leg -> String in
            switch leg {
            case .walk(let walk): "walk \(walk.fromName ?? "start")→\(walk.toName ?? "end")"
            case .ride(let ride): "ride \(ride.route.shortName ?? "")"
            }
        }
        #expect(
            names == ["walk start→Christopher St", "ride X", "walk W 4 St→Bleecker St", "ride Y", "walk Jane St→end"])
        // The ends' walks follow the streets.
        guard case .walk(let access) = best.legs.first, case .walk(let egress) = best.legs.last else { return }
        #expect(!access.walk.straightLine)
        // With their turns, as any walk by the streets.
        #expect(egress.walk.steps.first?.maneuver.kind == .depart && egress.walk.steps.last?.maneuver.kind == .arrive)
    }
}
