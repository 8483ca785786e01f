import Foundation
import GeoCore
import MapsURL
import Routing
import Transit

/// An answer as a document for programs and pages (`openmaps open --answer FILE.json`, the
/// demo page): what the link asks for in a sentence, the request, the places found, the
/// directions' ends, the notes, the offered callback, the data credited and the map view.
public struct AnswerDocument: Encodable, Sendable {
    /// The link answered, as given; nil for a request built without one.
    public var link: String?
    /// The form the link was read as (`comgooglemaps`, a desktop URL, …).
    public var form: LinkForm?
    /// What the link does: show a map, search, give directions or show Street View.
    public var action: MapsAction
    /// What the link asks for, in a sentence (``Answer/asks``).
    public var asks: String
    /// The request read from the link.
    public var request: MapsRequest
    /// The places found for a search.
    public var places: [FoundPlace]
    /// The directions' ends, as placed.
    public var routeEnds: [RouteEnd]
    /// What a reader should know of the answer, in its language.
    public var notes: [Note]
    /// The "back to the calling app" button offered: its label and the URL it opens.
    public var callback: OfferedCallback?
    /// The credits of the data where the view looks.
    public var credits: [String]
    /// The imported street-data regions in view.
    public var regions: [String]
    /// The route, summed up: mode, metres, seconds, the roads it takes, its legs.
    public var route: RouteSummary?
    /// Its alternatives, summed up the same way.
    public var alternatives: [RouteSummary]
    /// The route's steps in the answer's language (`language`, ISO 639-1).
    public var language: String
    /// The steps, in order.
    public var steps: [StepSummary]
    /// For a link that navigates: the next manoeuvre's banner and sentence, the distance to it,
    /// the time and distance left and the arrival time (`HH:mm`, this machine's clock).
    public var navigation: NavigationSummary?
    /// The map view the link opens (camera, map type, layers, markers, route lines), as
    /// `openmaps view` prints it.
    public var view: MapViewState
    /// For transit directions: the journey found, summed up and written out.
    public var transit: TransitSummary?

    /// A journey as a reader follows it, in the answer's language.
    public struct TransitSummary: Encodable, Sendable {
        /// `HH:MM`, the feed's local time.
        public var departure: String
        /// `HH:MM`, the feed's local time (past 24:00 on the next day).
        public var arrival: String
        /// Seconds from the departure to the arrival.
        public var duration: Int
        /// How many vehicles are boarded.
        public var rides: Int
        /// "Leave at 15:58, arrive at 17:09 (1 h 11 min)".
        public var summary: String
        /// What to do, in order: a sentence a walk, two a ride (a live ride's boarding with its
        /// status: "3 min late").
        public var itinerary: [String]
        /// The service alerts touching the journey and when its live times were made, in the
        /// answer's language; empty on the timetable's times without alerts.
        public var live: [String]
    }

    /// What a navigation app shows as it starts, written out in the answer's language.
    public struct NavigationSummary: Encodable, Sendable {
        /// The banner's short text ("Turn left onto Mannerheimintie").
        public var banner: String
        /// The next manoeuvre's sentence.
        public var instruction: String
        /// Google's name for the next manoeuvre (`turn-left`, …).
        public var maneuver: String
        /// The distance to the next manoeuvre, written out ("300 m").
        public var distance: String
        /// The time left, written out ("12 min").
        public var remaining: String
        /// The distance left, written out ("3.2 km").
        public var remainingDistance: String
        /// When the route arrives, `HH:mm` on this machine's clock.
        public var arrival: String
    }

    /// A step as a reader follows it: its sentence, banner and voice, Google's name for the
    /// manoeuvre, metres and seconds to the next.
    public struct StepSummary: Encodable, Sendable {
        /// The step's sentence.
        public var instruction: String
        /// The banner's short text.
        public var banner: String
        /// What a voice says, in order, as the manoeuvre nears.
        public var voice: [String]
        /// Google's name for the manoeuvre (`turn-slight-left`, `roundabout-right`, …).
        public var maneuver: String
        /// Metres to the next manoeuvre.
        public var distance: Double
        /// Seconds to the next manoeuvre.
        public var duration: Double
        /// The distance to the next manoeuvre as the answer's language writes it ("300 m").
        public var distanceText: String
    }

    /// A route in a few figures.
    public struct RouteSummary: Encodable, Sendable {
        /// The way of travel (`driving`, `walking`, `bicycling`, `two-wheeler`).
        public var mode: String
        /// Metres, to a tenth.
        public var distance: Double
        /// Seconds, to a tenth.
        public var duration: Double
        /// The names (else refs) of the roads taken, in order.
        public var roads: [String]
        /// How many legs (stops between, plus one).
        public var legs: Int
        /// The distance and the time as the answer's language writes them ("3.2 km", "12 min").
        public var distanceText: String
        /// The time as the answer's language writes it ("12 min").
        public var durationText: String

        init(_ route: Route, words: Instructions) {
            mode = route.mode.rawValue
            distance = (route.distance * 10).rounded() / 10
            duration = (route.duration * 10).rounded() / 10
            distanceText = words.distance(route.distance)
            durationText = words.duration(route.duration)
            roads = route.legs.flatMap(\.roads)
            legs = route.legs.count
        }
    }

    /// A callback as offered to the user.
    public struct OfferedCallback: Encodable, Sendable {
        /// The calling app's name, as the button shows it.
        public var source: String
        /// The URL the button opens.
        public var success: String
    }

    /// The document of `answer`.
    public init(_ answer: Answer) {
        link = answer.link
        form = answer.form
        action = answer.request.action
        asks = answer.asks
        request = answer.request
        places = answer.places
        routeEnds = answer.routeEnds
        notes = answer.notes
        callback = answer.callback.map { OfferedCallback(source: $0.source, success: $0.success) }
        credits = answer.coverage?.credits ?? []
        regions = answer.coverage?.regions ?? []
        route = answer.route.map { RouteSummary($0, words: answer.instructions) }
        alternatives = answer.alternatives.map { RouteSummary($0, words: answer.instructions) }
        language = answer.instructions.language.rawValue
        view = MapViewState(answer.mapView)
        transit = answer.journey.map { journey in
            let words = answer.instructions.words
            return TransitSummary(
                departure: JourneyDocument.clock(journey.departure), arrival: JourneyDocument.clock(journey.arrival),
                duration: journey.arrival - journey.departure, rides: journey.rides,
                summary: JourneyDocument.summary(journey, words: words),
                itinerary: JourneyDocument.lines(journey, words: words),
                live: JourneyDocument.notes(journey, words: words))
        }
        navigation = answer.navigation.map { state in
            let words = answer.instructions
            return NavigationSummary(
                banner: words.banner(for: state.next), instruction: words.text(for: state.next),
                maneuver: state.next.maneuver.googleName.isEmpty
                    ? state.next.maneuver.kind.rawValue : state.next.maneuver.googleName,
                distance: words.distance(state.distanceToNext), remaining: words.duration(state.remainingTime),
                remainingDistance: words.distance(state.remainingDistance), arrival: state.arrivalText)
        }
        steps = answer.steps.flatMap { leg in
            leg.enumerated().map { index, step in
                StepSummary(
                    instruction: answer.instructions.text(for: step), banner: answer.instructions.banner(for: step),
                    voice: answer.instructions.voice(for: step, approach: index > 0 ? leg[index - 1].distance : 0).map(
                        \.text),
                    maneuver: step.maneuver.googleName.isEmpty ? step.maneuver.kind.rawValue : step.maneuver.googleName,
                    distance: (step.distance * 10).rounded() / 10, duration: (step.duration * 10).rounded() / 10,
                    distanceText: answer.instructions.distance(step.distance))
            }
        }
    }

    /// The document as pretty-printed JSON with sorted keys.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension Answer {
    /// What the link asks for, in a sentence a person reads, in the answer's language: "Transit
    /// directions from 'Google Inc, 8th Avenue, New York, NY' to 'John F. Kennedy International
    /// Airport…'", "A map at 40.765819,-73.975866, zoom 14, with traffic", "Search for 'Pizza'
    /// near 37.759748,-122.427135"; then the back button it offers.
    public var asks: String {
        let request = self.request
        let words = instructions.words
        let say = { (key: String, values: [String: String]) in words.note(key, values) }
        var sentence: String
        switch request.action {
        case .search:
            if request.query == nil, let marker = request.marker {
                // `q=@LAT,LNG`: a pin, not a text to search for.
                sentence = say("asks map pin", ["position": "\(marker)"])
            } else {
                sentence = say("asks search", ["text": say("asks quoted", ["text": request.query ?? ""])])
            }
            if let center = request.center {
                sentence = say("asks near", ["sentence": sentence, "center": "\(center)"])
            }
        case .directions:
            let directions = request.directions
            let place = { (waypoint: Waypoint?) -> String in
                switch waypoint {
                case nil, .currentLocation?: say("asks your location", [:])
                case .query(let text)?: say("asks quoted", ["text": text])
                case .coordinate(let coordinate)?: coordinate.description
                case .place(let name, _)?: say("asks quoted", ["text": name])
                }
            }
            let via = (directions?.waypoints ?? []).map { say("asks via", ["stop": place($0)]) }.joined()
            var values = ["from": place(directions?.origin), "via": via, "to": place(directions?.destination)]
            if let mode = directions?.travelMode {
                values["mode"] = words.word(Self.modeKeys[mode] ?? "")
                sentence = say("asks mode directions", values)
            } else {
                sentence = say("asks directions", values)
            }
            if directions?.navigate == true { sentence = say("asks navigating", ["sentence": sentence]) }
        case .streetView:
            sentence =
                request.center.map { say("asks street view at", ["center": "\($0)"]) } ?? say("asks street view", [:])
        case .resolveShortLink:
            sentence = say("asks short link", ["link": request.shortLink ?? ""])
        case .map:
            if request.mapMode == .streetView {
                sentence =
                    (request.marker ?? request.center).map { say("asks street view at", ["center": "\($0)"]) }
                    ?? say("asks street view", [:])
            } else if let marker = request.marker {
                sentence = say("asks map pin", ["position": "\(marker)"])
            } else {
                sentence = request.center.map { say("asks map at", ["center": "\($0)"]) } ?? say("asks map", [:])
            }
        }
        if request.action != .directions || request.center != nil, let zoom = request.zoom {
            sentence = say("asks zoom", ["sentence": sentence, "zoom": DecimalText.format(zoom)])
        }
        let views = (request.views ?? []).sorted()
        if !views.isEmpty {
            sentence = say(
                "asks views",
                ["sentence": sentence, "views": words.list(views.map { words.word(Self.viewKeys[$0] ?? "") })]
            )
        }
        if let callback = request.callback {
            sentence = say("asks back", ["sentence": sentence, "source": callback.source])
        }
        // "bicycling directions …" begins with a capital, as a sentence does.
        return sentence.prefix(1).uppercased() + sentence.dropFirst()
    }

    /// The phrasebook's word for each travel mode in a request's sentence.
    private static let modeKeys: [TravelMode: String] = [
        .driving: "directions mode driving", .transit: "directions mode transit",
        .walking: "directions mode walking", .bicycling: "directions mode bicycling",
        .twoWheeler: "directions mode two-wheeler",
    ]

    /// The phrasebook's word for each view a link turns on.
    private static let viewKeys: [MapsView: String] = [
        .satellite: "view satellite", .terrain: "view terrain", .traffic: "view traffic", .transit: "view transit",
        .bicycling: "view bicycling",
    ]
}
