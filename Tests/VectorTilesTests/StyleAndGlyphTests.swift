import CairoKit
import Foundation
import GeoCore
import GlyphKit
import MapCore
import MapData
import MapRenderer
import Testing

@testable import VectorTiles

/// The styles follow the raster map's palette and widths; the glyphs are SDF as MapLibre reads
/// them.
@Suite struct StyleAndGlyphTests {
    @Test func stylesUseTheRastersPaletteAndWidths() throws {
        var light = TileStyle()
        light.language = .hi
        let document = MapStyle(style: light, base: "http://h").document
        let layers = try #require(document["layers"] as? [[String: Any]])
        let background = try #require(layers.first { $0["id"] as? String == "background" })
        #expect(
            (background["paint"] as? [String: Any])?["background-color"] as? String
                == MapStyle.css(MapPalette.light.land))
        var dark = light
        dark.style = .dark
        let darkLayers = try #require(MapStyle(style: dark, base: "http://h").document["layers"] as? [[String: Any]])
        let water = try #require(darkLayers.first { $0["id"] as? String == "water" })
        #expect((water["paint"] as? [String: Any])?["fill-color"] as? String == MapStyle.css(MapPalette.dark.water))
        // The width of a residential street at map zoom 16 (style zoom 15) is the renderer's.
        let width = MapStyle.width(5)
        let index = try #require(width.firstIndex { ($0 as? Int) == 15 })
        #expect(width[index + 1] as? Double == MapRenderer.width(5, zoom: 16))
        // Names in the asked language where the data has them, written by MapLibre where it
        // can shape their script.
        let places = try #require(layers.first { $0["id"] as? String == "places" })
        let field = try #require((places["layout"] as? [String: Any])?["text-field"] as? [Any])
        let name = try #require(field[2] as? [Any])
        #expect(field.first as? String == "case" && (field[1] as? [Any])?.first as? String == "is-supported-script")
        #expect(name.first as? String == "coalesce" && (name[1] as? [String])?.last == "name:hi")
        #expect(MapStyle.css(Color(hex: 0x112233, alpha: 0.5)) == "rgba(17, 34, 51, 0.5)")
    }

    /// Every label layer leaves the names MapLibre cannot shape to the server's pictures
    /// (`label:KIND:NAME`), of the kinds the server draws, and writes the others in the sizes
    /// and colours the PNG maps give their kind.
    @Test func labelsMapLibreCannotShapeAreTheServersPictures() throws {
        var style = TileStyle()
        style.style = .dark
        let document = MapStyle(style: style, base: "http://h").document
        let metadata = try #require(document["metadata"] as? [String: Any])
        #expect(metadata[MapStyle.labelPicturesKey] as? String == "http://h/labels/{kind}.png?scheme=dark")
        let symbols = try #require(document["layers"] as? [[String: Any]]).filter { $0["type"] as? String == "symbol" }
        #expect(symbols.count == 7)
        for layer in symbols {
            let layout = try #require(layer["layout"] as? [String: Any])
            let image = try #require(layout["icon-image"] as? [Any], "\(layer["id"] ?? "")")
            let picture = try #require(image[3] as? [Any])
            #expect(picture.first as? String == "concat" && picture[1] as? String == MapStyle.labelImagePrefix)
            // The kind is a kind's name, or an expression whose every result is one.
            let kinds = [picture[2]] + ((picture[2] as? [Any]) ?? []).filter { $0 is String }.map { $0 as Any }
            for case let kind as String in kinds where !["case", "match", "in", "get"].contains(kind) {
                #expect(LabelKind(name: kind) != nil || ["class", "rank"].contains(kind), "\(kind)")
            }
        }
        let places = try #require(symbols.first { $0["id"] as? String == "places" })
        let size = try #require((places["layout"] as? [String: Any])?["text-size"] as? [Any])
        #expect(size[2] as? Double == LabelLook(.place(large: true), palette: .dark).pixelSize)
        #expect(size[3] as? Double == 16)
        let water = try #require(symbols.first { $0["id"] as? String == "water-names" })
        #expect(
            (water["paint"] as? [String: Any])?["text-color"] as? String
                == MapStyle.css(LabelLook(.water, palette: .dark).color))
    }

    /// The indoor maps and the points of interest on floors show one floor: the ground floor
    /// in the style, any floor by the filter their metadata holds.
    @Test func indoorLayersShowOneFloorAtATime() throws {
        let document = MapStyle(style: TileStyle(), base: "http://h").document
        let layers = try #require(document["layers"] as? [[String: Any]])
        for id in ["indoor-areas", "indoor-walls", "poi"] {
            let layer = try #require(layers.first { $0["id"] as? String == id }, "\(id)")
            let filter = JSONText.pretty(try #require(layer["filter"]))
            let template = JSONText.pretty(
                try #require((layer["metadata"] as? [String: Any])?[MapStyle.floorFilterKey], "\(id)"))
            #expect(filter.contains(#"";0;""#) && !filter.contains(MapStyle.floorPlaceholder))
            #expect(template == filter.replacingOccurrences(of: #"";0;""#, with: #"";{floor};""#))
        }
        let areas = try #require(layers.first { $0["id"] as? String == "indoor-areas" })
        #expect(areas["minzoom"] as? Double == MapStyle.styleZoom(MapView.indoorMinZoom))
    }

    /// A label's picture: the text in its kind's look, shaped (no Devanagari letter missing),
    /// with the icon of a point of interest at its left; bad requests refused by name.
    @Test func labelPicturesAreShapedAsTheMapsLabels() throws {
        let look = LabelLook(.poi(.food), palette: .light)
        let text = "मॊनाकॊ"
        let picture = try MapRenderer.labelPicture(text, look: look, scale: 2)
        let canvas = try Canvas(png: picture.png)
        #expect(canvas.width == picture.width * 2 && canvas.height == picture.height * 2)
        let layout = TextLayout(text, font: look.font, size: look.size, on: canvas)
        #expect(layout.unknownGlyphs == 0)
        #expect(
            picture.width
                == (MapRenderer.labelMargin * 2 + MapRenderer.iconRadius + 1 + LabelLook.iconGap
                + layout.logicalBox.width).rounded(.up))
        // The icon's centre is the category's colour; the corners are clear.
        let centre = try #require(
            canvas.pixel(
                x: Int((MapRenderer.labelMargin + MapRenderer.iconRadius + 1) * 2), y: Int(picture.height)))
        #expect(centre.alpha == 255 && centre.red == UInt8((POICategory.food.color.red * 255).rounded()))
        #expect(canvas.pixel(x: 0, y: 0)?.alpha == 0)
        #expect(throws: RenderError.self) { try MapRenderer.labelPicture("", look: look, scale: 1) }
        #expect(throws: RenderError.self) { try MapRenderer.labelPicture("a", look: look, scale: 5) }
        #expect(LabelKind.allCases.allSatisfy { LabelKind(name: $0.name) == $0 })
        #expect(LabelKind(name: "poi-bogus") == nil)
    }

    /// A glyph range decodes as the protobuf MapLibre reads; 'A' and the Devanagari 'क' are in
    /// the stack, each with its field bordered by 3 pixels and the outline at 192.
    @Test func glyphRangesAreSDFAsMapLibreReadsThem() throws {
        let latin = try #require(try GlyphStacks.range(MapStyle.font, start: 0))
        let glyphs = try Self.glyphs(latin)
        let a = try #require(glyphs[65])
        #expect(a.width > 8 && a.height > 12 && a.advance > 10)
        #expect(a.bitmap.count == (a.width + 6) * (a.height + 6))
        #expect(a.top < 0 && a.top > -12, "top is from the em's top (24 px): \(a.top)")
        #expect(a.bitmap.max() ?? 0 > 192 && a.bitmap.min() ?? 255 < 64)
        #expect(glyphs[32]?.bitmap.isEmpty == true, "a space is an advance and no bitmap")
        let devanagari = try Self.glyphs(try #require(try GlyphStacks.range(MapStyle.font, start: 2304)))
        #expect(devanagari[0x915] != nil, "क comes from Noto Sans Devanagari")
        #expect(try GlyphStacks.range("Comic Sans", start: 0) == nil)
        #expect(throws: GlyphError.self) { try SDFGlyphs.range(start: 7, name: "x", fonts: []) }
    }

    struct Glyph {
        var bitmap: [UInt8] = []
        var width = 0, height = 0, left = 0, top = 0, advance = 0
    }

    /// The glyphs of a range by code point (fields of `glyphs.stacks[0].glyphs`).
    static func glyphs(_ bytes: [UInt8]) throws -> [Int: Glyph] {
        var found: [Int: Glyph] = [:]
        try bytes.withUnsafeBytes { buffer in
            var top = ProtobufReader<VectorTileError>(buffer)
            while let (field, type) = try top.readTag() {
                guard field == 1 else { try top.skip(type); continue }
                var stack = try top.readMessage()
                while let (field, type) = try stack.readTag() {
                    guard field == 3 else { try stack.skip(type); continue }
                    var message = try stack.readMessage()
                    var glyph = Glyph()
                    var id = -1
                    while let (field, type) = try message.readTag() {
                        switch field {
                        case 1: id = Int(try message.readVarint())
                        case 2:
                            let range = try message.readLengthDelimited()
                            glyph.bitmap = Array(buffer[range])
                        case 3: glyph.width = Int(try message.readVarint())
                        case 4: glyph.height = Int(try message.readVarint())
                        case 5: glyph.left = Int(try message.readSignedVarint())
                        case 6: glyph.top = Int(try message.readSignedVarint())
                        case 7: glyph.advance = Int(try message.readVarint())
                        default: try message.skip(type)
                        }
                    }
                    found[id] = glyph
                }
            }
        }
        return found
    }

    @Test func theSpriteHoldsTheRenderersIcons() throws {
        let sheet = try SpriteSheet.sheet(pixelRatio: 2)
        let index = try #require(
            try JSONSerialization.jsonObject(with: Data(sheet.json.utf8)) as? [String: [String: Int]])
        #expect(Set(index.keys) == Set(SpriteSheet.icons.map(\.name)))
        #expect(index["poi-food"]?["width"] == 28)
        #expect(sheet.png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
