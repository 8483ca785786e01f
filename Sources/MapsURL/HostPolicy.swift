import Foundation

/// The one place that decides whether a URL's host belongs to a maps service.
///
/// The host is taken from the raw authority once, normalised once (ASCII lower case, one
/// trailing dot removed) and matched anchored against whole labels. Userinfo, backslashes,
/// percent-escapes, non-ASCII characters, `xn--` labels and non-default ports are rejected
/// outright, so no parser differential (Foundation vs. browsers) can send a look-alike through.
enum HostPolicy {
    /// What a matched host serves.
    enum Kind: Equatable {
        /// `maps.google.<T>`: any path is a Maps URL.
        case googleMaps
        /// `google.<T>` or `www.google.<T>`: only paths under `/maps` are Maps URLs.
        case googleSearch
        /// `goo.gl`: only paths under `/maps/` are Maps short links.
        case gooGl
        /// `maps.app.goo.gl`: every path is a Maps short link (or, at the root, a dynamic link
        /// whose `link=` holds a Maps URL).
        case mapsAppGooGl
        /// `app.goo.gl`: Maps short links under `/maps/`.
        case appGooGl
        /// `g.co`: Google's knowledge panel short links under `/kgs/`.
        case gCo
        /// `maps.apple`: Apple Maps short links under `/p/`.
        case mapsApple
        /// `maps.apple.com`.
        case appleMaps
    }

    struct Rejection: Error {
        var code: DiagnosticCode
        var message: String
        var offset: Int
        var length: Int
    }

    /// Checks the authority `range` of `bytes` and classifies its host.
    ///
    /// - Parameter defaultPorts: ports that may be written explicitly (80 and 443 for web URLs).
    /// - Returns: where the host is (without a trailing dot) and its kind; ``name(_:_:)`` spells
    ///   it out when a message or a link needs it.
    static func classify(
        _ bytes: UnsafeBufferPointer<UInt8>, authority range: Range<Int>, defaultPorts: [Int] = [80, 443]
    ) -> Result<(host: Range<Int>, kind: Kind), Rejection> {
        guard !range.isEmpty else {
            return .failure(
                Rejection(code: .missingHost, message: "the link has no host", offset: range.lowerBound, length: 1))
        }
        var hostEnd = range.upperBound
        for index in range {
            let byte = bytes[index]
            let reason: (DiagnosticCode, String)?
            switch byte {
            case UInt8(ascii: "@"):
                reason = (.userinfo, "user information before the host is not allowed (it hides the real host)")
            case UInt8(ascii: "\\"):
                reason = (.backslashInHost, "a backslash in the host is not allowed (browsers read it as '/')")
            case UInt8(ascii: "%"):
                reason = (.escapedHost, "percent-escapes in the host are not allowed")
            case 0x80...:
                reason = (.nonAsciiHost, "non-ASCII characters in the host are not allowed (look-alike hosts)")
            case UInt8(ascii: ":"):
                if hostEnd == range.upperBound { hostEnd = index }
                reason = nil
            default:
                reason = nil
            }
            if let (code, message) = reason {
                return .failure(Rejection(code: code, message: message, offset: index, length: 1))
            }
        }
        if hostEnd < range.upperBound {
            let portBytes = UnsafeBufferPointer(rebasing: bytes[(hostEnd + 1)..<range.upperBound])
            let port =
                portBytes.count <= 5 && portBytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) && !portBytes.isEmpty
                ? Int(String(decoding: portBytes, as: UTF8.self)) : nil
            guard let port, defaultPorts.contains(port) else {
                return .failure(
                    Rejection(
                        code: .port, message: "a port other than the scheme's default is not allowed",
                        offset: hostEnd, length: range.upperBound - hostEnd))
            }
        }
        var hostRange = range.lowerBound..<hostEnd
        if hostRange.count > 1, bytes[hostRange.upperBound - 1] == UInt8(ascii: ".") {
            hostRange = hostRange.lowerBound..<(hostRange.upperBound - 1)
        }
        var host: String { name(bytes, hostRange) }
        let hostLength = hostEnd - range.lowerBound
        var labelStart = hostRange.lowerBound
        for index in hostRange.lowerBound...hostRange.upperBound {
            if index < hostRange.upperBound, bytes[index] != UInt8(ascii: ".") {
                let byte = bytes[index] | 0x20
                let valid =
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (bytes[index] >= 48 && bytes[index] <= 57)
                    || bytes[index] == UInt8(ascii: "-")
                if !valid {
                    return .failure(
                        Rejection(
                            code: .badHost, message: "'\(host)' is not a valid host name", offset: range.lowerBound,
                            length: hostLength))
                }
                continue
            }
            if index == labelStart {
                return .failure(
                    Rejection(
                        code: .badHost, message: "'\(host)' has an empty label", offset: range.lowerBound,
                        length: hostLength))
            }
            if index - labelStart >= 4, bytes[labelStart] | 0x20 == UInt8(ascii: "x"),
                bytes[labelStart + 1] | 0x20 == UInt8(ascii: "n"), bytes[labelStart + 2] == UInt8(ascii: "-"),
                bytes[labelStart + 3] == UInt8(ascii: "-")
            {
                return .failure(
                    Rejection(
                        code: .punycodeHost, message: "internationalised (xn--) hosts are not maps hosts",
                        offset: range.lowerBound, length: hostLength))
            }
            labelStart = index + 1
        }
        let kind = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: hostRange.count) { lowered in
            for (offset, index) in hostRange.enumerated() {
                let byte = bytes[index]
                lowered[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            }
            return Self.kind(of: UnsafeBufferPointer(lowered))
        }
        if let kind { return .success((hostRange, kind)) }
        return .failure(
            Rejection(
                code: .hostNotMaps, message: "'\(host)' is not a Google Maps or Apple Maps host",
                offset: range.lowerBound, length: hostLength))
    }

    /// True when `host` is `prefix` followed by one of Google's country suffixes.
    private static func googleSuffix(_ host: UnsafeBufferPointer<UInt8>, after prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard host.count > count, memcmp(host.baseAddress!, prefix.utf8Start, count) == 0 else { return false }
        return GoogleDomains.contains(suffix: UnsafeBufferPointer(rebasing: host[count...]))
    }

    /// The host in `range` in lower case, for messages and links.
    static func name(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self).lowercased()
    }

    /// The kind of a lower-case host, or nil when it serves no maps.
    static func kind(of host: UnsafeBufferPointer<UInt8>) -> Kind? {
        if equals(host, "goo.gl") { return .gooGl }
        if equals(host, "maps.app.goo.gl") { return .mapsAppGooGl }
        if equals(host, "app.goo.gl") { return .appGooGl }
        if equals(host, "g.co") { return .gCo }
        if equals(host, "maps.apple") { return .mapsApple }
        if equals(host, "maps.apple.com") { return .appleMaps }
        if googleSuffix(host, after: "maps.google.") { return .googleMaps }
        if googleSuffix(host, after: "www.google.") || googleSuffix(host, after: "google.") { return .googleSearch }
        return nil
    }

    private static func equals(_ host: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        host.count == name.utf8CodeUnitCount && memcmp(host.baseAddress!, name.utf8Start, host.count) == 0
    }
}
