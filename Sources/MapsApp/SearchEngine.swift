import GeoCore
import MapData
import PlaceSearch

/// Forward and reverse geocoding, for `openmaps search`, `openmaps reverse` and the server.
///
/// A geocoder also finds the places of links (``PlaceFinding``): a search's `q` and the text
/// ends of directions go through the same search.
public protocol Geocoding: PlaceFinding {
    /// The places matching `query`, best first.
    func search(_ query: SearchQuery) throws -> [PlaceResult]
    /// What lies at `coordinate`, named in `language` (nil: local names).
    func reverse(_ coordinate: Coordinate, language: Language?) throws -> PlaceResult?
}

extension PlaceSearch {
    /// A text looked up near a centre, as ``PlaceFinding`` asks: whole, or while typed (one
    /// connection, one thread: the app's engines keep a search per pooled connection,
    /// ``PooledPlaceSearch``).
    public func places(matching text: String, near: Coordinate?, limit: Int, names: Language?, typing: Bool = false)
        throws -> [FoundPlace]
    {
        guard QueryText.isSearchable(text) else { return [] }
        var query = SearchQuery(
            text, near: near, limit: min(max(limit, 1), PlaceSearch.maxLimit), language: names)
        query.autocomplete = typing
        let words = Phrasebook(names ?? .en)
        return try search(query).map { result in
            FoundPlace(
                name: result.name, position: result.coordinate, kind: result.kind, why: result.why,
                closestMatch: result.closestMatch, distance: result.distance, source: result.source,
                address: result.addressLine.isEmpty ? nil : result.addressLine, plusCode: result.plusCode?.code,
                hours: result.opening?.sentence(words))
        }
    }
}

extension MapsApp {
    /// The places matching `query`, best first, from the app's geocoder.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` for a query that cannot be searched
    ///   (empty, too long, a limit out of range), `engineMissing` without
    ///   a geocoder, `engineFailed` when it fails.
    public func search(_ query: SearchQuery) throws(AppError) -> [PlaceResult] {
        let geocoder = try self.geocoder()
        do { return try geocoder.search(query) } catch let error as SearchError {
            throw .invalidOption(Self.option(of: error), message: error.description)
        } catch {
            throw .engineFailed("searching for '\(query.text)'", underlying: error)
        }
    }

    /// What lies at `coordinate`, from the app's geocoder; nil where the data has nothing.
    public func reverse(_ coordinate: Coordinate, language: Language? = nil) throws(AppError) -> PlaceResult? {
        guard coordinate.isValid else {
            throw .invalidOption("coordinate", message: "must be a latitude within ±90 and a longitude within ±180")
        }
        let geocoder = try self.geocoder()
        do { return try geocoder.reverse(coordinate, language: language) } catch let error as SearchError {
            throw .invalidOption(Self.option(of: error), message: error.description)
        } catch {
            throw .engineFailed("looking up \(coordinate)", underlying: error)
        }
    }

    private func geocoder() throws(AppError) -> any Geocoding {
        guard let geocoder = places as? any Geocoding else { throw .engineMissing("place search") }
        return geocoder
    }

    private static func option(of error: SearchError) -> String {
        switch error {
        case .emptyQuery, .queryTooLong, .notAPlusCode, .shortPlusCodeUnplaced: "query"
        case .limitOutOfRange: "limit"
        }
    }
}

/// What the search box finds for a text: the places and what the person should know of them.
public struct SearchBoxAnswer: Sendable {
    /// Best first, at most the limit asked for.
    public var places: [FoundPlace]
    /// Nothing found, nothing nearby (with the nearest match far away), a partial match, no
    /// search: in the answer's language.
    public var notes: [Note]
}

extension MapsApp {
    /// How many places a search box may ask for: 1 to 50.
    public static let searchBoxLimits = 1...PlaceSearch.maxLimit

    /// What the search box finds for `text` near the map's center: the one policy of a search
    /// entered (a link's `q`, Enter in the web app) and of the suggestions while typing.
    /// Settlements, regions and countries are found wherever they are ("Cupertino" seen from San
    /// Francisco); shops, stops and streets only within ``searchRadius`` of `near`, and when
    /// every match lies beyond it, none is shown and a note names the nearest.
    ///
    /// - Parameters:
    ///   - near: the map's center; nil searches everywhere alike.
    ///   - limit: at most this many places, within ``searchBoxLimits``; ``searchResultLimit`` by
    ///     default.
    ///   - language: the language of the names and notes; nil for local names and English.
    ///   - typing: true while the text is typed (its last word may be the start of one).
    /// - Throws: ``AppError/engineFailed(_:underlying:)`` when the search fails.
    public func searchBox(
        _ text: String, near: Coordinate?, limit: Int = MapsApp.searchResultLimit, language: Language? = nil,
        typing: Bool = false
    ) throws(AppError) -> SearchBoxAnswer {
        var notes = Notes(words: Phrasebook(language ?? .en))
        guard let places else {
            notes.add(.searchUnavailable(text: text))
            return SearchBoxAnswer(places: [], notes: notes.list)
        }
        var found: [FoundPlace]
        do {
            found = try places.places(
                matching: text, near: near,
                limit: min(max(limit, Self.searchBoxLimits.lowerBound), Self.searchBoxLimits.upperBound),
                names: language,
                typing: typing)
        } catch {
            guard let note = Note.Kind(plusCodeError: error) else {
                throw .engineFailed("searching for '\(text)'", underlying: error)
            }
            notes.add(note)
            return SearchBoxAnswer(places: [], notes: notes.list)
        }
        if found.isEmpty { notes.add(.noMatch(text: text)) }
        if let near {
            let far = { (place: FoundPlace) in
                !Self.isNamedArea(place) && place.position.distance(to: near) > Self.searchRadius
            }
            if !found.isEmpty, found.allSatisfy(far),
                let nearest = found.min(by: { $0.position.distance(to: near) < $1.position.distance(to: near) })
            {
                notes.add(
                    .noMatchNearby(
                        text: text, nearest: nearest.source.map { "\(nearest.name) (\($0))" } ?? nearest.name,
                        metres: nearest.position.distance(to: near)))
                return SearchBoxAnswer(places: [], notes: notes.list)
            }
            found.removeAll(where: far)
        }
        if let match = found.first?.closestMatch { notes.add(.partialMatch(text: text, match: match)) }
        return SearchBoxAnswer(places: found, notes: notes.list)
    }
}

extension Note.Kind {
    /// The note of a search's refusal of a plus code (``SearchError/notAPlusCode(_:_:)``,
    /// ``SearchError/shortPlusCodeUnplaced(_:locality:)``); nil for any other error.
    init?(plusCodeError error: any Error) {
        switch error as? SearchError {
        case .notAPlusCode(let text, let reason): self = .notAPlusCode(text: text, reason: reason)
        case .shortPlusCodeUnplaced(let code, let locality):
            self = .shortPlusCodeUnplaced(code: code, locality: locality)
        default: return nil
        }
    }
}
