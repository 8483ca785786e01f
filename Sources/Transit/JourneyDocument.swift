import Foundation
import GeoCore
import MapData
import Routing

/// Journeys written out: as OSRM-like JSON (a route a journey, a leg a walk or a ride) and as
/// an itinerary a person reads, in any of the phrasebook's languages.
public enum JourneyDocument {
    /// `HH:MM` of seconds after midnight (a time past midnight as the next day's).
    public static func clock(_ seconds: Int) -> String {
        let minutes = (seconds + 30) / 60
        return String(format: "%02d:%02d", minutes / 60 % 24, minutes % 60)
    }

    /// A route's name as riders know it: its short name, else its long name, else its id.
    public static func name(of route: Timetable.Route) -> String {
        route.shortName ?? route.longName ?? route.id
    }

    /// The journeys as OSRM writes routes: `routes[i].duration` from the departure to the
    /// arrival (seconds), `distance` (metres), `departure`/`arrival` (`HH:MM`, local), and
    /// `legs`, each `mode` `walking` or `transit`; a ride carries its route's names, colours,
    /// headsign, boarding and alighting stops with times, and the stops it calls at.
    ///
    /// With `instructions`, a walk by the streets carries its turn-by-turn `steps` (each its
    /// `instruction`, `distance` and `duration`) in their language.
    public static func osrm(_ journeys: [Journey], timezone: String, instructions: Instructions? = nil) -> String {
        let routes = journeys.map { journey -> [String: Any] in
            let legs = journey.legs.map { leg -> [String: Any] in
                switch leg {
                case .walk(let walk):
                    var written: [String: Any] = [
                        "mode": "walking", "duration": walk.walk.seconds, "distance": rounded(walk.walk.metres),
                        "departure": clock(walk.departure), "arrival": clock(walk.departure + walk.walk.seconds),
                        "from": walk.fromName ?? "", "to": walk.toName ?? "", "straight_line": walk.walk.straightLine,
                        "geometry": EncodedPolyline.encode(walk.walk.geometry),
                    ]
                    if let instructions {
                        written["steps"] = walk.walk.steps.map { step -> [String: Any] in
                            [
                                "instruction": instructions.text(for: step), "distance": rounded(step.distance),
                                "duration": rounded(step.duration),
                            ]
                        }
                    }
                    return written
                case .ride(let ride):
                    var written: [String: Any] = [
                        "mode": "transit", "duration": ride.arrival - ride.departure,
                        "distance": rounded(length(ride.geometry)), "route": name(of: ride.route),
                        "route_long_name": ride.route.longName ?? "", "route_type": ride.route.type,
                        "headsign": ride.headsign ?? "", "trip": ride.tripID, "feed": ride.feed,
                        "from": ride.from, "to": ride.to, "departure": clock(ride.departure),
                        "arrival": clock(ride.arrival), "stops": ride.stops,
                        "geometry": EncodedPolyline.encode(ride.geometry),
                    ]
                    // Live times: the delays, the timetable's times and a status word.
                    written["realtime"] = ride.isLive
                    if ride.isLive {
                        written["departure_delay"] = ride.departureDelay ?? 0
                        written["arrival_delay"] = ride.arrivalDelay ?? 0
                        written["scheduled_departure"] = clock(ride.departure - (ride.departureDelay ?? 0))
                        written["scheduled_arrival"] = clock(ride.arrival - (ride.arrivalDelay ?? 0))
                        written["status"] = status(ride).code
                    }
                    // As GTFS writes colours: RRGGBB.
                    if let colour = ride.route.colour { written["route_color"] = gtfsColour(colour) }
                    if let colour = ride.route.textColour { written["route_text_color"] = gtfsColour(colour) }
                    return written
                }
            }
            let distance = journey.legs.reduce(0.0) { total, leg in
                switch leg {
                case .walk(let walk): total + walk.walk.metres
                case .ride(let ride): total + length(ride.geometry)
                }
            }
            var written: [String: Any] = [
                "duration": journey.arrival - journey.departure, "distance": rounded(distance),
                "departure": clock(journey.departure), "arrival": clock(journey.arrival), "rides": journey.rides,
                "walking_duration": journey.walkingSeconds, "legs": legs,
            ]
            if let time = journey.liveFeedTime { written["realtime_feed_time"] = isoTime(time) }
            written["cancelled"] = journey.cancelled.map { run -> [String: Any] in
                ["route": name(of: run.route), "from": run.stop, "departure": clock(run.departure)]
            }
            let language = instructions?.words.language.rawValue ?? "en"
            written["alerts"] = journey.alerts.map { alert -> [String: Any] in
                var entry: [String: Any] = ["id": alert.entity, "effect": alert.effectName]
                if let header = alert.header?.text(in: language) { entry["header"] = header }
                if let description = alert.description?.text(in: language) { entry["description"] = description }
                if let url = alert.url?.text(in: language) { entry["url"] = url }
                return entry
            }
            return written
        }
        let document: [String: Any] = [
            "code": journeys.isEmpty ? "NoRoute" : "Ok", "timezone": timezone, "routes": routes,
        ]
        return JSONText.pretty(document)
    }

    /// The journey as an itinerary: its summary, then its legs numbered, in `words`' language.
    /// A walk by the streets of more than a turn has its turns beneath it.
    public static func itinerary(_ journey: Journey, words: Phrasebook) -> String {
        let instructions = Instructions(words.language, units: words.units)
        var text = [summary(journey, words: words)]
        var number = 0
        for leg in journey.legs {
            for line in lines(of: leg, words: words) {
                number += 1
                text.append("\(number). \(line)")
            }
            // Its turns, without the arrival (the next line says where it ends).
            if case .walk(let walk) = leg, walk.walk.steps.count > 2 {
                for step in walk.walk.steps.dropLast() {
                    text.append("   · \(instructions.text(for: step)) (\(words.roundedDistance(step.distance)))")
                }
            }
        }
        text += notes(journey, words: words)
        if journey.walksStraightLines { text.append(words.note("transit straight line")) }
        return text.joined(separator: "\n")
    }

    /// When the journey leaves and arrives and how long it takes, in a sentence.
    public static func summary(_ journey: Journey, words: Phrasebook) -> String {
        words.note(
            "transit summary",
            [
                "departure": clock(journey.departure), "arrival": clock(journey.arrival),
                "duration": words.duration(Double(journey.arrival - journey.departure)),
            ])
    }

    /// Beneath the itinerary: the alerts touching the journey (in `words`' language where the
    /// feed has it) and when the live times were made.
    public static func notes(_ journey: Journey, words: Phrasebook) -> [String] {
        var notes = journey.cancelled.map { run in
            words.note(
                "transit cancelled",
                [
                    "time": clock(run.departure), "route": name(of: run.route), "stop": run.stop,
                    "kind": words.word((TransitVehicle(routeType: run.route.type) ?? .bus).wordKey),
                ])
        }
        notes += journey.alerts.compactMap { alert in
            (alert.header ?? alert.description)?.text(in: words.language.rawValue).map {
                words.note("transit alert", ["text": $0])
            }
        }
        if let time = journey.liveFeedTime, let zone = journey.timezone.flatMap(TimeZone.init(identifier:)) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: Double(time)))
            let clock = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
            notes.append(words.note("transit live feed", ["time": clock]))
        }
        return notes
    }

    /// A live ride's status: on time within a minute, else minutes late or early at boarding
    /// (at the stop left when boarding has no prediction).
    public static func status(_ ride: Journey.Ride) -> (code: String, minutes: Int) {
        let delay = ride.departureDelay ?? ride.arrivalDelay ?? 0
        let minutes = (abs(delay) + 30) / 60
        if minutes == 0 { return ("on_time", 0) }
        return (delay > 0 ? "late" : "early", minutes)
    }

    /// A live ride's status in words ("3 min late"), nil for a ride on the timetable's times.
    public static func statusWords(_ ride: Journey.Ride, words: Phrasebook) -> String? {
        guard ride.isLive else { return nil }
        let (code, minutes) = status(ride)
        switch code {
        case "on_time": return words.note("transit live on time")
        case "late": return words.note("transit live late", ["minutes": String(minutes)])
        default: return words.note("transit live early", ["minutes": String(minutes)])
        }
    }

    /// `time` (POSIX seconds) as ISO 8601 in UTC.
    static func isoTime(_ time: Int) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(time)))
    }

    /// What to do, a sentence a walk and two a ride (board, get off).
    public static func lines(_ journey: Journey, words: Phrasebook) -> [String] {
        journey.legs.flatMap { lines(of: $0, words: words) }
    }

    /// A leg's sentences: one for a walk, two for a ride (board, get off).
    static func lines(of leg: Journey.Leg, words: Phrasebook) -> [String] {
        switch leg {
        case .walk(let walk):
            let values = [
                "time": clock(walk.departure), "stop": walk.toName ?? "",
                "distance": words.roundedDistance(walk.walk.metres),
                "duration": words.duration(Double(walk.walk.seconds)),
            ]
            return [words.note(walk.toName == nil ? "transit walk to destination" : "transit walk", values)]
        case .ride(let ride):
            var values = [
                "time": clock(ride.departure), "route": name(of: ride.route), "from": ride.from,
                "headsign": ride.headsign ?? "", "stop": ride.to, "arrival": clock(ride.arrival),
                "count": String(ride.stops),
            ]
            values["kind"] = words.word((TransitVehicle(routeType: ride.route.type) ?? .bus).wordKey)
            let board = words.note(ride.headsign == nil ? "transit ride" : "transit ride towards", values)
            return [
                statusWords(ride, words: words).map { "\(board) (\($0))" } ?? board,
                words.note(ride.stops == 1 ? "transit get off next" : "transit get off", values),
            ]
        }
    }

    static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    /// `#rrggbb` as GTFS writes it, `RRGGBB`.
    static func gtfsColour(_ colour: String) -> String {
        String(colour.drop { $0 == "#" }).uppercased()
    }

    static func length(_ points: [Coordinate]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }
}
