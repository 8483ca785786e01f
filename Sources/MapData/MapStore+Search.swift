import Foundation
import GeoCore

/// The store's side of place search: the index's rows with what they hold, the index's words
/// (for typos), and a feature's kept tags.
extension MapStore {
    /// A feature as the search index holds it.
    public struct IndexedFeature: Sendable {
        /// The feature itself.
        public var feature: Feature
        /// Its names, category words and address line, as indexed (names and words separated
        /// by U+001F).
        public var names: [String]
        /// Its category words as indexed.
        public var categories: [String]
        /// Its address line as indexed.
        public var address: String
        /// Its kept tags as stored (a JSON object), read into ``tags`` when asked for.
        public var tagsJSON: String?
        /// Its kept tags (``SearchVocabulary/keptTags(_:)``).
        public var tags: [String: String] { tagsJSON.map(SearchVocabulary.tags(json:)) ?? [:] }
        /// The source it came from, by ``Source/id``.
        public var source: Int64 { MapStore.sourceID(ofFeature: feature.id) }
    }

    /// The index's rows matching `query`, best first (names weigh most, then the address, then
    /// the category words: BM25 on SQLite, `ts_rank` on PostGIS), at most `limit`.
    public func indexed(matching query: IndexQuery, limit: Int) throws(DataError) -> [IndexedFeature] {
        guard let match = matchClause(query) else { return [] }
        return try self.query("searching the index") {
            try database.map(
                "SELECT \(Self.indexColumns) FROM search_index JOIN feature ON feature.id = search_index.rowid "
                    + "WHERE \(match.condition) ORDER BY \(match.order) LIMIT ?",
                match.values + [.integer(Int64(limit))]
            ) { row in
                try Self.indexedFeature(from: row)
            }
        }
    }

    /// The index's rows matching `query` whose boxes meet `bounds`, best first, at most `limit`:
    /// the near half of a search with a centre.
    public func indexed(matching query: IndexQuery, in bounds: CoordinateBounds, limit: Int) throws(DataError)
        -> [IndexedFeature]
    {
        guard let match = matchClause(query) else { return [] }
        var found: [IndexedFeature] = []
        let engine = self.engine
        try forEachRow(
            meeting: bounds, "searching the index in an area", values: match.values + [.integer(Int64(limit))]
        ) { condition in
            // PostGIS: the words lead and the box is a filter (`IS TRUE` keeps the GiST index out
            // of the plan). Its estimate of a box in a dense area can be off a thousandfold, and a
            // plan that walks every feature in the box costs 16 ms where the words' 1.5.
            let box = engine == .postgis ? "(\(condition)) IS TRUE" : condition
            return "SELECT \(Self.indexColumns) FROM search_index "
                + "JOIN feature ON feature.id = search_index.rowid JOIN feature_box ON feature_box.id = feature.id "
                + "WHERE \(box) AND \(match.condition) ORDER BY \(match.order) LIMIT ?"
        } _: { row in
            found.append(try Self.indexedFeature(from: row))
        }
        return found
    }

    /// The engine's test for index rows matching `query`, its order (best first) and their
    /// values, in order; nil when the query has no words.
    private func matchClause(_ query: IndexQuery) -> (condition: String, order: String, values: [StoreValue])? {
        switch engine {
        case .sqlite:
            guard let text = query.fts5 else { return nil }
            return ("search_index MATCH ?", "bm25(search_index, 10.0, 4.0, 6.0)", [.text(text)])
        case .postgis:
            guard let text = query.tsquery else { return nil }
            return (
                "search_index.document @@ ?::tsquery",
                "ts_rank('{0.1, 0.4, 0.6, 1.0}', search_index.document, ?::tsquery) DESC, feature.id",
                [.text(text), .text(text)]
            )
        }
    }

    /// Every indexed feature of a class (the places, for the address hierarchy), by id.
    public func indexed(ofClass featureClass: FeatureClass) throws(DataError) -> [IndexedFeature] {
        try self.query("reading the \(featureClass.rawValue) features") {
            try database.map(
                "SELECT \(Self.indexColumns) FROM feature JOIN search_index ON search_index.rowid = feature.id "
                    + "WHERE class = ? ORDER BY feature.id", [.text(featureClass.rawValue)]
            ) { row in
                try Self.indexedFeature(from: row)
            }
        }
    }

    /// The gazetteer's countries: name by ISO 3166-1 alpha-2 code.
    public func countries() throws(DataError) -> [String: String] {
        try self.query("reading the countries") {
            var names: [String: String] = [:]
            try database.forEachRow("SELECT name, tags FROM feature WHERE class = 'place' AND kind = 'country'", []) {
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
        let classFilter = classes.isEmpty ? "" : " AND \(classColumn) IN (\(Self.placeholders(classes.count)))"
        try forEachRow(
            meeting: bounds, "reading the index around a point",
            values: classes.map { .text($0.rawValue) } + [.integer(Int64(limit))]
        ) { condition in
            "SELECT \(Self.indexColumns) FROM feature_box JOIN feature ON feature.id = feature_box.id "
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
            case .streets: "\(classColumn) = 'road' AND feature.name IS NOT NULL"
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
                    address: SearchVocabulary.addressLine(tags.map { ($0.key, $0.value) }), tagsJSON: json))
        }
        return found
    }

    /// The index's distinct words (folded as the index folds them) of `length` characters,
    /// starting with `first`, at most `limit`: the candidates for a mistyped word.
    ///
    /// `near`, with `edits`, is a hint: the engine may leave out words further from `near` than
    /// twice `edits` plain edits (so never one within `edits` edits counting a transposition as
    /// one), when it can tell in the database. PostGIS does (`fuzzystrmatch`), so a mistyped
    /// word's candidates are not all sent over the network; SQLite, in process, returns them all.
    /// The caller measures the distance it wants either way.
    public func indexWords(
        startingWith first: String, length: ClosedRange<Int>, near: String? = nil, edits: Int = 0, limit: Int? = nil
    ) throws(DataError) -> [String] {
        let upper = first + "\u{10FFFF}"
        var values: [StoreValue] = [
            .text(first), .text(upper), .integer(Int64(length.lowerBound)), .integer(Int64(length.upperBound)),
        ]
        let limitClause = limit.map { " LIMIT \(max(0, $0))" } ?? ""
        return try self.query("reading the index's words") {
            switch engine {
            case .sqlite:
                try database.execute(
                    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_words USING fts5vocab(main, search_index, 'row')")
                return try database.map(
                    "SELECT term FROM temp.search_words WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?"
                        + limitClause, values
                ) { $0.text(0) ?? "" }
            case .postgis:
                var nearClause = ""
                if let near {
                    nearClause = " AND levenshtein_less_equal(word, ?, ?) <= ?"
                    values += [.text(near), .integer(Int64(2 * edits)), .integer(Int64(2 * edits))]
                }
                return try database.map(
                    "SELECT DISTINCT word FROM search_word WHERE word >= ? COLLATE \"C\" AND word < ? COLLATE \"C\" "
                        + "AND length(word) BETWEEN ? AND ?" + nearClause + limitClause, values
                ) { $0.text(0) ?? "" }
            }
        }
    }

    /// A feature's kept tags.
    public func tags(ofFeature id: Int64) throws(DataError) -> [String: String] {
        try self.query("reading a feature's tags") {
            try database.map("SELECT tags FROM feature WHERE id = ?", [.integer(id)]) { row in
                row.text(0).map(SearchVocabulary.tags(json:)) ?? [:]
            }.first ?? [:]
        }
    }

    /// ``featureColumns``, then the index's names, categories and address, and the kept tags.
    private static let indexColumns =
        "\(featureColumns), search_index.names, search_index.categories, search_index.address, feature.tags"

    /// An index row: ``indexColumns``.
    private static func indexedFeature(from row: StoreRow) throws -> IndexedFeature {
        IndexedFeature(
            feature: try feature(from: row), names: split(row.text(17)), categories: split(row.text(18)),
            address: row.text(19) ?? "", tagsJSON: row.text(20))
    }

    private static func split(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return text.components(separatedBy: " \u{1F} ")
    }
}

/// What the search index is asked for: words (folded as the index folds them,
/// ``SearchVocabulary/words(_:)``), each whole or as the beginning of a word, any or all of them.
public struct IndexQuery: Sendable, Equatable {
    /// One word of a query.
    public struct Term: Sendable, Equatable {
        /// The word, folded as the index folds words.
        public var word: String
        /// True when words beginning with ``word`` match too (the word being typed).
        public var isPrefix: Bool

        /// A term for `word`, a prefix when `isPrefix`.
        public init(_ word: String, isPrefix: Bool = false) {
            self.word = word
            self.isPrefix = isPrefix
        }
    }

    /// The words, in the query's order.
    public var terms: [Term]
    /// True when a row must hold every term; false when any one is enough.
    public var matchesAll: Bool
    /// True when only the address line is searched (not names nor category words).
    public var inAddressOnly: Bool

    /// A query for `terms`, all of them when `matchesAll`, in addresses only when `inAddressOnly`.
    public init(terms: [Term], matchesAll: Bool, inAddressOnly: Bool = false) {
        self.terms = terms
        self.matchesAll = matchesAll
        self.inAddressOnly = inAddressOnly
    }

    /// Plain text, every word required (punctuation and operators are searched for, never
    /// interpreted).
    public init(allWordsOf text: String) {
        self.init(terms: SearchVocabulary.words(text).map { Term($0) }, matchesAll: true)
    }

    /// The query in FTS5's syntax: each term quoted (a prefix with ` *`), joined by spaces
    /// (all) or `OR` (any); nil without terms.
    var fts5: String? {
        let parts = terms.filter { !$0.word.isEmpty }.map { term in
            "\"" + term.word.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (term.isPrefix ? " *" : "")
        }
        guard !parts.isEmpty else { return nil }
        let joined = parts.joined(separator: matchesAll ? " " : " OR ")
        return inAddressOnly ? "address : (\(joined))" : joined
    }

    /// The query as a PostgreSQL `tsquery`: each term's words (a term the index reads as
    /// several words is a phrase, `<->`; a prefix `:*`; the address's weight `:B` when only it
    /// is searched), joined by `&` or `|`; nil without terms.
    var tsquery: String? {
        let parts: [String] = terms.compactMap { term in
            let words = SearchVocabulary.words(term.word)
            guard !words.isEmpty else { return nil }
            let lexemes = words.enumerated().map { index, word in
                "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
                    + (term.isPrefix && index == words.count - 1 ? ":*" : "") + (inAddressOnly ? ":B" : "")
            }
            return lexemes.count == 1 ? lexemes[0] : "(" + lexemes.joined(separator: " <-> ") + ")"
        }
        return parts.isEmpty ? nil : parts.joined(separator: matchesAll ? " & " : " | ")
    }
}
