import Foundation
import GeoCore
import MapCore
import Routing

/// A layer drawn over the map, as the SDK's view turns them on.
public enum MapLayer: String, Sendable, CaseIterable {
    case traffic, transit, bicycling
}

/// How the maps app shows its answer: the view's size and what the user set on the map.
public struct AnswerOptions: Sendable, Equatable {
    /// The view's size in points; default 800 × 600.
    public var size = Size(width: 800, height: 600)
    /// The map view's padding, points from each edge: the part of the view that controls or
    /// panels cover. The camera fits what it shows inside the rest, its target the rest's
    /// centre (as the SDK's `padding`); none by default.
    public var padding = EdgeInsets.zero
    /// The colour scheme; nil follows the system (light).
    public var style: UserInterfaceStyle?
    /// The map type, overriding the one the link's views choose; nil keeps the link's.
    public var mapType: MapType?
    /// Layers turned on besides those the link's views turn on; none by default.
    public var layers: Set<MapLayer> = []
    /// The user's position, which turns My Location on and stands for a blank `saddr`/`daddr`.
    public var myLocation: Coordinate?
    /// My Location's accuracy radius in metres, ≥ 0; needs ``myLocation``.
    public var accuracy: Double?
    /// My Location's heading in degrees clockwise from north; needs ``myLocation``.
    public var heading: Double?
    /// The camera's bearing in degrees clockwise from north, overriding the link's (0).
    public var bearing: Double?
    /// The camera's tilt in degrees, 0 up to the zoom's ceiling (30–65); default 0.
    public var tilt: Double?
    /// The indoor floor to show, by name; it must be one of the floors in view.
    public var level: String?
    /// Minutes (up to 4, each 1 to 120) of the isochrones to draw: the areas reached within
    /// each from the link's centre (else its first pin, else the camera's target), by
    /// ``isochroneMode``; none by default.
    public var isochrone: [Double] = []
    /// The way of travel the isochrones are drawn for; walking by default.
    public var isochroneMode = TravelProfile.Mode.walking
    /// The language of the directions' steps and the map's words; nil follows the link's `hl`
    /// when it names one of the four, else English.
    public var language: Language?
    /// When a navigated route sets off, for its arrival time; default now.
    public var departure = Date()
    /// Navigate a directions link (even one that does not ask to), showing the view at the
    /// start of this step (0 the departure); nil follows the link.
    public var navigationStep: Int?

    /// The defaults: an 800 × 600 view as the link sets it up, its `hl` (else English) for the words, leaving now, navigating only when the link asks.
    public init() {}
}
