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
            return [
                "duration": journey.arrival - journey.departure, "distance": rounded(distance),
                "departure": clock(journey.departure), "arrival": clock(journey.arrival), "rides": journey.rides,
                "walking_duration": journey.walkingSeconds, "legs": legs,
            ]
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
            return [
                words.note(ride.headsign == nil ? "transit ride" : "transit ride towards", values),
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
