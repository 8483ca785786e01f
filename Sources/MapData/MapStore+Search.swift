import Foundation
import GeoCore
import SQLiteKit

/// The store's side of place search: the index's rows with what they hold, the index's words
/// (for typos), and a feature's kept tags.
extension MapStore {
    /// A feature as the search index holds it.
    public struct IndexedFeature: Sendable {
        public var feature: Feature
        /// Its names, category words and address line, as indexed (names and words separated
        /// by U+001F).
        public var names: [String]
        public var categories: [String]
        public var address: String
        /// Its kept tags as stored (a JSON object), read into ``tags`` when asked for.
        public var tagsJSON: String?
        /// Its kept tags (``SearchVocabulary/keptTags(_:)``).
        public var tags: [String: String] { tagsJSON.map(SearchVocabulary.tags(json:)) ?? [:] }
        /// The index's BM25 rank (lower is better).
        public var rank: Double
        /// The source it came from, by ``Source/id``.
        public var source: Int64 { MapStore.sourceID(ofFeature: feature.id) }
    }

    /// The index's rows matching an FTS5 query (built by the caller from quoted words), best
    /// BM25 rank first (names weigh 10, categories 4, the address 6), at most `limit`.
    public func indexed(matching query: String, limit: Int) throws(DataError) -> [IndexedFeature] {
        try self.query("searching the index") {
            try database.cached(
                "SELECT \(Self.indexColumns), \(Self.rankColumn) FROM search_index "
                    + "JOIN feature ON feature.id = search_index.rowid WHERE search_index MATCH ? ORDER BY score LIMIT ?"
            ).map([.text(query), .integer(Int64(limit))]) { row in
                try Self.indexedFeature(from: row)
            }
        }
    }

    /// The index's rows matching an FTS5 query whose boxes meet `bounds`, best BM25 rank first,
    /// at most `limit`: the near half of a search with a centre.
    public func indexed(matching query: String, in bounds: CoordinateBounds, limit: Int) throws(DataError)
        -> [IndexedFeature]
    {
        var found: [IndexedFeature] = []
        try forEachRow(
            meeting: bounds, "searching the index in an area", values: [.text(query), .integer(Int64(limit))]
        ) { condition in
            "SELECT \(Self.indexColumns), \(Self.rankColumn) FROM search_index "
                + "JOIN feature ON feature.id = search_index.rowid JOIN feature_box ON feature_box.id = feature.id "
                + "WHERE \(condition) AND search_index MATCH ? ORDER BY score LIMIT ?"
        } _: { row in
            found.append(try Self.indexedFeature(from: row))
        }
        return found
    }

    /// Every indexed feature of a class (the places, for the address hierarchy), by id.
    public func indexed(ofClass featureClass: FeatureClass) throws(DataError) -> [IndexedFeature] {
        try self.query("reading the \(featureClass.rawValue) features") {
            try database.cached(
                "SELECT \(Self.indexColumns), 0 FROM feature JOIN search_index ON search_index.rowid = feature.id "
                    + "WHERE class = ? ORDER BY feature.id"
            ).map([.text(featureClass.rawValue)]) { row in
                try Self.indexedFeature(from: row)
            }
        }
    }

    /// The gazetteer's countries: name by ISO 3166-1 alpha-2 code.
    public func countries() throws(DataError) -> [String: String] {
        try self.query("reading the countries") {
            var names: [String: String] = [:]
            try database.cached("SELECT name, tags FROM feature WHERE class = 'place' AND kind = 'country'").forEachRow
            {
                row in
                guard let name = row.text(0), let code = row.text(1).map(SearchVocabulary.tags(json:))?["country_code"]
                else { return }
                names[code] = name
            }
            return names
        }
    }

    /// The index rows of features whose boxes meet `bounds` and that have an address or a name,
    /// of some classes (all when empty), at most `limit`.
    public func indexed(in bounds: CoordinateBounds, classes: [FeatureClass] = [], limit: Int) throws(DataError)
        -> [IndexedFeature]
    {
        var found: [IndexedFeature] = []
        let classFilter = classes.isEmpty ? "" : " AND +class IN (\(Self.placeholders(classes.count)))"
        try forEachRow(
            meeting: bounds, "reading the index around a point",
            values: classes.map { .text($0.rawValue) } + [.integer(Int64(limit))]
        ) { condition in
            "SELECT \(Self.indexColumns), 0 FROM feature_box JOIN feature ON feature.id = feature_box.id "
                + "JOIN search_index ON search_index.rowid = feature.id WHERE \(condition)\(classFilter) LIMIT ?"
        } _: { row in
            found.append(try Self.indexedFeature(from: row))
        }
        return found
    }

    /// What ``nearby(_:in:limit:)`` looks for.
    public enum Nearby: Sendable {
        /// Features with a house number (buildings, entrances, shops, address points).
        case addresses
        /// Named roads.
        case streets
    }

    /// Features of a kind near a point, read from the spatial index and the feature rows only
    /// (their address line made from their tags): the fast path of reverse geocoding.
    public func nearby(_ kind: Nearby, in bounds: CoordinateBounds, limit: Int) throws(DataError) -> [IndexedFeature] {
        let filter =
            switch kind {
            case .addresses: "feature.tags LIKE '%\"addr:housenumber\"%'"
            case .streets: "+class = 'road' AND feature.name IS NOT NULL"
            }
        var found: [IndexedFeature] = []
        try forEachRow(meeting: bounds, "reading what is near a point", values: [.integer(Int64(limit))]) {
            condition in
            "SELECT \(Self.featureColumns), feature.tags FROM feature_box JOIN feature ON feature.id = feature_box.id "
                + "WHERE \(condition) AND \(filter) LIMIT ?"
        } _: { row in
            let json = row.text(17)
            let tags = json.map(SearchVocabulary.tags(json:)) ?? [:]
            found.append(
                IndexedFeature(
                    feature: try Self.feature(from: row), names: [], categories: [],
                    address: SearchVocabulary.addressLine(tags.map { ($0.key, $0.value) }), tagsJSON: json, rank: 0))
        }
        return found
    }

    /// The index's distinct words (folded as the index folds them) of `length` characters,
    /// starting with `first`: the candidates for a mistyped word.
    public func indexWords(startingWith first: String, length: ClosedRange<Int>) throws(DataError) -> [String] {
        try self.query("reading the index's words") {
            try database.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_words USING fts5vocab(main, search_index, 'row')")
            let upper = first + "\u{10FFFF}"
            return try database.cached(
                "SELECT term FROM temp.search_words WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?"
            ).map([.text(first), .text(upper), .integer(Int64(length.lowerBound)), .integer(Int64(length.upperBound))])
            {
                $0.text(0) ?? ""
            }
        }
    }

    /// A feature's kept tags.
    public func tags(ofFeature id: Int64) throws(DataError) -> [String: String] {
        try self.query("reading a feature's tags") {
            try database.cached("SELECT tags FROM feature WHERE id = ?").map([.integer(id)]) { row in
                row.text(0).map(SearchVocabulary.tags(json:)) ?? [:]
            }.first ?? [:]
        }
    }

    /// ``featureColumns``, then the index's names, categories and address, and the kept tags:
    /// an index row but its rank.
    private static let indexColumns =
        "\(featureColumns), search_index.names, search_index.categories, search_index.address, feature.tags"

    /// The BM25 rank of a match, as `score`: names weigh 10, categories 4, the address 6.
    private static let rankColumn = "bm25(search_index, 10.0, 4.0, 6.0) AS score"

    /// An index row: ``indexColumns``, then a rank.
    private static func indexedFeature(from row: SQLiteRow) throws -> IndexedFeature {
        IndexedFeature(
            feature: try feature(from: row), names: split(row.text(17)), categories: split(row.text(18)),
            address: row.text(19) ?? "", tagsJSON: row.text(20), rank: row.real(21) ?? 0)
    }

    private static func split(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return text.components(separatedBy: " \u{1F} ")
    }
}
