/// The invariants every input must keep, whatever it is: checked by the tests over seeded
/// random requests and by the fuzzer (`make fuzz`) over arbitrary bytes.
public enum RoundTrip {
    /// Parses `text` and checks that every diagnostic points inside the input and that the
    /// request, printed as every target, parses back without errors to exactly what the printer
    /// says it expresses; then that every link ``MapsURLParser/find(in:)`` finds in it stands
    /// where it says, in order, and is a link the parser reads.
    ///
    /// - Returns: one line per broken invariant; empty when all hold.
    public static func violations(for text: String) -> [String] {
        let parsed = MapsURLParser.parse(text)
        var violations = findViolations(in: text)
        let length = text.count
        for diagnostic in parsed.diagnostics where diagnostic.offset < 0 || diagnostic.offset > length {
            violations.append(
                "diagnostic \(diagnostic.code.rawValue) at \(diagnostic.offset) is outside the input (\(length))")
        }
        guard let request = parsed.request else { return violations }
        return violations + self.violations(for: request)
    }

    /// Checks that `request`, printed as every target, parses back to what the printer says
    /// it expresses, and that nothing is lost without being listed.
    public static func violations(for request: MapsRequest) -> [String] {
        var violations: [String] = []
        for target in LinkTarget.allCases {
            guard let printed = try? MapsURLPrinter.print(request, as: target) else { continue }
            let reparsed = MapsURLParser.parse(printed.url)
            if reparsed.request != printed.expressed {
                violations.append("\(target.rawValue): \(printed.url) parses to a different request")
            }
            if printed.unexpressed.isEmpty && printed.expressed != request {
                violations.append("\(target.rawValue): \(printed.url) lost a part without reporting it")
            }
            if reparsed.diagnostics.contains(where: { $0.severity == .error }) {
                violations.append("\(target.rawValue): \(printed.url) has errors: \(reparsed.diagnostics)")
            }
        }
        return violations
    }

    /// Checks the links found in `text`: each range lies in the text after the one before, holds
    /// exactly the link, and the link parses to a request.
    static func findViolations(in text: String) -> [String] {
        var violations: [String] = []
        var previousEnd = text.startIndex
        for found in MapsURLParser.find(in: text) {
            guard found.range.lowerBound >= previousEnd, found.range.upperBound <= text.endIndex else {
                violations.append("found link \(found.link.debugDescription) is out of order or outside the text")
                continue
            }
            previousEnd = found.range.upperBound
            if String(text.unicodeScalars[found.range]) != found.link {
                violations.append("found link \(found.link.debugDescription) is not the text at its range")
            }
            if MapsURLParser.parse(found.link).request == nil {
                violations.append("found link \(found.link.debugDescription) does not parse")
            }
        }
        return violations
    }
}
