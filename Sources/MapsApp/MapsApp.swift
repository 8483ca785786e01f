import CairoKit
import Foundation
import GeoCore
import MapCore
import MapData
import MapsURL
import Routing
import Transit
import VectorTiles

/// What the maps app does with a link: reads it, finds the places it names, configures the
/// map view it opens, lists what cannot be shown, and offers the callback. Every front end
/// (the CLI, the server) calls ``answer(_:options:)`` and prints, serves or draws the
/// ``Answer``; none decides what a link means on its own.
///
/// The app uses its engines through protocols it owns (``PlaceFinding``, ``MapDrawing``,
/// ``TileRendering``), so it is tested with small fakes; ``MapsApp/onStore(path:traffic:)``
/// wires it to the store, its name index and the renderer. Without an engine the app still
/// answers, with a note for what that engine would have done.
public struct MapsApp: Sendable {
    /// Finds the places of searches and directions' text ends; nil answers them with a note.
    public var places: (any PlaceFinding)?
    /// Draws views, lists the floors and the data in view; nil answers without them.
    public var drawing: (any MapDrawing)?
    /// Renders tiles; nil refuses tile runs.
    public var tiles: (any TileRendering)?
    /// Finds routes; nil answers directions with their ends only.
    public var routing: (any RouteFinding)?
    /// Plans public transport journeys on imported timetables; nil answers transit directions
    /// with a note.
    public var transit: (any TransitFinding)?
    /// A PMTiles archive of vector tiles built once (`openmaps tiles --format mvt`): vector
    /// tiles are read from it instead of being cut from the store; nil cuts them.
    public var vectorArchive: PMTilesArchive?
    /// Heights from the imported elevation models; nil answers height questions with a refusal.
    public var heights: (any HeightFinding)?

    /// Zoom used when a link gives a center but no zoom: 15, the Maps URLs default.
    public static let defaultZoom = 15.0
    /// At most this many search results are marked: 10.
    public static let searchResultLimit = 10
    /// How far from a search link's center its results may lie, but for settlements, regions
    /// and countries: 50 km (a city and its surroundings, as the app searches the area it shows).
    public static let searchRadius = 50_000.0

    /// An app answering with these engines; each one left out makes the answers that need it say so in a note (no places found, no picture, no route).
    public init(
        places: (any PlaceFinding)? = nil, drawing: (any MapDrawing)? = nil, tiles: (any TileRendering)? = nil,
        routing: (any RouteFinding)? = nil, transit: (any TransitFinding)? = nil, heights: (any HeightFinding)? = nil
    ) {
        self.heights = heights
        self.places = places
        self.drawing = drawing
        self.tiles = tiles
        self.routing = routing
        self.transit = transit
    }

    /// The answer to a link in any form the parser reads, or to a text holding one (the first
    /// Maps link in it is answered; ``Answer/link`` is that link).
    ///
    /// - Throws: ``AppError/unreadableLink(diagnostics:)`` when no request can be read, and the
    ///   errors of ``answer(_:form:diagnostics:link:options:)``.
    public func answer(_ link: String, options: AnswerOptions = AnswerOptions()) throws(AppError) -> Answer {
        // A pasted share message is answered by the Maps link in it.
        try answer(MapsURLParser.read(link), options: options)
    }

    /// The answer to what ``MapsURLParser/read(_:)`` made of a link or a text, for a front end
    /// that also reports how the text was read.
    public func answer(
        _ reading: MapsURLParser.Reading, options: AnswerOptions = AnswerOptions()
    ) throws(AppError) -> Answer {
        guard let request = reading.parsed.request else {
            throw .unreadableLink(diagnostics: reading.parsed.diagnostics)
        }
        return try answer(
            request, form: reading.parsed.form, diagnostics: reading.parsed.diagnostics, link: reading.link,
            options: options)
    }

    /// The answer to a request.
    ///
    /// Rules: `center` and `zoom` set the camera (``defaultZoom`` without a zoom); a span
    /// without a zoom fits that box; without a center the camera fits every point placed (a
    /// pinned position, the search results, the directions' ends). `satellite` shows hybrid
    /// (imagery with labels, as the Maps app does), `terrain` the terrain type, `traffic` and
    /// `transit` their layers; cleared views show the plain road map. Text ends of directions
    /// are looked up like searches (the first result is used, as the URL scheme says); a blank
    /// end is the user's location. Nothing is ever left out silently: every part that cannot
    /// be shown has a ``Note``.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` for options that cannot apply (a floor
    ///   not in view, an accuracy without a location), ``AppError/engineFailed(_:underlying:)``
    ///   when an engine fails.
    public func answer(
        _ request: MapsRequest, form: LinkForm? = nil, diagnostics: [Diagnostic] = [], link: String? = nil,
        options: AnswerOptions = AnswerOptions()
    ) throws(AppError) -> Answer {
        let chosen = Self.language(options, request)
        let words = Instructions(chosen ?? .en)
        var notes = Notes(words: words.words)
        var viewOptions = MapViewOptions()
        viewOptions.frame = Rect(x: 0, y: 0, width: options.size.width, height: options.size.height)
        let mapView = MapView(options: viewOptions)
        mapView.padding = options.padding
        applyViews(of: request, to: mapView, notes: &notes)
        Self.noteUnresolvable(request, in: &notes)

        var places: [FoundPlace] = []
        var markers: [Marker] = []
        if let marker = request.marker {
            markers.append(Marker(position: marker, title: request.query ?? marker.description))
        } else if let query = request.query {
            let found = try searchBox(query, near: request.center, language: chosen)
            notes.list += found.notes
            places = found.places
            // Numbered pins, the best one selected with its title and address.
            markers += places.enumerated().map { index, place in
                var marker = Marker(position: place.position, title: place.name, snippet: place.address)
                marker.glyph = "\(index + 1)"
                return marker
            }
        }
        var found: DirectionsAnswer?
        if let directions = request.directions {
            var query = DirectionsQuery(directions)
            // As the Maps app offers them: two other routes between two ends; the steps of the
            // route shown.
            query.alternatives = 2
            query.steps = .best
            query.time = .leaving(options.departure)
            query.near = request.center
            query.myLocation = options.myLocation
            query.language = chosen
            let answer = try self.directions(query)
            notes.list += answer.allNotes
            markers += answer.ends.compactMap { Self.marker(for: $0, words: words) }
            found = answer
        }
        let routes = found?.routes ?? []
        let route = routes.first
        let steps = found?.steps.first ?? []
        let journey = found?.journeys.first
        // The alternatives greyed, under the route; a journey's walks and rides.
        let routeLines =
            routes.dropFirst().flatMap { Self.lines(of: $0, alternative: true) }
            + (route.map { Self.lines(of: $0) } ?? []) + (journey.map(Self.lines(of:)) ?? [])
        mapView.overlays = routeLines + markers.map { .marker($0) }
        // The best search result, the first marker, is selected.
        if !places.isEmpty { mapView.selectedMarker = routeLines.count }
        placeCamera(
            of: mapView, request: request,
            points: markers.map(\.position) + (route?.geometry ?? []) + (journey?.geometry ?? []))
        if !options.isochrone.isEmpty {
            let origin = request.center ?? markers.first?.position ?? mapView.camera.target
            mapView.overlays =
                try isochroneAreas(from: origin, minutes: options.isochrone, mode: options.isochroneMode)
                + mapView.overlays
        }
        var navigation: Navigation?
        if request.directions?.navigate == true || options.navigationStep != nil, let route, !steps.isEmpty {
            let state = Navigation(
                route: route, steps: steps, departure: options.departure, at: options.navigationStep ?? 0)
            navigation = state
            // A navigation app shows no floor picker: the panel is where it would be.
            mapView.settings.indoorPicker = false
            // The way travelled greyed, the route ahead in the mode's colour.
            if state.step > 0 {
                var travelled = Polyline(path: state.travelled, title: "travelled")
                travelled.strokeWidth = 5
                travelled.strokeColor = Color(hex: 0xA0A7B4)
                let ahead = Array(steps.joined().dropFirst(state.step).flatMap(\.geometry))
                mapView.overlays =
                    [.polyline(travelled)] + Self.lines(along: ahead, mode: route.mode) + markers.map { .marker($0) }
            }
            // The driver's view unless the link sets a camera: here, turned along the step,
            // tilted, closer the slower the way of travel.
            if request.center == nil {
                mapView.camera = CameraPosition(
                    target: state.current.maneuver.location, zoom: Navigation.zoom(for: route.mode),
                    bearing: state.current.maneuver.bearingAfter, viewingAngle: Navigation.tilt)
            }
        }
        if request.center == nil && markers.isEmpty && (request.query != nil || request.directions != nil) {
            notes.add(.nothingPlaced)
        }

        try apply(options, to: mapView)
        if mapView.isTransitEnabled { addVehicles(to: mapView) }
        let coverage = try drawingFacts(for: mapView, level: options.level, language: chosen, notes: &notes)

        var callback = request.callback
        if callback != nil && (request.directions?.navigate == true || navigation != nil) {
            callback = nil
            notes.add(.callbackHiddenInNavigation)
        }
        return Answer(
            link: link, form: form, request: request, diagnostics: diagnostics, mapView: mapView, places: places,
            routeEnds: found?.ends ?? [], notes: notes.list, callback: callback, coverage: coverage, directions: found,
            instructions: words, language: chosen, navigation: navigation)
    }

    /// The realtime feeds' vehicles in view, on the transit layer: a flat dot each in its route's
    /// colour (the layer's blue where it has none), pointing where it heads. Without a feed, none.
    private func addVehicles(to mapView: MapView) {
        let region = mapView.projection.visibleRegion
        let corners = [region.nearLeft, region.nearRight, region.farLeft, region.farRight]
        let bounds = corners.dropFirst().reduce(CoordinateBounds(corners[0], corners[0])) { $0.including($1) }
        guard let vehicles = try? self.vehicles(in: bounds) else { return }
        for vehicle in vehicles {
            var marker = Marker(
                position: vehicle.coordinate, title: vehicle.route.map(JourneyDocument.name(of:)),
                snippet: vehicle.label)
            marker.isFlat = true
            marker.iconSize = Size(width: 12, height: 12)
            marker.groundAnchor = Point(x: 0.5, y: 0.5)
            marker.color = vehicle.route?.colour.flatMap(FeatureColour.color(stored:)) ?? Color(hex: 0x1A73E8)
            marker.rotation = vehicle.bearing.map { $0 == 0 ? 360 : $0 } ?? 0
            marker.isTappable = false
            mapView.overlays.append(.marker(marker))
        }
    }

    /// The isochrones from `origin` within each of `minutes` for `mode`, as the map draws them:
    /// each contour's polygons filled, the larger under the smaller and paler.
    ///
    /// - Throws: ``AppError/engineMissing(_:)`` without a routing engine,
    ///   ``AppError/invalidOption(_:message:)`` (`isochrone`) when no road is near `origin`.
    func isochroneAreas(from origin: Coordinate, minutes: [Double], mode: TravelProfile.Mode) throws(AppError)
        -> [Overlay]
    {
        guard let routing else { throw .engineMissing("routing graph for isochrones") }
        let isochrone: Isochrone
        do {
            isochrone = try routing.isochrone(
                from: origin, limits: minutes.map { $0 * 60 }, byDistance: false, mode: mode)
        } catch RoutingError.noRoad {
            throw .invalidOption("isochrone", message: "has no road for \(mode.rawValue) near \(origin)")
        } catch {
            throw .engineFailed("drawing the isochrone", underlying: error)
        }
        let ranked = zip(minutes, isochrone.contours).sorted { $0.0 > $1.0 }
        return ranked.enumerated().flatMap { rank, pair -> [Overlay] in
            let (value, contour) = pair
            return contour.polygons.map { rings in
                var area = Polygon(path: Array(rings[0].dropLast()), title: "\(Int(value)) min")
                area.holes = rings.dropFirst().map { Array($0.dropLast()) }
                // The nearest contour the strongest: 0.2 to 0.45 of the route blue.
                area.fillColor = Color(hex: 0x1A73E8).withAlpha(
                    0.2 + 0.25 * Double(rank) / Double(max(ranked.count - 1, 1)))
                area.strokeColor = Color(hex: 0x1A73E8)
                area.strokeWidth = 1
                return .polygon(area)
            }
        }
    }

    /// A journey as the map draws it: walks dotted blue, rides in their route's colour (else
    /// the transit layer's bus blue) over a white casing, small pins of that colour at the stops
    /// where each ride is boarded and left.
    static func lines(of journey: Journey) -> [Overlay] {
        journey.legs.flatMap { leg -> [Overlay] in
            switch leg {
            case .walk(let walk):
                var line = Polyline(path: walk.walk.geometry, title: "walk")
                line.strokeWidth = 5
                line.strokeColor = Color(hex: 0x1A73E8)
                line.pattern = [1, 9]
                return [.polyline(line)]
            case .ride(let ride):
                var casing = Polyline(path: ride.geometry)
                casing.strokeWidth = 8
                casing.strokeColor = .white
                var line = Polyline(path: ride.geometry, title: "route")
                line.strokeWidth = 5
                let colour = ride.route.colour.flatMap(FeatureColour.color(stored:)) ?? Color(hex: 0x2F6FC4)
                line.strokeColor = colour
                // Small pins in the line's colour where the ride is boarded and left.
                let stops = [(ride.fromPoint, ride.from), (ride.toPoint, ride.to)].map { point, name in
                    var pin = Marker(position: point, title: name, snippet: JourneyDocument.name(of: ride.route))
                    pin.color = colour
                    pin.iconSize = Size(width: 14, height: 22)
                    return Overlay.marker(pin)
                }
                return [.polyline(casing), .polyline(line)] + stops
            }
        }
    }

    /// A route as the map draws it: a white casing under a line in the mode's colour (blue for
    /// cars and two-wheelers, green for bicycles), dotted for walking; an alternative in grey.
    static func lines(of route: Route, alternative: Bool = false) -> [Overlay] {
        lines(along: route.geometry, mode: route.mode, alternative: alternative)
    }

    /// The lines of a route along `path` for `mode` (``lines(of:alternative:)``).
    static func lines(along path: [Coordinate], mode: TravelProfile.Mode, alternative: Bool = false) -> [Overlay] {
        var casing = Polyline(path: path)
        casing.strokeWidth = 8
        casing.strokeColor = .white
        var line = Polyline(path: path, title: alternative ? "alternative" : "route")
        line.strokeWidth = 5
        line.strokeColor =
            alternative
            ? Color(hex: 0xA0A7B4) : mode == .bicycling ? Color(hex: 0x0F9D58) : Color(hex: 0x1A73E8)
        if mode == .walking { line.pattern = [1, 9] }
        return [.polyline(casing), .polyline(line)]
    }

    /// The language chosen for an answer: the one asked for, else the link's `hl` when
    /// OpenMaps speaks it (`es`, `es-419`, `it_IT` and `hi` alike); nil when neither chose one
    /// (the answer is then in English, with place names as the data writes them locally).
    static func language(_ options: AnswerOptions, _ request: MapsRequest) -> Language? {
        options.language ?? request.language.flatMap(Language.init(tag:))
    }

    /// Draws an answer's map view, with a navigation app's banner and panel when the link
    /// navigates.
    ///
    /// - Parameter scale: pixels per point for PNG, 1...8.
    public func picture(of answer: Answer, format: PictureFormat = .png, scale: Double = 1) throws(AppError)
        -> DrawnMap
    {
        guard let drawing else { throw .engineMissing("map renderer") }
        do {
            let map = try drawing.draw(answer.mapView, format: format, scale: scale, language: answer.language)
            if let navigation = answer.navigation {
                NavigationPainter(canvas: map.canvas, words: answer.instructions).draw(
                    navigation, arrival: navigation.arrivalText)
            }
            return map
        } catch {
            throw .engineFailed("drawing the map", underlying: error)
        }
    }

    // MARK: The parts of an answer

    /// Map type and layers from the link's `views`, with notes for what cannot be shown.
    private func applyViews(of request: MapsRequest, to mapView: MapView, notes: inout Notes) {
        if let views = request.views {
            mapView.mapType = views.contains(.satellite) ? .hybrid : views.contains(.terrain) ? .terrain : .normal
            mapView.isTrafficEnabled = views.contains(.traffic)
            mapView.isTransitEnabled = views.contains(.transit)
            mapView.isBicyclingEnabled = views.contains(.bicycling)
        }
        if request.mapMode == .streetView {
            notes.add(.streetViewUnavailable)
        }
    }

    /// Notes for the parts of a request no offline app can follow.
    private static func noteUnresolvable(_ request: MapsRequest, in notes: inout Notes) {
        if let shortLink = request.shortLink {
            notes.add(.shortLinkUnresolved(link: shortLink))
        }
        if let placeID = request.placeID {
            notes.add(.placeIDUnresolved(id: placeID, searchedInstead: request.query != nil))
        }
    }

    /// The kinds of place a search finds wherever they are: settlements, their parts, regions
    /// and countries (OSM `place=*` values and the gazetteer's kinds).
    static let namedAreaKinds: Set<String> = [
        "city", "town", "village", "hamlet", "suburb", "quarter", "neighbourhood", "borough", "locality", "island",
        "county", "state", "province", "region", "country",
    ]

    /// True for a settlement, region or country (``namedAreaKinds``).
    static func isNamedArea(_ place: FoundPlace) -> Bool { place.kind.map(namedAreaKinds.contains) ?? false }

    /// The pin of a placed directions end: titled with the place's name for a text end, with
    /// its role for a coordinate or the user's location.
    private static func marker(for end: RouteEnd, words: Instructions) -> Marker? {
        guard let place = end.place else { return nil }
        let role = words.role(end.role == .start ? "start" : end.role == .stop ? "stop" : "destination")
        switch end.waypoint {
        case .query, .place: return Marker(position: place.position, title: place.name, snippet: role)
        case .coordinate, .currentLocation: break
        }
        return Marker(position: place.position, title: role)
    }

    /// The camera: the link's center (with its zoom or span), else fitted to `points`, else
    /// the link's zoom over the default target.
    private func placeCamera(of mapView: MapView, request: MapsRequest, points: [Coordinate]) {
        if let center = request.center {
            if let span = request.span, request.zoom == nil {
                let bounds = CoordinateBounds(
                    Coordinate(
                        latitude: center.latitude - span.latitudeDelta / 2,
                        longitude: center.longitude - span.longitudeDelta / 2),
                    Coordinate(
                        latitude: center.latitude + span.latitudeDelta / 2,
                        longitude: center.longitude + span.longitudeDelta / 2))
                mapView.moveCamera(.fitBounds(bounds, insets: .zero))
            } else {
                mapView.camera = CameraPosition(target: center, zoom: request.zoom ?? Self.defaultZoom)
            }
        } else if let first = points.first {
            if points.count == 1 {
                mapView.camera = CameraPosition(target: first, zoom: request.zoom ?? Self.defaultZoom)
            } else {
                mapView.moveCamera(.fit(points.dropFirst().reduce(CoordinateBounds(first, first)) { $0.including($1) }))
            }
        } else if let zoom = request.zoom {
            mapView.moveCamera(.zoomTo(zoom))
        }
    }

    /// What the user set on the map: scheme, type, layers, My Location, bearing and tilt.
    private func apply(_ options: AnswerOptions, to mapView: MapView) throws(AppError) {
        if let style = options.style { mapView.overrideUserInterfaceStyle = style }
        if let mapType = options.mapType { mapView.mapType = mapType }
        if options.layers.contains(.traffic) { mapView.isTrafficEnabled = true }
        if options.layers.contains(.transit) { mapView.isTransitEnabled = true }
        if options.layers.contains(.bicycling) { mapView.isBicyclingEnabled = true }
        if let location = options.myLocation {
            mapView.isMyLocationEnabled = true
            mapView.settings.myLocationButton = true
            mapView.updateMyLocation(location, accuracy: options.accuracy, heading: options.heading)
        } else if options.accuracy != nil || options.heading != nil {
            throw .invalidOption(
                options.accuracy != nil ? "accuracy" : "heading", message: "describes My Location, which is not given")
        }
        if options.bearing != nil || options.tilt != nil {
            let camera = mapView.camera
            mapView.camera = CameraPosition(
                target: camera.target, zoom: camera.zoom, bearing: options.bearing ?? camera.bearing,
                viewingAngle: options.tilt ?? camera.viewingAngle)
        }
    }

    /// The floors in view (indoor maps), the floor chosen, and what the data holds in view,
    /// with their notes.
    private func drawingFacts(
        for mapView: MapView, level: String?, language: Language?, notes: inout Notes
    ) throws(AppError) -> MapCoverage? {
        guard let drawing else {
            if level != nil { throw .engineMissing("map data for indoor floors") }
            return nil
        }
        do {
            if mapView.content.indoor { mapView.indoorBuildingInFocus = try drawing.indoorBuilding(in: mapView) }
        } catch {
            throw .engineFailed("reading the floors in view", underlying: error)
        }
        if let level {
            guard let floors = mapView.activeBuilding?.levels, let floor = floors.first(where: { $0.name == level })
            else {
                let known = mapView.activeBuilding?.levels.map(\.name).joined(separator: ", ")
                throw .invalidOption(
                    "level",
                    message: known.map { "must be one of the floors in view (\($0)), not '\(level)'" }
                        ?? "needs indoor maps: zoom \(Int(MapView.indoorMinZoom)) or closer on the normal map, with floors in view"
                )
            }
            mapView.activeLevel = floor
        }
        if drawing.hasTrafficFeed && !mapView.content.traffic {
            notes.add(.trafficFeedUnused)
        }
        do {
            let coverage = try drawing.coverage(of: mapView, language: language)
            if let notice = coverage.notice { notes.add(.noStreetData(notice: notice)) }
            return coverage
        } catch {
            throw .engineFailed("reading the data in view", underlying: error)
        }
    }
}

/// An answer's notes as they are written: each in the answer's language, from its kind.
struct Notes {
    /// The answer's words.
    let words: Phrasebook
    var list: [Note] = []

    /// Adds the note of `kind`.
    mutating func add(_ kind: Note.Kind) { list.append(make(kind)) }

    /// The note of `kind`, not added.
    func make(_ kind: Note.Kind) -> Note { Note(kind, words: words) }
}
