import CairoKit
import Foundation
import MapCore
import MapData
import MapRenderer

/// `openmaps open URL -o map.png`: the maps app's answer to a link, as a picture.
enum OpenCommand {
    static let command = Command(
        name: "open",
        summary: "Render the map a link opens to a PNG, SVG or PDF picture.",
        usage:
            "open <url> -o <map.png|map.svg|map.pdf> [--size WxH] [--scale N] [--map-type TYPE] [--style light|dark] [--bearing DEG] [--tilt DEG] [--my-location LAT,LNG [--accuracy M] [--heading DEG]] [--level NAME] [--traffic FILE] [--store PATH]",
        parser: ArgumentParser(
            options: ViewCommand.viewOptions + [
                .init(name: "-o", value: "FILE", help: "The picture to write; its extension picks the format."),
                .init(name: "--scale", value: "N", help: "Pixels per point for PNG, 1 to 8 (default 1)."),
                .init(
                    name: "--map-type", value: "TYPE",
                    help: "normal, hybrid, satellite, terrain or none (default: the link's)."),
                .init(name: "--level", value: "NAME", help: "The indoor floor to show (default: the ground floor)."),
                .init(
                    name: "--traffic", value: "FILE",
                    help: "A traffic feed (WAY_ID,LEVEL lines) for the traffic layer a link turns on."),
                DataCommand.storeOption,
            ], positionals: 1...1)
    ) { (arguments, console) throws(CLIError) in
        guard let output = arguments.value("-o") else { throw .usage("'-o FILE' is required") }
        guard let format = PictureFormat(path: output) else {
            throw .usage("'-o' must end in .png, .svg or .pdf, not '\(output)'")
        }
        let scale = try ViewCommand.number(arguments, "--scale", in: 1...8) ?? 1
        let storePath = arguments.value("--store") ?? DataInstaller().storePath
        let store: MapStore
        do { store = try MapStore(path: storePath) } catch { throw .failure("\(error)") }
        // Search links mark the places whose names match, from the store's name index.
        let (mapView, request) = try ViewCommand.linkMapView(arguments, &console) {
            (try? store.places(named: $0)) ?? []
        }
        if let typeName = arguments.value("--map-type") { mapView.mapType = try ViewCommand.parseMapType(typeName) }
        let start = Date()
        do {
            let traffic = try DataCommand.trafficFeed(arguments)
            let renderer = MapRenderer(store: store, traffic: traffic ?? TrafficFeed())
            if traffic != nil && !mapView.content.traffic {
                console.error(
                    "note: the traffic feed is not drawn: the link does not turn the traffic layer on (views=traffic)")
            }
            // Indoor maps: the floors in view feed the floor picker; --level picks one.
            if mapView.content.indoor { mapView.indoorBuildingInFocus = try renderer.indoorBuilding(in: mapView) }
            if let level = arguments.value("--level") {
                guard let floors = mapView.activeBuilding?.levels, let floor = floors.first(where: { $0.name == level })
                else {
                    let known = mapView.activeBuilding?.levels.map(\.name).joined(separator: ", ")
                    throw CLIError.usage(
                        known.map { "'--level' must be one of the floors in view (\($0)), not '\(level)'" }
                            ?? "'--level' needs indoor maps: zoom \(Int(MapView.indoorMinZoom)) or closer on the normal map, with floors in view"
                    )
                }
                mapView.activeLevel = floor
            }
            let (canvas, report) = try renderer.render(mapView, format: format, scale: scale)
            try canvas.write(to: output)
            console.print(
                String(
                    format: "%@: %.0f×%.0f points, zoom %.2f, %d features, %d labels (%.2f s)", output,
                    mapView.frame.size.width, mapView.frame.size.height, mapView.camera.zoom,
                    report.features.values.reduce(0, +), report.labels.count, Date().timeIntervalSince(start)))
            if let notice = report.notice { console.error("note: \(notice)") }
            if let callback = request.callback {
                // Offered as a button, never followed by itself (the URL passed CallbackPolicy).
                console.print("back button: \"\(callback.source)\" opens \(callback.success) when tapped")
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw .failure("\(error)")
        }
    }
}
