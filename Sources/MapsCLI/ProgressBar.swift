import Foundation

/// A one-line progress bar on standard error, redrawn in place (`\r`), for long imports.
///
/// It draws only when standard error is a terminal, so logs and pipes stay clean; it redraws only
/// when the phase or the whole percentage changes.
final class ProgressBar {
    /// Whether the bar draws at all (standard error is a terminal).
    let isEnabled: Bool
    /// The bar's width in cells, without the phase and percentage; default 30.
    let width: Int
    private var lastLine = ""
    /// When the current phase began, for the time left.
    private var phase = ""
    private var phaseStart = Date()

    init(isEnabled: Bool = isatty(STDERR_FILENO) != 0, width: Int = 30) {
        self.isEnabled = isEnabled
        self.width = width
    }

    /// The line for a phase at a fraction done (clamped to 0...1), with the seconds left when
    /// known: `reading  [#####-----]  50%  1m05s left`.
    static func line(phase: String, fraction: Double, width: Int, remaining: Double? = nil) -> String {
        let done = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        let filled = Int((done * Double(width)).rounded(.down))
        let percent = Int((done * 100).rounded(.down))
        let label = phase.padding(toLength: max(phase.count, 8), withPad: " ", startingAt: 0)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let number = String(percent)
        let left = remaining.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }.map { seconds in
            let whole = Int(seconds.rounded(.up))
            return whole >= 60 ? String(format: "  %dm%02ds left", whole / 60, whole % 60) : "  \(whole)s left"
        }
        return "\(label) [\(bar)] \(String(repeating: " ", count: 3 - number.count))\(number)%" + (left ?? "")
    }

    /// Redraws the bar if the line changed.
    func update(phase: String, fraction: Double) {
        guard isEnabled else { return }
        if phase != self.phase {
            self.phase = phase
            phaseStart = Date()
        }
        // The time left once 2% is done: the phase's pace so far, kept up.
        let elapsed = Date().timeIntervalSince(phaseStart)
        let remaining = fraction >= 0.02 && fraction < 1 ? elapsed * (1 - fraction) / fraction : nil
        let line = Self.line(phase: phase, fraction: fraction, width: width, remaining: remaining)
        guard line != lastLine else { return }
        lastLine = line
        write("\r" + line)
    }

    /// Ends the bar's line so what follows starts on a fresh one.
    func finish() {
        guard isEnabled, !lastLine.isEmpty else { return }
        write("\n")
        lastLine = ""
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
