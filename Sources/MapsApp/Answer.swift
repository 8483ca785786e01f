import Foundation
import GeoCore
import MapCore
import MapsURL
import Routing
import Transit

/// The maps app's answer to a link: what it was asked, the map view it opens, the places it
/// found and the notes on what it could not show. Every front end prints, serves or draws an
/// answer; none decides what a link means on its own.
public struct Answer {
    /// The link as given, or nil when a request was answered directly.
    public var link: String?
    /// The link's form, when it came from a link.
    public var form: LinkForm?
    /// What the link asks for.
    public var request: MapsRequest
    /// What the parser said about the link (adjusted or refused parts).
    public var diagnostics: [Diagnostic]
    /// The configured map view.
    public var mapView: MapView
    /// The places a search found, best first (at most ``MapsApp/searchResultLimit``).
    public var places: [FoundPlace]
    /// The directions' ends in order (start, stops, destination), each placed or not.
    public var routeEnds: [RouteEnd]
    /// What the answer cannot show and why, for the user.
    public var notes: [Note]
    /// The "back to the calling app" button: validated by ``CallbackPolicy``, offered to the
    /// user and never followed by itself; nil in navigation, as the URL scheme says.
    public var callback: Callback?
    /// What the data holds where the view looks (credits, regions, the no-data notice), when
    /// the app has a map engine.
    public var coverage: MapCoverage?
    /// The directions a directions link asks for: their ends placed, the routes or the journey,
    /// the steps; nil for another link.
    public var directions: DirectionsAnswer? = nil
    /// The route through the directions' ends, when one was found.
    public var route: Route? { directions?.routes.first }
    /// Other routes between the two ends (at most two), drawn greyed.
    public var alternatives: [Route] { Array(directions?.routes.dropFirst() ?? []) }
    /// The route's turn-by-turn steps, per leg; their sentences are in ``instructions``.
    public var steps: [[Step]] { directions?.steps.first ?? [] }
    /// The words of the answer's notes and steps, in its language.
    public var instructions = Instructions(.en)
    /// The language chosen for the answer (``AnswerOptions/language``, else the link's `hl`),
    /// in which its notes, steps and the map's words are written and place names read where
    /// the data has them; nil when none was chosen: English, with local names.
    public var language: Language? = nil
    /// For a link that asks to navigate (`nav=1`, `dir_action=navigate`, `google.navigation:`):
    /// the state a navigation app starts in.
    public var navigation: Navigation? = nil
    /// For a transit directions link: the journey found on the imported timetables.
    public var journey: Journey? { directions?.journeys.first }
}

/// What a navigation app shows as it starts: the next manoeuvre and how far it is, the time and
/// distance left, and when the route arrives.
public struct Navigation: Sendable {
    /// The step being travelled (0 at the start) and the manoeuvre at its end.
    public var step: Int
    /// The next step, whose manoeuvre comes at the end of the current one.
    public var next: Step
    /// Metres to the next manoeuvre, and left to the destination; seconds left.
    public var distanceToNext: Double
    /// Metres left to the destination.
    public var remainingDistance: Double
    /// Seconds left to the destination.
    public var remainingTime: Double
    /// When the route arrives, leaving at `departure`.
    public var arrival: Date

    /// The state at the start of step `step` of `route` (0 the departure; at most the last
    /// step before the arrival), having left at `departure`.
    public init(route: Route, steps: [[Step]], departure: Date, at step: Int = 0) {
        let all = Array(steps.joined())
        let index = min(max(step, 0), max(all.count - 2, 0))
        self.step = index
        next = all.count > index + 1 ? all[index + 1] : all[index]
        distanceToNext = all[index].distance
        remainingDistance = all[index...].map(\.distance).reduce(0, +)
        remainingTime = all[index...].map(\.duration).reduce(0, +)
        arrival = departure.addingTimeInterval(route.duration)
        current = all[index]
        travelled = Array(all[..<index].flatMap(\.geometry))
    }

    /// The step being travelled, and the positions of those before it.
    public var current: Step
    /// The positions of the steps already travelled.
    public var travelled: [Coordinate]

    /// The arrival time as this machine's clock shows it, `HH:mm`.
    public var arrivalText: String {
        let clock = DateFormatter()
        clock.dateFormat = "HH:mm"
        return clock.string(from: arrival)
    }

    /// The camera's tilt when navigating, degrees.
    public static let tilt = 45.0

    /// The camera's zoom when navigating: closer the slower the way of travel.
    public static func zoom(for mode: TravelProfile.Mode) -> Double {
        switch mode {
        case .driving, .twoWheeler: 17
        case .bicycling: 17.5
        case .walking: 18
        }
    }
}

/// A place found for a text.
public struct FoundPlace: Sendable, Equatable, Codable {
    /// The place's name (the text itself when the data has none).
    public var name: String
    /// Where its pin goes.
    public var position: Coordinate
    /// What it is, e.g. `city`, `restaurant`; nil when unknown.
    public var kind: String?
    /// Why it was chosen, e.g. "name matches 'Cupertino'" or, when only part of the text was
    /// found, "closest match: 'Mountain View'".
    public var why: String
    /// When only part of the text was found: that part, the place being its closest match.
    public var closestMatch: String?
    /// Distance from the search centre in metres, when the search had one.
    public var distance: Double?
    /// The data source it came from (`gazetteer`, a region's name).
    public var source: String?
    /// Its address on one line, when the data has one.
    public var address: String?
    /// Its plus code (``PlusCode``, 10 digits: a cell of about 14 × 14 m); nil for a place
    /// given by the link itself.
    public var plusCode: String?
    /// Whether it is open and until when ("Open until 20:00"), in the answer's language,
    /// where its opening hours are known.
    public var hours: String?

    /// A place found for a link, with why it was chosen.
    public init(
        name: String, position: Coordinate, kind: String? = nil, why: String, closestMatch: String? = nil,
        distance: Double? = nil, source: String? = nil, address: String? = nil, plusCode: String? = nil,
        hours: String? = nil
    ) {
        self.plusCode = plusCode
        self.hours = hours
        self.name = name
        self.position = position
        self.kind = kind
        self.why = why
        self.closestMatch = closestMatch
        self.distance = distance
        self.source = source
        self.address = address
    }
}

/// One end of a directions request, as the app placed it.
public struct RouteEnd: Sendable, Equatable, Codable {
    /// Which end: the start, a stop between, or the destination.
    public enum Role: String, Sendable, Codable {
        case start, stop, destination
    }

    /// Which end it is.
    public var role: Role
    /// The end as the link gives it.
    public var waypoint: Waypoint
    /// Where it was placed, or nil when it could not be (a text not found, an unknown current
    /// location).
    public var place: FoundPlace?

    /// An end of `role`, as the link gives it, placed at `place` (nil when it could not be).
    public init(role: Role, waypoint: Waypoint, place: FoundPlace?) {
        self.role = role
        self.waypoint = waypoint
        self.place = place
    }
}

/// Something the answer cannot show, and why.
public struct Note: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What kind of note, stable for programs.
    public enum Code: String, Sendable, Codable, CaseIterable {
        /// Street View imagery is not available.
        case streetViewUnavailable = "street-view-unavailable"
        /// A search found nothing.
        case noMatch = "no-match"
        /// Places match the search, but none near the link's center (``MapsApp/searchRadius``).
        case noMatchNearby = "no-match-nearby"
        /// A search or a text end could not be looked up: no place search is available.
        case searchUnavailable = "search-unavailable"
        /// Only part of a text was found; the place shown is the closest match.
        case partialMatch = "partial-match"
        /// A text written as a plus code is not one, or a short code has no place to be found near.
        case plusCodeUnread = "plus-code-unread"
        /// A directions end that could not be placed.
        case endNotPlaced = "end-not-placed"
        /// The link's points could not be placed; the whole world is shown.
        case nothingPlaced = "nothing-placed"
        /// A place id, which needs Google's place database.
        case placeIDUnresolved = "place-id-unresolved"
        /// A short link, which must be resolved over the network first.
        case shortLinkUnresolved = "short-link-unresolved"
        /// Directions are shown as their ends: no route could be found (the note says why).
        case routeUnavailable = "route-unavailable"
        /// The timetable does not run on the day asked for; another day's journeys are shown.
        case timetableDate = "timetable-date"
        /// Some walk of the journey is a straight line: no street data joins its ends.
        case straightLineWalk = "straight-line-walk"
        /// A realtime feed is too old to follow: the journeys keep the timetable's times.
        case realtimeStale = "realtime-stale"
        /// The x-callback button is not offered in navigation.
        case callbackHiddenInNavigation = "callback-hidden-in-navigation"
        /// A traffic feed was given but the traffic layer is off.
        case trafficFeedUnused = "traffic-feed-unused"
        /// Street zooms outside every imported region.
        case noStreetData = "no-street-data"
        /// The store's routing graph is missing or stale: the route was found more slowly.
        case routingGraphStale = "routing-graph-stale"
        /// The route takes a kind of road the link asks to avoid: there is no other way (or, for
        /// transit, the timetables cannot avoid it).
        case avoidanceUnmet = "avoidance-unmet"
        /// A transit journey goes from the start to the destination: the stops between are left out.
        case stopsLeftOut = "stops-left-out"
    }

    /// What kind of note, for programs.
    public var code: Code
    /// What it says, in the answer's language.
    public var message: String

    /// A note of `code` that says `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
