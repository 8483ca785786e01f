import Foundation
import GeoCore
import MapsURL

/// The straightforward parser a developer writes with Foundation: `URLComponents`, its query
/// items decoded with `removingPercentEncoding`, `Double(String)` for numbers, and a host
/// check against the same domain list. It reads the same families into the same request
/// type, without diagnostics and without the security rules; the benchmark's yardstick.
enum FoundationBaseline {

    static func parse(_ text: String) -> MapsRequest? {
        var text = text
        var wrapped = false
        if text.hasPrefix("comgooglemapsurl://") {
            text = "https://" + text.dropFirst("comgooglemapsurl://".count)
            wrapped = true
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            return nil
        }
        var items: [String: String] = [:]
        for item in components.percentEncodedQueryItems ?? [] where items[item.name] == nil {
            items[item.name] = (item.value ?? "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        var request = MapsRequest()
        switch scheme {
        case "comgooglemaps", "comgooglemaps-x-callback":
            request.center = items["center"].flatMap(coordinate)
            request.zoom = items["zoom"].flatMap(Double.init)
            request.query = items["q"]
            request.views = items["views"].map {
                Set($0.split(separator: ",").compactMap { MapsView(rawValue: String($0)) })
            }
            if items["saddr"] != nil || items["daddr"] != nil {
                request.directions = Directions(
                    origin: items["saddr"].map(Waypoint.init(parsing:)),
                    destination: items["daddr"].map(Waypoint.init(parsing:)),
                    travelMode: items["directionsmode"].flatMap(TravelMode.init(rawValue:)))
            }
            if scheme == "comgooglemaps-x-callback", let source = items["x-source"], let success = items["x-success"] {
                request.callback = try? Callback(source: source, success: success)
            }
        case "http", "https":
            guard let host = components.host?.lowercased() else { return nil }
            if host == "goo.gl" || host == "maps.app.goo.gl" {
                request.shortLink = "https://" + host + components.path
                return request
            }
            if host == "maps.apple.com" {
                request.center = items["ll"].flatMap(coordinate)
                request.zoom = items["z"].flatMap(Double.init)
                request.query = items["q"]
                return request
            }
            let suffix = host.replacingOccurrences(of: "www.", with: "").replacingOccurrences(of: "maps.", with: "")
            guard suffix.hasPrefix("google."), GoogleDomains.suffixes.contains(String(suffix.dropFirst(7))) else {
                return nil
            }
            let segments = components.percentEncodedPath.split(separator: "/").map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if items["api"] == "1" {
                request.query = items["query"]
                request.placeID = items["query_place_id"]
                request.center = (items["center"] ?? items["viewpoint"]).flatMap(coordinate)
                if segments.contains("dir") {
                    request.directions = Directions(
                        origin: items["origin"].map(Waypoint.init(parsing:)),
                        destination: items["destination"].map(Waypoint.init(parsing:)),
                        waypoints: (items["waypoints"] ?? "").split(separator: "|").map {
                            Waypoint(parsing: String($0))
                        },
                        travelMode: items["travelmode"].flatMap(TravelMode.init(rawValue:)),
                        navigate: items["dir_action"] == "navigate")
                }
                return request
            }
            var mode = ""
            var points: [Waypoint] = []
            for segment in segments {
                if segment.hasPrefix("@") {
                    let parts = segment.dropFirst().split(separator: ",")
                    if parts.count >= 2 { request.center = coordinate(parts[0] + "," + parts[1]) }
                    if let last = parts.last, last.hasSuffix("z") { request.zoom = Double(last.dropLast()) }
                } else if segment.hasPrefix("data=") {
                    if let range = segment.range(of: "!3d"), let end = segment.range(of: "!4d") {
                        let latitude = Double(segment[range.upperBound..<end.lowerBound])
                        let longitude = Double(segment[end.upperBound...].prefix { $0 != "!" })
                        if let latitude, let longitude {
                            request.marker = Coordinate(latitude: latitude, longitude: longitude)
                        }
                    }
                } else if ["place", "search", "dir"].contains(segment) {
                    mode = segment
                } else if mode == "dir" {
                    points.append(Waypoint(parsing: segment))
                } else if mode != "" && request.query == nil {
                    request.query = segment
                }
            }
            if !points.isEmpty {
                request.directions = Directions(origin: points.first, destination: points.count > 1 ? points.last : nil)
            }
            if let q = items["q"] { request.query = q }
            if let ll = items["ll"] ?? items["sll"] { request.center = coordinate(ll) }
            if let z = items["z"] { request.zoom = Double(z) }
            if items["daddr"] != nil {
                request.directions = Directions(
                    origin: items["saddr"].map(Waypoint.init(parsing:)),
                    destination: items["daddr"].map(Waypoint.init(parsing:)),
                    navigate: items["nav"] == "1")
            }
            if wrapped, let source = items["x-source"], let success = items["x-success"] {
                request.callback = try? Callback(source: source, success: success)
            }
        case "geo":
            let position = components.path.split(separator: ";").first.map(String.init) ?? ""
            request.center = coordinate(position)
            request.zoom = items["z"].flatMap(Double.init)
            request.query = items["q"]
        default:
            return nil
        }
        return request
    }

    private static func coordinate(_ text: String) -> Coordinate? {
        let parts = text.split(separator: ",")
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
