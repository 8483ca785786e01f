/// Short links, recognised and never resolved: `maps.app.goo.gl/ID`, `goo.gl/maps/ID`,
/// `app.goo.gl/maps/ID`, `g.co/kgs/ID` (Google) and `maps.apple/p/ID` (Apple). The id is the
/// run of letters, digits, `-` and `_` after the host's prefix; what follows it in the path
/// (an HTML tail such as `%3C/a%3E`, closing punctuation such as `).`) is cut off with a note,
/// as it comes from pasting, not from the link. A Firebase dynamic link (`maps.app.goo.gl/?link=…`,
/// as Maps Go shares) yields the request of the Maps URL in its `link=`, read once (a link in
/// that link is not followed).
extension LinkReader {
    /// The path prefix before a short link's id on each host.
    private static func idPrefix(_ kind: HostPolicy.Kind) -> StaticString {
        switch kind {
        case .gooGl, .appGooGl: "/maps/"
        case .gCo: "/kgs/"
        case .mapsApple: "/p/"
        default: "/"
        }
    }

    mutating func readShortLink(
        kind: HostPolicy.Kind, host: String, parts: WebParts, parameters: [Parameter], start: Int,
        wrappedForm: LinkForm?
    ) -> ParsedMapsURL {
        let form = wrappedForm ?? (kind == .mapsApple ? .appleShortLink : .googleShortLink)
        let prefix = Self.idPrefix(kind)
        let root = parts.path.isEmpty || text(parts.path) == "/"
        if kind == .mapsAppGooGl, root, let link = parameters.first(where: { $0.name == "link" }) {
            return readDynamicLink(link, form: wrappedForm)
        }
        guard hasPrefix(parts.path, prefix), parts.path.count > prefix.utf8CodeUnitCount else {
            report(
                .notAMapsPath, .error, "'\(host)' links are Maps short links only under \(prefix)",
                at: parts.path.isEmpty ? start..<start : parts.path)
            return finish(form: wrappedForm, rejected: true)
        }
        let idStart = parts.path.lowerBound + prefix.utf8CodeUnitCount
        var idEnd = idStart
        while idEnd < parts.path.upperBound, isIDByte(bytes[idEnd]) { idEnd += 1 }
        guard idEnd > idStart else {
            report(.badShortLink, .error, "a short link's id holds only letters, digits, - and _", at: parts.path)
            return finish(form: wrappedForm, rejected: true)
        }
        if idEnd < parts.path.upperBound {
            report(
                .trailingTextIgnored, .note, "the text after the short link's id is not part of it; it is ignored",
                at: idEnd..<parts.path.upperBound)
        } else {
            for parameter in parameters {
                report(
                    .unknownParameter, .note, "'\(parameter.name)' on a short link is ignored", at: parameter.nameRange)
            }
        }
        request.shortLink = "https://\(host)\(text(parts.path.lowerBound..<idEnd))"
        report(
            .needsResolution, .note,
            "this short link must be resolved over the network before it can be shown; it is never resolved implicitly",
            at: start..<idEnd)
        return finish(form: form)
    }

    /// Letters, digits, `-` and `_`: what short link ids are made of.
    private func isIDByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// A dynamic link's `link=`: decoded once, read as a link of its own (one level deep only),
    /// its request taken; its diagnostics point at the parameter, prefixed.
    private mutating func readDynamicLink(_ link: Parameter, form wrappedForm: LinkForm?) -> ParsedMapsURL {
        guard let inner = decodedValue(link, plusIsSpace: false), !inner.isEmpty else {
            return finish(form: wrappedForm, rejected: true)
        }
        return readNestedLink(inner, at: link.location, named: "the dynamic link's link=", form: wrappedForm)
    }

    /// Reads `inner`, a link carried inside this one (a dynamic link's `link=`, an Android
    /// intent's target), as a link of its own, one level deep only: its request is taken, its
    /// diagnostics point at `range`, prefixed with `name`.
    mutating func readNestedLink(
        _ inner: String, at range: Range<Int>, named name: String, form wrappedForm: LinkForm?
    ) -> ParsedMapsURL {
        guard depth == 0 else {
            report(.nestedLink, .error, "\(name) inside another carried link is not followed", at: range)
            return finish(form: wrappedForm, rejected: true)
        }
        let parsed = MapsURLParser.parse(inner, depth: depth + 1)
        for diagnostic in parsed.diagnostics {
            report(diagnostic.code, diagnostic.severity, "in \(name): \(diagnostic.message)", at: range)
        }
        guard let innerRequest = parsed.request, parsed.form != nil else {
            report(.nestedLink, .error, "\(name) is not a maps link", at: range)
            return finish(form: wrappedForm, rejected: true)
        }
        report(.nestedLink, .note, "\(name) carries a maps link; it is read", at: range)
        let callback = request.callback
        request = innerRequest
        if request.callback == nil { request.callback = callback }
        return finish(form: wrappedForm ?? parsed.form)
    }
}
