import GeoCore
import MapsURL
import Routing
import Transit

extension Note {
    /// What a note says, with its values: its ``Note/Code`` for programs and its sentence for
    /// people (the phrasebook's template of ``key``) both derive from the case.
    public enum Kind: Sendable, Equatable {
        /// The link asks for Street View, which no offline app has.
        case streetViewUnavailable
        /// A short link that only the network can resolve.
        case shortLinkUnresolved(link: String)
        /// A place id that only Google's database knows; `searchedInstead` when the link's text
        /// is searched for instead.
        case placeIDUnresolved(id: String, searchedInstead: Bool)
        /// A search's text with no place search to look it up.
        case searchUnavailable(text: String)
        /// Nothing in the map data matches the text.
        case noMatch(text: String)
        /// Places match, none near the map's center: the nearest (named with its source) and how
        /// far it is, in metres.
        case noMatchNearby(text: String, nearest: String, metres: Double)
        /// Only part of the text was found: the part matched.
        case partialMatch(text: String, match: String)
        /// The text starts with a word written as a plus code that is not one, and why.
        case notAPlusCode(text: String, reason: PlusCode.Failure)
        /// A short plus code with no place to recover it near: none named (`locality` nil) or
        /// one the data does not have.
        case shortPlusCodeUnplaced(code: String, locality: String?)
        /// A directions end's text with no place search to look it up.
        case endSearchUnavailable(End, text: String)
        /// Only part of a directions end's text was found.
        case endPartialMatch(End, text: String, match: String)
        /// A directions end's text is not in the map data.
        case endNotFound(End, text: String)
        /// A blank end stands for the user's location, which is not known.
        case endAtUnknownLocation(End)
        /// Nothing the link names could be placed; the world is shown.
        case nothingPlaced
        /// The back button is not shown during navigation.
        case callbackHiddenInNavigation
        /// A traffic feed is loaded but the link does not turn the traffic layer on.
        case trafficFeedUnused
        /// Street zooms outside every imported region: the renderer's notice, as written.
        case noStreetData(notice: String)
        /// No road network to route on: the ends are marked.
        case noRouting
        /// Not every end could be placed: no route.
        case endsNotPlaced
        /// The router's reason there is no route.
        case noRoute(RoutingError)
        /// No timetable is imported for transit directions.
        case noTimetable
        /// A transit journey goes from the start to the destination: the stops between are left out.
        case stopsLeftOut
        /// Transit journeys cannot avoid these kinds of road.
        case transitCannotAvoid([RouteAvoidance])
        /// No public transport journey gets there at that time.
        case noJourney
        /// The timetable does not run on the day asked for (`YYYYMMDD`); the journey is that of
        /// `used`.
        case timetableDate(asked: Int, used: Int)
        /// Some walk of the journey is a straight line.
        case straightLineWalk
        /// A realtime feed kept for the timetables is older than its maximum age (`minutes`
        /// old): the journeys follow the timetable.
        case realtimeStale(minutes: Int)
        /// What the router says of the route it found (an avoidance unmet, a routing graph
        /// missing or stale).
        case route(Route.Note)

        /// A directions end as notes name it: the start, stop `number` (1 the first), the
        /// destination.
        public struct End: Sendable, Equatable {
            /// Which end it is.
            public var role: RouteEnd.Role
            /// For a stop, its place among the stops (1 the first); unused otherwise.
            public var number: Int

            /// The end of `role`; for a stop, its place among the stops, 1 the first.
            public init(_ role: RouteEnd.Role, number: Int = 0) {
                self.role = role
                self.number = number
            }

            /// "the start", "stop 2", "the destination" in `words`' language.
            func name(_ words: Phrasebook) -> String {
                switch role {
                case .start: words.note("end start")
                case .stop: words.note("end stop", ["n": "\(number)"])
                case .destination: words.note("end destination")
                }
            }
        }

        /// The code programs read.
        public var code: Code {
            switch self {
            case .streetViewUnavailable: .streetViewUnavailable
            case .shortLinkUnresolved: .shortLinkUnresolved
            case .placeIDUnresolved: .placeIDUnresolved
            case .searchUnavailable, .endSearchUnavailable: .searchUnavailable
            case .noMatch: .noMatch
            case .noMatchNearby: .noMatchNearby
            case .partialMatch, .endPartialMatch: .partialMatch
            case .notAPlusCode, .shortPlusCodeUnplaced: .plusCodeUnread
            case .endNotFound, .endAtUnknownLocation: .endNotPlaced
            case .nothingPlaced: .nothingPlaced
            case .callbackHiddenInNavigation: .callbackHiddenInNavigation
            case .trafficFeedUnused: .trafficFeedUnused
            case .noStreetData: .noStreetData
            case .noRouting, .endsNotPlaced, .noRoute, .noTimetable, .noJourney: .routeUnavailable
            case .stopsLeftOut: .stopsLeftOut
            case .transitCannotAvoid: .avoidanceUnmet
            case .timetableDate: .timetableDate
            case .straightLineWalk: .straightLineWalk
            case .realtimeStale: .realtimeStale
            case .route(.avoidanceUnmet): .avoidanceUnmet
            case .route(.routingGraphMissing), .route(.routingGraphStale): .routingGraphStale
            }
        }

        /// The sentence in `words`' language.
        public func message(_ words: Phrasebook) -> String {
            switch self {
            case .streetViewUnavailable: words.note("street view")
            case .shortLinkUnresolved(let link): words.note("short link", ["link": link])
            case .placeIDUnresolved(let id, let searchedInstead):
                words.note(searchedInstead ? "place id with text" : "place id", ["id": id])
            case .searchUnavailable(let text): words.note("search unavailable", ["text": text])
            case .noMatch(let text): words.note("no match", ["text": text])
            case .noMatchNearby(let text, let nearest, let metres):
                words.note(
                    "no match nearby", ["text": text, "name": nearest, "distance": words.roundedDistance(metres)])
            case .partialMatch(let text, let match): words.note("partial match", ["text": text, "match": match])
            case .notAPlusCode(let text, let reason):
                words.note("not a plus code", ["text": text, "reason": reason.message(words)])
            case .shortPlusCodeUnplaced(let code, nil): words.note("short plus code", ["code": code])
            case .shortPlusCodeUnplaced(let code, let locality?):
                words.note("short plus code place", ["code": code, "locality": locality])
            case .endSearchUnavailable(let end, let text):
                words.note("end search unavailable", ["end": end.name(words), "text": text])
            case .endPartialMatch(let end, let text, let match):
                words.note("end partial match", ["end": end.name(words), "text": text, "match": match])
            case .endNotFound(let end, let text): words.note("end not found", ["end": end.name(words), "text": text])
            case .endAtUnknownLocation(let end): words.note("end my location", ["end": end.name(words)])
            case .nothingPlaced: words.note("nothing placed")
            case .callbackHiddenInNavigation: words.note("callback hidden")
            case .trafficFeedUnused: words.note("traffic feed unused", ["views": "views=traffic"])
            case .noStreetData(let notice): notice
            case .noRouting: words.note("no routing")
            case .endsNotPlaced: words.note("ends not placed")
            case .noRoute(let reason): words.note("no route", ["reason": reason.message(words)])
            case .noTimetable: words.note("no transit")
            case .stopsLeftOut: words.note("transit stops")
            case .transitCannotAvoid(let kinds):
                words.note("transit avoid", ["features": words.list(kinds.sorted().map { words.word($0.rawValue) })])
            case .noJourney: words.note("transit no journey")
            case .timetableDate(let asked, let used):
                words.note(
                    "transit timetable date", ["date": ServiceTime.written(asked), "used": ServiceTime.written(used)])
            case .straightLineWalk: words.note("transit straight line")
            case .realtimeStale(let minutes):
                // Days once it is two days old: a feed that stopped long ago is not counted in minutes.
                minutes < 2 * 1440
                    ? words.note("transit realtime stale", ["minutes": String(minutes)])
                    : words.note("transit realtime stale days", ["days": String(minutes / 1440)])
            case .route(let note): note.message(words)
            }
        }

        /// One of each kind, with values, for tests and documentation.
        public static let examples: [Kind] = [
            .streetViewUnavailable, .shortLinkUnresolved(link: "https://goo.gl/maps/abc"),
            .placeIDUnresolved(id: "ChIJ", searchedInstead: false),
            .placeIDUnresolved(id: "ChIJ", searchedInstead: true),
            .searchUnavailable(text: "Pizza"), .noMatch(text: "Pizza"),
            .noMatchNearby(text: "Pizza", nearest: "Pizza Hut (gazetteer)", metres: 12_345),
            .partialMatch(text: "Tokyo Tower, Tokyo", match: "Tokyo"),
            .notAPlusCode(text: "88888888888888888888+XX", reason: .separator),
            .notAPlusCode(text: "8FVC9G8F+6XA", reason: .character("A", at: 11)),
            .shortPlusCodeUnplaced(code: "CWC8+R9", locality: nil),
            .shortPlusCodeUnplaced(code: "CWC8+R9", locality: "Atlantis"),
            .endSearchUnavailable(End(.start), text: "Kamppi"),
            .endPartialMatch(End(.stop, number: 2), text: "Kamppi, Helsinki", match: "Kamppi"),
            .endNotFound(End(.destination), text: "Atlantis"), .endAtUnknownLocation(End(.start)), .nothingPlaced,
            .callbackHiddenInNavigation, .trafficFeedUnused, .noStreetData(notice: "No street data here"), .noRouting,
            .endsNotPlaced, .noRoute(.noRoute(from: 0, to: 1, mode: .driving)), .noTimetable, .stopsLeftOut,
            .transitCannotAvoid([.tolls, .ferries]), .noJourney, .timetableDate(asked: 2026_12_01, used: 2024_05_07),
            .straightLineWalk, .realtimeStale(minutes: 42), .realtimeStale(minutes: 4_295_708),
            .route(.avoidanceUnmet(leg: 0, features: [.tolls], roads: ["A1"])),
            .route(.routingGraphMissing(.walking)),
        ]
    }

    /// The note of `kind`, in `words`' language.
    public init(_ kind: Kind, words: Phrasebook) { self.init(kind.code, kind.message(words)) }
}
