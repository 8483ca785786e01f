import GeoCore

/// A Mapbox Vector Tile (specification 2.1): named layers of features, each a geometry in the
/// tile's integer grid with its attributes.
///
/// Coordinates are in the layer's grid: 0 ... ``Layer/extent`` from the tile's left and top
/// edges (y grows down), and a little past them where a feature runs into the buffer.
/// ``encoded()`` writes the protobuf the specification defines; ``init(decoding:)`` reads one
/// back, checking every command.
public struct VectorTile: Sendable, Equatable {
    /// The layers, in drawing order.
    public var layers: [Layer]

    /// A tile of these layers.
    public init(layers: [Layer] = []) { self.layers = layers }

    /// The layer named `name`, when the tile has it.
    public func layer(_ name: String) -> Layer? { layers.first { $0.name == name } }

    /// One layer: a name unique in the tile, its grid and its features.
    public struct Layer: Sendable, Equatable {
        /// The layer's name (a style's `source-layer`).
        public var name: String
        /// The grid's size a side: 4096 by default.
        public var extent: UInt32
        /// The features, in drawing order.
        public var features: [Feature]

        /// A layer named `name` of `features` on an `extent`-unit grid.
        public init(name: String, extent: UInt32 = VectorTile.extent, features: [Feature] = []) {
            self.name = name
            self.extent = extent
            self.features = features
        }
    }

    /// A feature: an optional id, a geometry and attributes.
    public struct Feature: Sendable, Equatable {
        /// A number unique in the layer, when the feature has one.
        public var id: UInt64?
        /// Its points, lines or polygons in the layer's grid.
        public var geometry: TileGeometry
        /// Its attributes, by name.
        public var properties: [String: Value]

        /// A feature of `geometry` with `properties`.
        public init(id: UInt64? = nil, geometry: TileGeometry, properties: [String: Value] = [:]) {
            self.id = id
            self.geometry = geometry
            self.properties = properties
        }
    }

    /// An attribute's value, of one of the types the specification allows.
    public enum Value: Sendable, Hashable, CustomStringConvertible {
        case string(String)
        case double(Double)
        /// A signed integer (written as `sint_value`).
        case int(Int64)
        case bool(Bool)

        public var description: String {
            switch self {
            case .string(let text): text
            case .double(let number): "\(number)"
            case .int(let number): "\(number)"
            case .bool(let flag): "\(flag)"
            }
        }
    }

    /// The grid's size a side, in units: 4096, as most producers and every MapLibre client use.
    public static let extent: UInt32 = 4096
}

/// A point of a tile's grid, in its units from the top-left corner (y down).
public struct TilePoint: Sendable, Hashable {
    /// Units from the left edge.
    public var x: Int32
    /// Units from the top edge, growing down.
    public var y: Int32

    /// The point (`x`, `y`).
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// A feature's geometry in a tile's grid.
public enum TileGeometry: Sendable, Equatable {
    /// One or more points.
    case points([TilePoint])
    /// One or more lines of two points or more.
    case lines([[TilePoint]])
    /// One or more polygons, each an exterior ring and its holes; rings are closed implicitly
    /// (the first point is not repeated at the end). Exterior rings wind clockwise on screen
    /// (positive area, y down), holes counter-clockwise, as the specification requires.
    case polygons([[[TilePoint]]])

    /// The geometry type the specification numbers: 1 point, 2 line string, 3 polygon.
    public var typeCode: UInt64 {
        switch self {
        case .points: 1
        case .lines: 2
        case .polygons: 3
        }
    }

    /// The signed area of `ring` in square units by the surveyor's formula, with y down:
    /// positive for a ring that winds clockwise on screen (an exterior ring), negative for a hole.
    public static func area(_ ring: [TilePoint]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum: Int64 = 0
        var previous = ring[ring.count - 1]
        for point in ring {
            sum += Int64(previous.x) * Int64(point.y) - Int64(point.x) * Int64(previous.y)
            previous = point
        }
        return Double(sum) / 2
    }
}
