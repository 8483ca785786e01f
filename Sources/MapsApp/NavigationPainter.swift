import CairoKit
import Foundation
import GeoCore
import Routing

/// Draws a navigation app's chrome over a map picture: a banner across the top with the next
/// manoeuvre's arrow, the distance to it and its sentence, and a panel above the credits with
/// the time and distance left and the arrival time; all in the answer's language (Pango lays
/// out each script, Devanagari included).
struct NavigationPainter {
    let canvas: Canvas
    let words: Instructions

    static let bannerColor = Color(hex: 0x0B6E4F)
    static let panelText = Color(hex: 0x1F1F1F)
    static let timeColor = Color(hex: 0x0B6E4F)

    /// Draws the chrome for `state`; `arrival` is the arrival time as written (`HH:mm`).
    func draw(_ state: Navigation, arrival: String) {
        let width = canvas.width
        // The banner: arrow, distance, sentence.
        let sentence = TextLayout(words.text(for: state.next), size: 17, maxWidth: width - 110, on: canvas)
        let distance = TextLayout(words.distance(state.distanceToNext), font: "Noto Sans Bold", size: 24, on: canvas)
        let height = max(84, 22 + distance.logicalBox.height + sentence.logicalBox.height)
        canvas.rectangle(x: 0, y: 0, width: width, height: height)
        canvas.fill(Self.bannerColor)
        drawArrow(for: state.next.maneuver, centreX: 46, centreY: height / 2)
        distance.draw(x: 90, y: 10, color: .white)
        sentence.draw(x: 90, y: 12 + distance.logicalBox.height, color: .white)
        // The panel: time left, then distance left and arrival, above the logo and credits.
        let time = TextLayout(words.duration(state.remainingTime), font: "Noto Sans Bold", size: 20, on: canvas)
        let rest = TextLayout(
            words.distance(state.remainingDistance) + " · " + arrival, size: 15, on: canvas)
        let panelHeight = 48.0
        let top = canvas.height - 30 - panelHeight
        canvas.rectangle(x: 0, y: top, width: width, height: panelHeight)
        canvas.fill(Color.white.withAlpha(0.95))
        canvas.move(x: 0, y: top)
        canvas.line(x: width, y: top)
        canvas.stroke(Color(hex: 0xD0D4DA), width: 1)
        time.draw(x: 20, y: top + (panelHeight - time.logicalBox.height) / 2, color: Self.timeColor)
        rest.draw(
            x: 32 + time.logicalBox.width, y: top + (panelHeight - rest.logicalBox.height) / 2, color: Self.panelText)
    }

    /// The manoeuvre's arrow in white, about 48 points across, centred on (x, y): a stem from
    /// below and a head turned by the manoeuvre's angle; a ring for a roundabout, a target for
    /// the arrival.
    func drawArrow(for maneuver: Maneuver, centreX x: Double, centreY y: Double) {
        if maneuver.kind == .arrive {
            canvas.circle(x: x, y: y, radius: 14)
            canvas.stroke(.white, width: 5)
            canvas.circle(x: x, y: y, radius: 5)
            canvas.fill(.white)
            return
        }
        let turn: Double =
            switch maneuver.modifier ?? .straight {
            case .straight: 0
            case .slightRight: 45
            case .right: 90
            case .sharpRight: 135
            case .slightLeft: -45
            case .left: -90
            case .sharpLeft: -135
            case .uturn: 180
            }
        let (stemX, stemY) = (x, y + 22)
        let (jointX, jointY) = (x, y - (maneuver.kind == .roundabout ? 0 : 2))
        canvas.move(x: stemX, y: stemY)
        canvas.line(x: jointX, y: jointY)
        if maneuver.kind == .roundabout {
            canvas.stroke(.white, width: 6, cap: .butt)
            canvas.circle(x: x, y: y - 8, radius: 9)
            canvas.stroke(.white, width: 4)
        } else {
            canvas.stroke(.white, width: 6, cap: .butt)
        }
        // The head: from the joint (or the ring's edge) along the turned heading.
        let radians = turn * .pi / 180
        let (dx, dy) = (sin(radians), -cos(radians))
        let start = maneuver.kind == .roundabout ? (x + dx * 9, y - 8 + dy * 9) : (jointX, jointY)
        var end = (start.0 + dx * 18, start.1 + dy * 18)
        if maneuver.modifier == .uturn {
            // Up, over and back down on the left.
            canvas.move(x: jointX, y: jointY)
            canvas.curve(x1: jointX, y1: jointY - 20, x2: jointX - 18, y2: jointY - 20, x: jointX - 18, y: jointY)
            end = (jointX - 18, jointY + 8)
            canvas.line(x: end.0, y: end.1)
            canvas.stroke(.white, width: 6, cap: .butt)
            head(at: end, dx: 0, dy: 1)
            return
        }
        canvas.move(x: start.0, y: start.1)
        canvas.line(x: end.0, y: end.1)
        canvas.stroke(.white, width: 6, cap: .butt)
        end = (end.0 + dx * 2, end.1 + dy * 2)
        head(at: end, dx: dx, dy: dy)
    }

    /// A filled arrowhead whose tip is at `tip`, pointing along (dx, dy).
    func head(at tip: (Double, Double), dx: Double, dy: Double) {
        let (px, py) = (-dy, dx)
        canvas.move(x: tip.0 + dx * 8, y: tip.1 + dy * 8)
        canvas.line(x: tip.0 + px * 9, y: tip.1 + py * 9)
        canvas.line(x: tip.0 - px * 9, y: tip.1 - py * 9)
        canvas.closePath()
        canvas.fill(.white)
    }
}
