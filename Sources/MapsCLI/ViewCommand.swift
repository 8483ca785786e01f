import Foundation
import GeoCore
import MapCore
import MapsApp
import MapsURL

/// `openmaps view URL --size WxH`: the map view's full state for a link, as JSON.
enum ViewCommand {
    static let command = Command(
        name: "view",
        summary: "Print the map view a link opens (camera, visible region, what is drawn, controls) as JSON.",
        usage: "view <url> [--size WxH] [--style light|dark] [--my-location LAT,LNG]",
        parser: ArgumentParser(options: viewOptions, positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        let (mapView, _) = try linkMapView(arguments, &console)
        console.print(try URLCommands.json(ViewState(mapView)))
    }

    /// The options `view` and `open` share for turning a link into a map view.
    static let viewOptions: [ArgumentParser.Option] = [
        .init(name: "--size", value: "WxH", help: "View size in points (default 800x600)."),
        .init(name: "--style", value: "STYLE", help: "light or dark (default: follow the system, light)."),
        .init(name: "--my-location", value: "LAT,LNG", help: "Turn My Location on at this position."),
        .init(name: "--accuracy", value: "M", help: "My Location's accuracy radius in metres."),
        .init(name: "--heading", value: "DEG", help: "My Location's heading, degrees clockwise from north."),
        .init(name: "--bearing", value: "DEG", help: "Turn the camera to this bearing (default: the link's, 0)."),
        .init(name: "--tilt", value: "DEG", help: "Tilt the camera, 0 up to 30-65 by zoom (default 0)."),
    ]

    /// The map view the maps app opens for the link in `arguments`, with `--size`, `--style`
    /// and `--my-location` applied, and the link's request; the link's diagnostics and the
    /// view's notes go to standard error.
    static func linkMapView(
        _ arguments: ArgumentParser.Result, _ console: inout Console, search: LinkMapView.PlaceSearch? = nil
    ) throws(CLIError) -> (MapView, MapsRequest) {
        let size = try parseSize(arguments.value("--size") ?? "800x600")
        let input = arguments.positionals[0]
        let parsed = MapsURLParser.parse(input)
        URLCommands.printDiagnostics(parsed, input: input, to: &console)
        guard let request = parsed.request else { throw .failure("no request could be read from the link") }
        let linkView = LinkMapView(request: request, size: size, search: search)
        let mapView = linkView.mapView
        if let style = arguments.value("--style") { mapView.overrideUserInterfaceStyle = try parseStyle(style) }
        let accuracy = try number(arguments, "--accuracy", in: 0...1_000_000)
        let heading = try number(arguments, "--heading", in: -360...360)
        if let location = arguments.value("--my-location") {
            guard let coordinate = Coordinate(parsing: location) else {
                throw .usage("'--my-location' must be LAT,LNG in decimal degrees, not '\(location)'")
            }
            mapView.isMyLocationEnabled = true
            mapView.settings.myLocationButton = true
            mapView.updateMyLocation(coordinate, accuracy: accuracy, heading: heading)
        } else if accuracy != nil || heading != nil {
            throw .usage("'--accuracy' and '--heading' describe '--my-location LAT,LNG', which is missing")
        }
        let bearing = try number(arguments, "--bearing", in: -360...360)
        let tilt = try number(arguments, "--tilt", in: 0...90)
        if bearing != nil || tilt != nil {
            let camera = mapView.camera
            mapView.camera = CameraPosition(
                target: camera.target, zoom: camera.zoom, bearing: bearing ?? camera.bearing,
                viewingAngle: tilt ?? camera.viewingAngle)
        }
        for note in linkView.notes { console.error("note: \(note)") }
        return (mapView, request)
    }

    /// A `--map-type` value.
    static func parseMapType(_ text: String) throws(CLIError) -> MapType {
        guard let type = MapType(rawValue: text) else {
            throw .usage("'--map-type' must be normal, hybrid, satellite, terrain or none, not '\(text)'")
        }
        return type
    }

    /// A `--style` value: light or dark.
    static func parseStyle(_ text: String) throws(CLIError) -> UserInterfaceStyle {
        guard let style = UserInterfaceStyle(rawValue: text), style != .unspecified else {
            throw .usage("'--style' must be light or dark, not '\(text)'")
        }
        return style
    }

    /// An option's decimal value inside `range`, or nil when the option is absent.
    static func number(
        _ arguments: ArgumentParser.Result, _ option: String, in range: ClosedRange<Double>
    ) throws(CLIError) -> Double? {
        guard let text = arguments.value(option) else { return nil }
        guard let value = DecimalText.parse(Substring(text), maxIntegerDigits: 7), range.contains(value) else {
            throw .usage(
                "'\(option)' must be a number from \(DecimalText.format(range.lowerBound)) to \(DecimalText.format(range.upperBound)), not '\(text)'"
            )
        }
        return value
    }

    /// An option's whole-number value inside `range`, or nil when the option is absent.
    static func count(
        _ arguments: ArgumentParser.Result, _ option: String, in range: ClosedRange<Int>
    ) throws(CLIError) -> Int? {
        guard let text = arguments.value(option) else { return nil }
        guard let count = Int(text), range.contains(count) else {
            throw .usage(
                "'\(option)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return count
    }

    static func parseSize(_ text: String) throws(CLIError) -> Size {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = DecimalText.parse(parts[0], maxIntegerDigits: 5),
            let height = DecimalText.parse(parts[1], maxIntegerDigits: 5), width > 0, height > 0
        else { throw .usage("'--size' must be WIDTHxHEIGHT in points, like 800x600, not '\(text)'") }
        return Size(width: width, height: height)
    }

    /// The JSON shape of a map view's state.
    struct ViewState: Encodable {
        var size: Size
        var camera: CameraPosition
        var padding: EdgeInsets
        var mapType: MapType
        var visibleRegion: VisibleRegion
        var content: MapContent
        var controls: ControlLayout
        var markers: [MarkerState]
        var myLocation: Coordinate?

        struct MarkerState: Encodable {
            var title: String?
            var position: Coordinate
            var point: Point
        }

        init(_ mapView: MapView) {
            size = mapView.frame.size
            camera = mapView.camera
            padding = mapView.effectivePadding
            mapType = mapView.mapType
            let projection = mapView.projection
            visibleRegion = projection.visibleRegion
            content = mapView.content
            controls = mapView.controlLayout
            markers = mapView.overlays.compactMap { overlay in
                guard case .marker(let marker) = overlay else { return nil }
                return MarkerState(
                    title: marker.title, position: marker.position, point: projection.point(for: marker.position))
            }
            myLocation = mapView.myLocation
        }
    }
}
