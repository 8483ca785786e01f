/// The invariants every input must keep, whatever it is: checked by the tests over seeded
/// random requests and by the fuzzer (`make fuzz`) over arbitrary bytes.
public enum RoundTrip {
    /// Parses `text` and checks that every diagnostic points inside the input and that the
    /// request, printed as every target, parses back without errors to exactly what the printer
    /// says it expresses.
    ///
    /// - Returns: one line per broken invariant; empty when all hold.
    public static func violations(for text: String) -> [String] {
        let parsed = MapsURLParser.parse(text)
        var violations: [String] = []
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
}
