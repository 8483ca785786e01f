/// What a ``Diagnostic`` is about: a stable, machine-readable code. The raw value is the
/// code as printed and encoded (`bad-coordinate`, `host-not-google`, …); new readers add
/// cases here, so a code cannot be misspelt where it is reported.
public enum DiagnosticCode: String, Sendable, Hashable, Codable, CaseIterable {
    // The link as a whole
    case empty
    case tooLong = "too-long"
    case tooManyParameters = "too-many-parameters"
    case valueTooLong = "value-too-long"
    case controlCharacter = "control-character"
    case unsupportedScheme = "unsupported-scheme"
    case missingSlashes = "missing-slashes"
    case missingQuery = "missing-query"
    case emptyQuery = "empty-query"
    case fragmentIgnored = "fragment-ignored"
    case unexpectedPath = "unexpected-path"
    case notAMapsPath = "not-a-maps-path"
    case unknownPathSegment = "unknown-path-segment"
    case duplicateParameter = "duplicate-parameter"
    case unknownParameter = "unknown-parameter"
    /// `&amp;` between parameters, read as `&`.
    case htmlAmpersand = "html-ampersand"
    case malformedEscape = "malformed-escape"
    case invalidUTF8 = "invalid-utf8"
    // Hosts (see HostPolicy)
    case missingHost = "missing-host"
    case badHost = "bad-host"
    case hostNotGoogle = "host-not-google"
    case hostNotMaps = "host-not-maps"
    case userinfo
    case backslashInHost = "backslash-in-host"
    case escapedHost = "escaped-host"
    case nonAsciiHost = "non-ascii-host"
    case punycodeHost = "punycode-host"
    case port
    // Numbers and positions
    case badNumber = "bad-number"
    case badCoordinate = "bad-coordinate"
    case coordinateOutOfRange = "coordinate-out-of-range"
    case clamped
    case badSpan = "bad-span"
    case spanOutOfRange = "span-out-of-range"
    case badViewport = "bad-viewport"
    case unknownViewportToken = "unknown-viewport-token"
    case badAltitude = "bad-altitude"
    case unsupportedCrs = "unsupported-crs"
    // Values of named parameters
    case unknownAvoid = "unknown-avoid"
    case unknownBasemap = "unknown-basemap"
    case unknownDirectionsmode = "unknown-directionsmode"
    case unknownDirflg = "unknown-dirflg"
    case unknownLayer = "unknown-layer"
    case unknownMapAction = "unknown-map-action"
    case unknownMapType = "unknown-map-type"
    case unknownMapmode = "unknown-mapmode"
    case unknownTravelmode = "unknown-travelmode"
    case unknownView = "unknown-view"
    case badLanguage = "bad-language"
    case tooManyWaypoints = "too-many-waypoints"
    /// A directions option (`avoid`) in a link that asks for no directions.
    case needsDirections = "needs-directions"
    case directionsDataUnmatched = "directions-data-unmatched"
    case placeIdIgnored = "place-id-ignored"
    case labelIgnored = "label-ignored"
    case dataTailIgnored = "data-tail-ignored"
    case geoAmpersand = "geo-ampersand"
    // Callbacks (see CallbackPolicy)
    case callbackIncomplete = "callback-incomplete"
    case callbackNeedsXCallback = "callback-needs-x-callback"
    case callbackBadCharacter = "callback-bad-character"
    case callbackBadScheme = "callback-bad-scheme"
    case callbackNotAbsolute = "callback-not-absolute"
    case callbackSchemeDenied = "callback-scheme-denied"
    case callbackTooLong = "callback-too-long"
    case emptyCallback = "empty-callback"
    case emptySource = "empty-source"
    case sourceSanitized = "source-sanitized"
    // Short links
    case needsResolution = "needs-resolution"
    case badShortLink = "bad-short-link"
    case trailingTextIgnored = "trailing-text-ignored"
    /// A link carried inside this one (a dynamic link's `link=`, an Android intent's target).
    case nestedLink = "nested-link"
    /// An Android `intent:` link without its `#Intent;` block or with a scheme that is not a
    /// maps scheme.
    case badIntent = "bad-intent"
}
