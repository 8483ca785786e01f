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
        /// True when its kept tags have `key` (`"wikidata"`), asked of the stored JSON without
        /// reading it.
        public func hasTag(_ key: String) -> Bool {
            guard let tagsJSON else { return false }
            let needle = Array("\"\(key)\":".utf8)
            var json = tagsJSON
            return json.withUTF8 { bytes in
                guard bytes.count >= needle.count else { return false }
                return (0...(bytes.count - needle.count)).contains { start in
                    bytes[start] == needle[0] && needle.indices.allSatisfy { bytes[start + $0] == needle[$0] }
                }
            }
        }
        /// The source it came from, by ``Source/id``.
        public var source: Int64 { MapStore.sourceID(ofFeature: feature.id) }
    }

    /// The index's rows matching `query`, best first (names weigh most, then the address, then
    /// the category words: BM25 on SQLite, `ts_rank` on PostGIS), at most `limit`; with `area`,
    /// then the best `limit` of those whose boxes meet it that are not among the first (the near
    /// half of a search with a centre).
    public func indexed(matching query: IndexQuery, limit: Int, alsoIn area: CoordinateBounds? = nil)
        throws(DataError) -> [IndexedFeature]
    {
        try indexedRows(matching: query, limit: limit, alsoIn: area, skipping: { _ in false }).compactMap(\.feature)
    }

    /// ``indexed(matching:limit:alsoIn:)`` by id, the rows of the ids `skipping` says the
    /// caller holds left unread (nil; their ids kept in their place).
    ///
    /// One statement on PostGIS (a keystroke is one round trip). On SQLite the ids come from
    /// the index alone and the rows of the chosen ones after (a row read for its rank alone
    /// costs as much as one kept); with an area, every row matching, unranked, when at most
    /// twice `limit` do (ranking them and finding those in the area would cost more than the
    /// caller's reading them all), and the area is read only when the first reading stopped at
    /// `limit`.
    public func indexedRows(
        matching query: IndexQuery, limit: Int, alsoIn area: CoordinateBounds? = nil, skipping: (Int64) -> Bool
    ) throws(DataError) -> [(id: Int64, feature: IndexedFeature?)] {
        guard let match = matchClause(query) else { return [] }
        let halves = area?.antimeridianHalves ?? []
        return try self.query("searching the index") {
            switch engine {
            case .sqlite: try indexedOnSQLite(match, limit: limit, alsoIn: halves, skipping: skipping)
            case .postgis: try indexedOnPostGIS(match, limit: limit, alsoIn: halves, skipping: skipping)
            }
        }
    }

    /// The BM25 weights of the SQLite index's columns: names, category words, address.
    private static let bm25 = "bm25(search_index, 10.0, 4.0, 6.0)"

    /// ``indexedRows(matching:limit:alsoIn:skipping:)`` on SQLite.
    private func indexedOnSQLite(
        _ match: MatchClause, limit: Int, alsoIn halves: [CoordinateBounds], skipping: (Int64) -> Bool
    ) throws -> [(id: Int64, feature: IndexedFeature?)] {
        // With an area, when at most twice `limit` rows match, all of them: ranking them and
        // finding those in the area would cost more than reading them all.
        var ids: [Int64] = []
        if !halves.isEmpty {
            ids = try database.map(
                "SELECT rowid FROM search_index WHERE \(match.condition) LIMIT ?",
                match.values + [.integer(Int64(2 * limit + 1))]
            ) { $0.integer(0) ?? 0 }
        }
        if halves.isEmpty || ids.count > 2 * limit {
            ids = try database.map(
                "SELECT rowid FROM search_index WHERE \(match.condition) ORDER BY \(Self.bm25) LIMIT ?",
                match.values + [.integer(Int64(limit))]
            ) { $0.integer(0) ?? 0 }
            var chosen = Set(ids)
            for half in halves where ids.count >= limit {
                let (condition, boxValues) = boxCondition(half)
                let inArea = try database.map(
                    "SELECT search_index.rowid FROM search_index JOIN feature_box ON feature_box.id = search_index.rowid "
                        + "WHERE \(condition) AND \(match.condition) ORDER BY \(Self.bm25) LIMIT ?",
                    boxValues + match.values + [.integer(Int64(limit))]
                ) { $0.integer(0) ?? 0 }
                for id in inArea where chosen.insert(id).inserted { ids.append(id) }
            }
        }
        let unread = ids.filter { !skipping($0) }
        var byID: [Int64: IndexedFeature] = [:]
        if !unread.isEmpty {
            try database.forEachRow(
                "SELECT \(Self.indexColumns) FROM feature JOIN search_index ON search_index.rowid = feature.id "
                    + "WHERE feature.id IN (SELECT value FROM json_each(?))",
                [.text("[" + unread.map(String.init).joined(separator: ",") + "]")]
            ) { row in
                let feature = try Self.indexedFeature(from: row)
                byID[feature.feature.id] = feature
            }
        }
        // A row gone between the two statements (an update) is left out.
        return ids.compactMap { id in skipping(id) ? (id, nil) : byID[id].map { (id, $0) } }
    }

    /// ``indexedRows(matching:limit:alsoIn:skipping:)`` on PostGIS, in one statement: each
    /// reading numbered by `part` and kept in its order of rank.
    ///
    /// In an area the words lead and the box is a filter (`IS TRUE` keeps the GiST index out of
    /// the plan): PostgreSQL's estimate of a box in a dense area can be off a thousandfold, and
    /// a plan that walks every feature in the box costs 16 ms where the words' 1.5.
    private func indexedOnPostGIS(
        _ match: MatchClause, limit: Int, alsoIn halves: [CoordinateBounds], skipping: (Int64) -> Bool
    ) throws -> [(id: Int64, feature: IndexedFeature?)] {
        let rank = "ts_rank('{0.1, 0.4, 0.6, 1.0}', search_index.document, ?::tsquery) AS rank"
        var parts = [
            (
                sql:
                    "SELECT \(Self.indexColumns), \(rank) FROM search_index JOIN feature ON feature.id = search_index.rowid "
                    + "WHERE \(match.condition) ORDER BY rank DESC, feature.id LIMIT ?",
                values: match.values + match.values + [.integer(Int64(limit))]
            )
        ]
        for half in halves {
            let (condition, boxValues) = boxCondition(half)
            parts.append(
                (
                    "SELECT \(Self.indexColumns), \(rank) FROM search_index "
                        + "JOIN feature ON feature.id = search_index.rowid JOIN feature_box ON feature_box.id = feature.id "
                        + "WHERE (\(condition)) IS TRUE AND \(match.condition) ORDER BY rank DESC, feature.id LIMIT ?",
                    match.values + boxValues + match.values + [.integer(Int64(limit))]
                ))
        }
        let sql =
            parts.enumerated().map { index, part in
                "(SELECT *, \(index) AS part FROM (\(part.sql)) AS reading\(index))"
            }.joined(separator: " UNION ALL ") + " ORDER BY part, rank DESC, 1"
        var found: [(id: Int64, feature: IndexedFeature?)] = []
        var seen: Set<Int64> = []
        try database.forEachRow(sql, parts.flatMap(\.values)) { row in
            guard let id = row.integer(0), seen.insert(id).inserted else { return }
            found.append((id, skipping(id) ? nil : try Self.indexedFeature(from: row)))
        }
        return found
    }

    /// The engine's test for index rows matching `query` and its values; nil when the query
    /// has no words.
    private func matchClause(_ query: IndexQuery) -> MatchClause? {
        switch engine {
        case .sqlite:
            query.fts5.map { MatchClause(condition: "search_index MATCH ?", values: [.text($0)]) }
        case .postgis:
            query.tsquery.map { MatchClause(condition: "search_index.document @@ ?::tsquery", values: [.text($0)]) }
        }
    }

    /// ``matchClause(_:)``'s parts.
    private struct MatchClause {
        var condition: String
        var values: [StoreValue]
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

    /// The parts of an index column joined by ` U+001F ` (`split("a \u{1F} b")` is `["a", "b"]`),
    /// read byte by byte: a search reads hundreds of rows per keystroke.
    static func split(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        let bytes = Array(text.utf8)
        var parts: [String] = []
        var start = 0
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0x20, bytes[index + 1] == 0x1F, bytes[index + 2] == 0x20 {
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        parts.append(String(decoding: bytes[start...], as: UTF8.self))
        return parts
    }
}

/// What the search index is asked for: words (folded as the index folds them,
/// ``SearchVocabulary/words(_:)``), each whole or as the beginning of a word, in groups of which
/// a row must hold every one (each group by any of its words), in some of the index's columns.
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

    /// The columns of the index a query reads.
    public enum Columns: Sendable, Equatable {
        /// Names, category words and the address line.
        case all
        /// Names and category words (a place called or kind of what is typed, not every
        /// address of the town it names).
        case names
        /// The address line only.
        case address
    }

    /// The groups of terms: a row matches when it holds a term of every group (a word of the
    /// query in any of its forms, say); a group without terms is left out.
    public var groups: [[Term]]
    /// The columns read; default all.
    public var columns: Columns

    /// A query for `groups` (every group, each by any of its terms) in `columns`.
    public init(_ groups: [[Term]], columns: Columns = .all) {
        self.groups = groups
        self.columns = columns
    }

    /// Plain text, every word required (punctuation and operators are searched for, never
    /// interpreted).
    public init(allWordsOf text: String) {
        self.init(SearchVocabulary.words(text).map { [Term($0)] })
    }

    /// The query in FTS5's syntax: each term quoted (a prefix with ` *`), a group's terms
    /// joined by `OR` in parentheses, the groups by `AND`, under a column filter unless every
    /// column is read; nil without terms.
    var fts5: String? {
        let groups = groups.map { group in
            group.filter { !$0.word.isEmpty }.map { term in
                "\"" + term.word.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (term.isPrefix ? " *" : "")
            }
        }.filter { !$0.isEmpty }
        guard !groups.isEmpty else { return nil }
        let expression = groups.map { "(" + $0.joined(separator: " OR ") + ")" }.joined(separator: " AND ")
        switch columns {
        case .all: return expression
        case .names: return "{names categories} : (\(expression))"
        case .address: return "address : (\(expression))"
        }
    }

    /// The query as a PostgreSQL `tsquery`: each term's words (a term the index reads as
    /// several words is a phrase, `<->`; a prefix `:*`; the columns' weights, names `A`, the
    /// address `B`, category words `C`, unless every column is read), a group's terms joined by
    /// `|`, the groups by `&`; nil without terms.
    var tsquery: String? {
        let weights =
            switch columns {
            case .all: ""
            case .names: "AC"
            case .address: "B"
            }
        let groups: [String] = groups.compactMap { group in
            let terms: [String] = group.compactMap { term in
                let words = SearchVocabulary.words(term.word)
                guard !words.isEmpty else { return nil }
                let lexemes = words.enumerated().map { index, word in
                    let marks = (term.isPrefix && index == words.count - 1 ? "*" : "") + weights
                    return "'"
                        + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''")
                        + "'" + (marks.isEmpty ? "" : ":" + marks)
                }
                return lexemes.count == 1 ? lexemes[0] : "(" + lexemes.joined(separator: " <-> ") + ")"
            }
            return terms.isEmpty ? nil : "(" + terms.joined(separator: " | ") + ")"
        }
        return groups.isEmpty ? nil : groups.joined(separator: " & ")
    }
}
