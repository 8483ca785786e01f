import CFuzzerDriver
import Foundation
import MapsURL

/// libFuzzer entry point: parses the input as a link, then checks the invariants that must
/// hold for any input, not only for well-formed links.
///
/// - every diagnostic offset lies inside the input;
/// - a valid link prints as every target, and the printed link parses back to exactly the
///   request the printer says it expresses.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzMapsURL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parsed = MapsURLParser.parse(text)
    let length = text.count
    for diagnostic in parsed.diagnostics {
        precondition(diagnostic.offset >= 0 && diagnostic.offset <= length, "diagnostic offset outside the input")
        _ = diagnostic.rendered(under: text)
    }
    guard let request = parsed.request else { return 0 }
    for target in LinkTarget.allCases {
        guard let printed = try? MapsURLPrinter.print(request, as: target) else { continue }
        let reparsed = MapsURLParser.parse(printed.url)
        precondition(
            reparsed.request == printed.expressed,
            "round trip failed for \(target): \(text) -> \(printed.url)")
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzMapsURL(data, size) })
