import CairoKit
import GeoCore
import MapData

/// The kinds of label the map writes, each with one look (``LabelLook``) for the PNG maps and
/// the vector styles alike.
public enum LabelKind: Sendable, Hashable {
    /// A place's name: a city, town, suburb or country; `large` for places of more than a
    /// million people.
    case place(large: Bool)
    /// A park's name, in italics.
    case park
    /// A water's name, in italics.
    case water
    /// A street's name along it; `major` for the main roads (rank 6 and above).
    case street(major: Bool)
    /// A point of interest's name beside its category's round icon.
    case poi(POICategory)
    /// A railway station's name beside its round icon.
    case station
    /// A contour line's height along it, on the terrain map.
    case contour
    /// A summit's name and height beside its icon, on the terrain map.
    case peak

    /// The population above which a place is ``place(large:)``: a million people.
    public static let largePlacePopulation = 1_000_000

    /// The kind's name in label URLs and image ids: `place`, `place-large`, `park`, `water`,
    /// `street`, `street-major`, `poi-sight` (and the other ``POICategory`` names), `station`,
    /// `contour`, `peak`.
    public var name: String {
        switch self {
        case .place(let large): large ? "place-large" : "place"
        case .park: "park"
        case .water: "water"
        case .street(let major): major ? "street-major" : "street"
        case .poi(let category): "poi-\(category)"
        case .station: "station"
        case .contour: "contour"
        case .peak: "peak"
        }
    }

    /// Every kind, in the order of ``name``'s list.
    public static var allCases: [LabelKind] {
        [.place(large: false), .place(large: true), .park, .water, .street(major: false), .street(major: true)]
            + POICategory.allCases.map { .poi($0) } + [.station, .contour, .peak]
    }

    /// The kind ``name`` names; nil for any other text.
    public init?(name: String) {
        guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = kind
    }
}

/// How a label is written: its font, size and colours, and the round icon it stands beside.
public struct LabelLook: Sendable {
    /// The Pango font: family and style (`Noto Sans Italic`).
    public var font: String
    /// The font size, points (Pango's: 72 a inch, on a picture of 96 pixels a inch).
    public var size: Double
    /// The text's colour.
    public var color: Color
    /// The halo behind the text, for contrast.
    public var halo: Color
    /// The halo's width each side of the glyphs' outlines, points: 1.5.
    public var haloWidth = 1.5
    /// The colour of the round icon left of the text (points of interest and stops); nil for
    /// labels without one.
    public var icon: Color?

    /// The font size in pixels (CSS pixels, as MapLibre's `text-size` takes it): ``size``
    /// at Pango's 96 pixels an inch.
    public var pixelSize: Double { size * 96 / 72 }

    /// Points between an icon's centre and the left end of its text: the icon's radius and 3.
    public static let iconGap = MapRenderer.iconRadius + 3

    /// A look of `font` at `size` in `color` over `halo`, beside an icon of `icon` when given.
    public init(font: String, size: Double, color: Color, halo: Color, icon: Color? = nil) {
        self.font = font
        self.size = size
        self.color = color
        self.halo = halo
        self.icon = icon
    }

    /// The look of `kind` in `palette` (over imagery, the renderer's white-on-dark palette).
    public init(_ kind: LabelKind, palette: MapPalette) {
        switch kind {
        case .place(let large):
            self.init(font: "Noto Sans", size: large ? 14 : 12, color: palette.label, halo: palette.labelHalo)
        case .park, .water:
            self.init(
                font: "Noto Sans Italic", size: 10, color: kind == .park ? palette.parkLabel : palette.waterLabel,
                halo: palette.labelHalo)
        case .street(let major):
            self.init(font: "Noto Sans Medium", size: major ? 11 : 10, color: palette.label, halo: palette.labelHalo)
        case .poi(let category):
            self.init(icon: category.color, palette: palette)
        case .station:
            self.init(icon: TransitMode.train.color, palette: palette)
        case .contour:
            self.init(
                font: "Noto Sans", size: 9,
                color: palette.labelHalo.isDark ? Color(hex: 0xB8A080) : Color(hex: 0x7A5C36), halo: palette.labelHalo)
        case .peak:
            self.init(icon: Color(hex: 0x8A6A44), palette: palette)
        }
    }

    /// A name beside a round icon of `icon` in `palette`: in the icon's colour, darker on a
    /// light map and lighter on a dark one, which reads best.
    public init(icon: Color, palette: MapPalette) {
        self.init(
            font: "Noto Sans Medium", size: 10,
            color: palette.labelHalo.isDark ? icon.lightened(by: 0.35) : icon.darkened(by: 0.35),
            halo: palette.labelHalo, icon: icon)
    }
}

extension MapRenderer {
    /// Points of air around a label picture, for its halo: 2.
    public static let labelMargin = 2.0

    /// Longest label text drawn as a picture: 200 characters.
    public static let labelPictureLimit = 200

    /// `text` written in `look` on a transparent PNG, shaped by Pango and HarfBuzz exactly as
    /// the map's own labels are (conjuncts, vowel signs and right-to-left runs right), for
    /// map clients that cannot shape a script themselves. The text starts ``labelMargin``
    /// points in; with an icon, the icon's centre is ``labelMargin`` + radius + 1 points from
    /// the left edge and the text starts ``LabelLook/iconGap`` after it. Both are centred
    /// vertically.
    ///
    /// - Parameters:
    ///   - scale: device pixels per point, 1...4.
    /// - Returns: the PNG and its size in points.
    /// - Throws: ``RenderError`` (unsupported) for an empty or too long text or a scale outside 1...4;
    ///   ``CairoError`` when the picture cannot be drawn.
    public static func labelPicture(_ text: String, look: LabelLook, scale: Double) throws -> (
        png: [UInt8], width: Double, height: Double
    ) {
        guard !text.isEmpty, text.count <= labelPictureLimit else {
            throw RenderError(
                .unsupported, message: "a label is 1 to \(labelPictureLimit) characters, not \(text.count)")
        }
        guard (1...4).contains(scale) else {
            throw RenderError(.unsupported, message: "a label's scale is 1 to 4, not \(scale)")
        }
        let margin = labelMargin
        let box = TextLayout(text, font: look.font, size: look.size, on: try Canvas(width: 1, height: 1)).logicalBox
        let iconSide = look.icon == nil ? 0 : 2 * (iconRadius + 1)
        let textX = margin + (look.icon == nil ? 0 : iconRadius + 1 + LabelLook.iconGap)
        let width = (textX + box.width + margin).rounded(.up)
        let height = (max(box.height, iconSide) + 2 * margin).rounded(.up)
        let canvas = try Canvas(width: width, height: height, scale: scale)
        if let icon = look.icon {
            drawIcon(on: canvas, x: margin + iconRadius + 1, y: height / 2, color: icon)
        }
        TextLayout(text, font: look.font, size: look.size, on: canvas).draw(
            x: textX, y: (height - box.height) / 2, color: look.color, halo: look.halo, haloWidth: look.haloWidth)
        return (try canvas.encoded(), width, height)
    }
}
