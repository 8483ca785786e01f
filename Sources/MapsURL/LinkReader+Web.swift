/// http(s) links, scheme-less Universal Links and `comgooglemapsurl://` (a desktop URL whose
/// scheme was replaced): the authority is checked by ``HostPolicy``, then the link is read as
/// a Google Maps URL, a short link or an Apple Maps link.
extension LinkReader {
    /// The parts of a hierarchical URL, as offsets into the input.
    struct WebParts {
        var path: Range<Int>
        var query: Range<Int>?
        var fragment: Range<Int>?
    }

    mutating func readWebLink(_ range: Range<Int>, schemeRange: Range<Int>?, wrapped: Bool) -> ParsedMapsURL {
        let form: LinkForm? = wrapped ? .comgooglemapsurl : nil
        var index = range.lowerBound
        if schemeRange != nil {
            guard hasPrefix(index..<range.upperBound, "//") else {
                report(.missingSlashes, .error, "the scheme must be followed by '//' and a host", at: index..<index)
                return finish(form: form, rejected: true)
            }
            index += 2
        }
        let authorityEnd = firstIndex(
            in: index..<range.upperBound, of: UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"))
        let hostRange: Range<Int>
        let kind: HostPolicy.Kind
        switch HostPolicy.classify(bytes, authority: index..<authorityEnd) {
        case .failure(let rejection):
            report(
                rejection.code, .error, rejection.message, at: rejection.offset..<(rejection.offset + rejection.length))
            return finish(form: form, rejected: true)
        case .success(let match):
            (hostRange, kind) = match
        }
        var host: String { HostPolicy.name(bytes, hostRange) }
        let parts = splitWebParts(authorityEnd..<range.upperBound)
        var parameters = parts.query.map { self.parameters(in: $0) } ?? []
        if wrapped {
            if kind == .appleMaps {
                report(
                    .hostNotGoogle, .error, "comgooglemapsurl:// only wraps Google Maps URLs, not '\(host)'",
                    at: index..<authorityEnd)
                return finish(form: form, rejected: true)
            }
            var callback = CallbackParts()
            parameters.removeAll { parameter in
                guard parameter.name.hasPrefix("x-") else { return false }
                if parameter.isRepeat {
                    duplicateParameter(parameter)
                    return true
                }
                return readCallbackParameter(parameter, into: &callback)
            }
            applyCallback(callback, required: false, at: 0..<range.lowerBound)
        }
        switch kind {
        case .googleMaps, .googleSearch:
            var path = parts.path
            let isRoot = path.isEmpty || (path.count == 1 && bytes[path.lowerBound] == UInt8(ascii: "/"))
            if hasPrefix(path, "/maps") && (path.count == 5 || bytes[path.lowerBound + 5] == UInt8(ascii: "/")) {
                path = (path.lowerBound + 5)..<path.upperBound
            } else if kind == .googleSearch && isRoot
                && parameters.contains(where: { Self.rootMapsNames.contains($0.name) })
            {
                // `google.com/?q=…`, `?destination=…`: what map apps share on the root, read as
                // Maps links; `/search?…` stays a web search.
            } else if kind == .googleSearch {
                report(
                    .notAMapsPath, .error, "on '\(host)' only paths under /maps/ are Google Maps links",
                    at: parts.path.isEmpty ? authorityEnd..<authorityEnd : parts.path)
                return finish(form: form, rejected: true)
            }
            readGoogleMaps(path: path, parameters: parameters)
            if let fragment = parts.fragment {
                readGoogleFragment(fragment)
            }
            return finish(form: form ?? .googleMapsWeb)
        case .gooGl, .mapsAppGooGl, .appGooGl, .gCo, .mapsApple:
            return readShortLink(
                kind: kind, host: host, parts: parts, parameters: parameters, start: index, wrappedForm: form)
        case .appleMaps:
            readAppleParameters(parameters)
            return finish(form: .appleMaps)
        }
    }

    /// Parameters that make a Google host's root a Maps link.
    static let rootMapsNames: Set<String> = ["q", "query", "destination", "origin", "daddr", "saddr", "ll"]

    func splitWebParts(_ range: Range<Int>) -> WebParts {
        let pathEnd = firstIndex(in: range, of: UInt8(ascii: "?"), UInt8(ascii: "#"))
        var query: Range<Int>?
        var fragmentStart = pathEnd
        if pathEnd < range.upperBound, bytes[pathEnd] == UInt8(ascii: "?") {
            let queryEnd = firstIndex(in: (pathEnd + 1)..<range.upperBound, of: UInt8(ascii: "#"))
            query = (pathEnd + 1)..<queryEnd
            fragmentStart = queryEnd
        }
        let fragment = fragmentStart < range.upperBound ? (fragmentStart + 1)..<range.upperBound : nil
        return WebParts(path: range.lowerBound..<pathEnd, query: query, fragment: fragment)
    }

    /// Old `maps/preview#!q=…&data=…` links keep their parameters in a `#!` fragment.
    private mutating func readGoogleFragment(_ fragment: Range<Int>) {
        guard hasPrefix(fragment, "!") else {
            if !fragment.isEmpty {
                report(.fragmentIgnored, .note, "the '#' fragment has no meaning here; it is ignored", at: fragment)
            }
            return
        }
        for parameter in parameters(in: (fragment.lowerBound + 1)..<fragment.upperBound) {
            guard !parameter.isRepeat else { continue }
            if parameter.name == "q", request.query == nil, request.marker == nil,
                let text = decodedValue(parameter)
            {
                applySearch(text, name: "q", at: parameter.location)
            } else if parameter.name != "data" {
                unknownParameter(parameter)
            }
        }
    }
}
