import Foundation

/// A deterministic corpus of realistic Maps links of every family the parser reads.
enum Corpus {
    struct Place {
        var name: String
        var latitude: Double
        var longitude: Double
    }

    static let places = [
        Place(name: "Helsinki Central Station", latitude: 60.171, longitude: 24.9414),
        Place(name: "Eiffel Tower, Paris", latitude: 48.8583701, longitude: 2.2944813),
        Place(name: "Tokyo Tower, Tokyo, Japan", latitude: 35.6585805, longitude: 139.7454329),
        Place(name: "Central Park, New York", latitude: 40.765819, longitude: -73.975866),
        Place(name: "Zürich HB", latitude: 47.3779, longitude: 8.5403),
        Place(name: "नई दिल्ली रेलवे स्टेशन", latitude: 28.6431, longitude: 77.2197),
        Place(name: "Sydney Opera House", latitude: -33.8568, longitude: 151.2153),
        Place(name: "Cristo Redentor, Rio de Janeiro", latitude: -22.9519, longitude: -43.2105),
        Place(name: "Hôtel de Ville, Montréal", latitude: 45.5088, longitude: -73.554),
        Place(name: "Monaco-Ville", latitude: 43.7311, longitude: 7.4197),
    ]

    static let queries = [
        "Pizza", "coffee near me", "Steamers Lane Santa Cruz, CA", "A & B Hardware", "C++ books", "東京 ラーメン", "dessert",
    ]
    static let tlds = ["com", "co.uk", "de", "fr", "co.jp", "com.au", "ca", "it", "es", "com.br"]

    /// `count` links, cycling through every family with a seeded generator.
    static func make(count: Int, seed: UInt64 = 2026) -> [String] {
        var random = SplitMix(state: seed)
        var links: [String] = []
        links.reserveCapacity(count)
        while links.count < count {
            let place = places[random.below(places.count)]
            let other = places[random.below(places.count)]
            let query = queries[random.below(queries.count)]
            let tld = tlds[random.below(tlds.count)]
            let zoom = 3 + random.below(18)
            let lat = format(place.latitude + Double(random.below(1000)) / 100_000)
            let lng = format(place.longitude - Double(random.below(1000)) / 100_000)
            let name = plus(place.name)
            let otherName = plus(other.name)
            let family = links.count % 16
            switch family {
            case 0: links.append("comgooglemaps://?center=\(lat),\(lng)&zoom=\(zoom)&views=traffic")
            case 1:
                links.append(
                    "comgooglemaps://?q=\(plus(query))&center=\(lat),\(lng)&zoom=\(zoom)&views=satellite,transit")
            case 2:
                links.append(
                    "comgooglemaps://?saddr=\(name)&daddr=\(otherName)&directionsmode=\(["driving", "transit", "walking", "bicycling"][random.below(4)])"
                )
            case 3:
                links.append(
                    "comgooglemaps-x-callback://?q=\(plus(query))&center=\(lat),\(lng)&x-success=sourceapp://?resume=true&x-source=Nom+Nom"
                )
            case 4:
                links.append(
                    "comgooglemapsurl://maps.google.\(tld)/maps?f=d&daddr=\(otherName)&sll=\(lat),\(lng)&sspn=0.2,0.1&nav=1&x-source=SourceApp&x-success=sourceapp://?resume=true"
                )
            case 5: links.append("https://www.google.\(tld)/maps/@\(lat),\(lng),\(zoom)z")
            case 6:
                links.append(
                    "https://www.google.\(tld)/maps/place/\(name)/@\(lat),\(lng),\(zoom)z/data=!3m1!4b1!4m6!3m5!1s0x47e66e2964e34e2d:0x8ddca9ee380ef7e0!8m2!3d\(format(place.latitude))!4d\(format(place.longitude))!16zL20vMDJqODE"
                )
            case 7: links.append("https://www.google.\(tld)/maps/search/\(plus(query))/@\(lat),\(lng),\(zoom)z")
            case 8:
                links.append(
                    "https://www.google.com/maps/dir/\(name)/\(otherName)/@\(lat),\(lng),\(zoom)z/data=!4m8!4m7!1m2!1m1!1s0x1:0x2!2m2!1d\(format(place.longitude))!2d\(format(place.latitude))!1m2!1d\(format(other.longitude))!2d\(format(other.latitude))"
                )
            case 9: links.append("https://maps.google.\(tld)/maps?q=\(name)&ll=\(lat),\(lng)&z=\(zoom)&t=k&hl=en")
            case 10:
                links.append(
                    "https://www.google.com/maps/search/?api=1&query=\(percent(query))&query_place_id=ChIJKxjxuaNqkFQR3CK6O1HNNqY"
                )
            case 11:
                links.append(
                    "https://www.google.com/maps/dir/?api=1&origin=\(percent(place.name))&destination=\(lat),\(lng)&travelmode=driving&waypoints=\(percent(other.name))%7C\(format(other.latitude)),\(format(other.longitude))&dir_action=navigate"
                )
            case 12:
                links.append(
                    "https://www.google.com/maps/@?api=1&map_action=pano&viewpoint=\(lat),\(lng)&heading=-45&pitch=38&fov=80"
                )
            case 13:
                links.append(
                    random.below(2) == 0 ? "https://maps.app.goo.gl/V8oVAkbP9v3EBoXh8" : "https://goo.gl/maps/AbC123xyz"
                )
            case 14: links.append("geo:\(lat),\(lng)?z=\(zoom)&q=\(percent(query))")
            default: links.append("https://maps.apple.com/?ll=\(lat),\(lng)&z=\(zoom)&q=\(percent(place.name))&t=k")
            }
        }
        return links
    }

    private static func format(_ value: Double) -> String {
        let scaled = (value * 1_000_000).rounded() / 1_000_000
        return "\(scaled)"
    }

    /// Query-value encoding with `+` for spaces, as the seed's examples write it.
    static func plus(_ text: String) -> String { percent(text).replacingOccurrences(of: "%20", with: "+") }

    static func percent(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ","):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return output
    }
}

struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
