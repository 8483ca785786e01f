import CFuzzerDriver
import Foundation
import MapsURL

/// libFuzzer entry point: any bytes, read as a link, must keep ``RoundTrip``'s invariants.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzMapsURL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let violations = RoundTrip.violations(for: text)
    precondition(violations.isEmpty, "\(text.debugDescription): \(violations)")
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzMapsURL(data, size) })
