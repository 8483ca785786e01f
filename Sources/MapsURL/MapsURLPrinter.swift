import GeoCore

/// The link forms a request can be printed as.
public enum LinkTarget: String, Sendable, Codable, CaseIterable {
    /// `comgooglemaps://?…`, the iOS URL scheme.
    case comgooglemaps
    /// `comgooglemaps-x-callback://?…`, the iOS URL scheme with a callback (needs one).
    case xCallback = "x-callback"
    /// `comgooglemapsurl://` + the desktop URL, with the callback parameters.
    case comgooglemapsurl
    /// A Google Maps desktop URL (`https://maps.google.com/maps?…`, legacy parameters).
    case desktop
    /// A cross-platform Maps URL (`https://www.google.com/maps/…?api=1…`), also a Universal Link.
    case universal
    /// An Apple Maps link (`https://maps.apple.com/?…`).
    case apple
    /// An RFC 5870 `geo:` URI with the `q` and `z` extensions.
    case geo
}

/// A part of a request that a target cannot carry, and why.
public struct UnexpressedPart: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The request field, for example `span` or `directions.waypoints`.
    public var field: String
    /// Why the target cannot carry it, one sentence.
    public var reason: String

    public var description: String { "\(field): \(reason)" }
}

/// A printed link with what it carries and what it had to leave out.
public struct PrintedURL: Sendable, Equatable {
    /// The link text.
    public var url: String
    /// The request the link expresses: the input less ``unexpressed``. Parsing ``url`` gives
    /// exactly this request.
    public var expressed: MapsRequest
    /// Everything the target could not carry; empty when nothing was lost.
    public var unexpressed: [UnexpressedPart]
}

/// Why a request cannot be printed as a target at all.
public struct PrintError: Error, Equatable, CustomStringConvertible {
    /// The link form asked for.
    public var target: LinkTarget
    /// Why the request has no link of that form, one sentence.
    public var message: String
    public var description: String { "cannot print as \(target.rawValue): \(message)" }
}

/// Prints a ``MapsRequest`` as each ``LinkTarget``, canonically: fixed parameter order, unset
/// fields left out, values encoded by ``URLEncoding``. What a target cannot express is listed
/// in ``PrintedURL/unexpressed``, never silently dropped.
public enum MapsURLPrinter {
    /// Prints `request` as `target`.
    ///
    /// - Throws: ``PrintError`` when the target needs something the request lacks (a callback
    ///   for `x-callback`, a position or search for `geo`), or when the link would be longer
    ///   than ``MapsURLParser/maxInputLength`` bytes (percent-encoding can triple a value).
    public static func print(_ request: MapsRequest, as target: LinkTarget) throws(PrintError) -> PrintedURL {
        var reduction = Reduction(request: request)
        let url: String
        switch target {
        case .comgooglemaps, .xCallback:
            url = try schemeLink(&reduction, target: target)
        case .comgooglemapsurl, .desktop:
            url = desktopLink(&reduction, target: target)
        case .universal:
            url = universalLink(&reduction)
        case .apple:
            url = appleLink(&reduction)
        case .geo:
            url = try geoLink(&reduction)
        }
        // Percent-encoding can make a link several times longer than the values it carries.
        guard url.utf8.count <= MapsURLParser.maxInputLength else {
            throw PrintError(
                target: target,
                message:
                    "the link would be \(url.utf8.count) bytes, longer than the \(MapsURLParser.maxInputLength) a reader accepts"
            )
        }
        return PrintedURL(url: url, expressed: reduction.request, unexpressed: reduction.dropped)
    }

    // MARK: Shared pieces

    static func waypointText(_ waypoint: Waypoint) -> String {
        switch waypoint {
        case .currentLocation: return ""
        case .coordinate(let coordinate): return coordinate.description
        case .query(let text): return text
        case .place(let name, let coordinate): return "\(name)@\(coordinate)"
        }
    }

    static func viewsText(_ views: Set<MapsView>) -> String {
        views.sorted().map(\.rawValue).joined(separator: ",")
    }

    static func addCallback(_ callback: Callback?, to writer: inout QueryWriter) {
        guard let callback else { return }
        writer.add("x-source", callback.source)
        writer.add("x-success", callback.success)
        writer.add("x-error", callback.error)
        writer.add("x-cancel", callback.cancel)
    }
}

extension MapsRequest {
    /// True when the request is an Apple Maps short link (`maps.apple/p/…`), which only Apple
    /// Maps can resolve.
    var isAppleShortLink: Bool { shortLink?.hasPrefix("https://maps.apple/") == true }
}
