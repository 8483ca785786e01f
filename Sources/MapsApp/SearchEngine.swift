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
    func reverse(_ coordinate: Coordinate, language: String?) throws -> PlaceResult?
}

extension PlaceSearch {
    /// A link's text looked up whole (no results while typing), near its centre, as
    /// ``PlaceFinding`` asks (one connection, one thread: the app's engines take a search of
    /// their own per call, ``PooledPlaceSearch``).
    public func places(matching text: String, near: Coordinate?, limit: Int, names: Language?) throws
        -> [FoundPlace]
    {
        guard QueryText.isSearchable(text) else { return [] }
        var query = SearchQuery(
            text, near: near, limit: min(max(limit, 1), PlaceSearch.maxLimit), language: names?.rawValue)
        query.autocomplete = false
        return try search(query).map { result in
            FoundPlace(
                name: result.name, position: result.coordinate, kind: result.kind, why: result.why,
                closestMatch: result.closestMatch, distance: result.distance, source: result.source,
                address: result.addressLine.isEmpty ? nil : result.addressLine)
        }
    }
}

extension MapsApp {
    /// The places matching `query`, best first, from the app's geocoder.
    ///
    /// - Throws: ``AppError/invalidOption(_:message:)`` for a query that cannot be searched
    ///   (empty, too long, a limit out of range, an unknown language), `engineMissing` without
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
    public func reverse(_ coordinate: Coordinate, language: String? = nil) throws(AppError) -> PlaceResult? {
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
        case .emptyQuery, .queryTooLong: "query"
        case .limitOutOfRange: "limit"
        case .unknownLanguage: "lang"
        }
    }
}
