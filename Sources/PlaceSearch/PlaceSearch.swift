import Foundation
import GeoCore
import MapData

/// What to search for.
public struct SearchQuery: Sendable, Equatable {
    /// The text as a person types it: a name, an address, a category, "category near place".
    public var text: String
    /// The centre to search around (a link's `center`, the viewport's), when there is one.
    public var near: Coordinate?
    /// Results wanted, 1...50; default 10.
    public var limit = 10
    /// The language of the names given back where the data has them; nil (the default) for
    /// the local names.
    public var language: Language?
    /// Read the last word as the beginning of a word (results while typing); default on.
    public var autocomplete = true
    /// The moment opening hours are evaluated at ("open now", each result's status); nil (the
    /// default) for the current time.
    public var moment: Date?

    /// A search for `text`, ranked by distance from `near` when given, at most `limit` results (1 ... ``PlaceSearch/maxLimit``), names in `language` where the data has them.
    public init(_ text: String, near: Coordinate? = nil, limit: Int = 10, language: Language? = nil) {
        self.text = text
        self.near = near
        self.limit = limit
        self.language = language
    }
}

/// Why a query cannot be searched.
public enum SearchError: Error, Equatable, CustomStringConvertible {
    case emptyQuery
    case queryTooLong(Int)
    case limitOutOfRange(Int)
    /// The query starts with a word written as a plus code (its characters and a `+`) that is
    /// not one: the word and why.
    case notAPlusCode(String, PlusCode.Failure)
    /// A short plus code with nothing to recover it near: no words naming a place and no
    /// search centre (`locality` nil), or words naming no place the data has.
    case shortPlusCodeUnplaced(String, locality: String?)

    public var description: String {
        switch self {
        case .emptyQuery: "the query has no word to search for"
        case .queryTooLong(let count):
            "the query is \(count) characters long; at most \(QueryText.maxLength) are searched"
        case .limitOutOfRange(let limit): "the limit must be 1 to \(PlaceSearch.maxLimit), not \(limit)"
        case .notAPlusCode(let word, let failure): "'\(word)' is not a plus code: \(failure)"
        case .shortPlusCodeUnplaced(let code, nil):
            "'\(code)' is a short plus code: add the town it is near ('\(code) Helsinki') or search near a point"
        case .shortPlusCodeUnplaced(let code, let locality?):
            "the short plus code '\(code)' is recovered near a place, and '\(locality)' is not in the map data"
        }
    }
}

/// Forward and reverse geocoding over a store's search index.
///
/// Forward: every word of the text is looked up in the index (names in every language,
/// category words in six languages, address lines), in its full form when abbreviated, with
/// the index's nearest words when it is mistyped (one edit for words of five to seven letters,
/// two from eight, a dropped letter in words of three and four), spaced as the names space
/// them when two words are one or one is two, and as a prefix when it is the last one
/// (results while typing). A place
/// matches when it holds every word, in any of its names, its category or its address. It ranks
/// by how well the text matches (a whole name, its beginning, a house number on its street),
/// how important it is (population, place, Wikidata) and how near the centre it lies; a text
/// none of whose places matches whole is read as an address from its broadest comma-separated
/// part to its narrowest; a house number the street lacks is placed between its neighbours of
/// the same parity. "cafe near Kamppi" finds Kamppi, then cafés around it.
///
/// Reverse: the nearest address within 100 m, else the nearest named street within 150 m,
/// else the nearest place, each with its street, district, city and country.
public final class PlaceSearch {
    /// The store searched.
    public let store: MapStore
    /// The most results one search gives: 50.
    public static let maxLimit = 50
    /// Candidates read from the index for one search, in all and around the centre.
    static let candidates = 300
    /// How far around the centre the near half of a search reads: 10 km.
    static let nearRadius = 10_000.0
    /// How near two places of one name are the same place: 150 m.
    static let samePlaceRadius = 150.0
    /// How near two stretches of one street name are the same street: 2 km (a street is mapped
    /// as many ways).
    static let sameStreetRadius = 2_000.0
    /// How far a narrower part of an address may lie from the broader one: 100 km.
    static let partRadius = 100_000.0

    private var sourceTable: [Int64: MapStore.Source]?
    private var countryNames: [String: String]?
    private var placeTable: [(place: MapStore.IndexedFeature, at: Coordinate)]?
    private var placeLookups = 0

    /// A search over `store`'s features.
    public init(store: MapStore) { self.store = store }

    // MARK: Forward

    /// The places matching `query`, best first.
    ///
    /// - Throws: ``SearchError`` for a query that cannot be searched, `DataError` when the store fails.
    public func search(_ query: SearchQuery) throws -> [PlaceResult] {
        try Self.check(query)
        if let place = try plusCode(query) { return [place] }
        let moment = query.moment ?? Date()
        let (filter, rest) = OpenFilter.read(query.text)
        var query = query
        query.text = rest
        return try found(query, open: filter, at: moment).map { result in
            var result = result
            result.opening = opening(result.tags, at: result.coordinate, moment)
            return result
        }
    }

    /// The places matching `query` (its text without "open now"), those open as `filter` asks
    /// at `moment` only when it asks.
    private func found(_ query: SearchQuery, open filter: OpenFilter?, at moment: Date) throws -> [PlaceResult] {
        guard let text = QueryText(query.text) else { throw SearchError.emptyQuery }
        let isOpen = { (match: Match) in filter.map { self.isOpen(match, $0, moment) } ?? true }
        if let placeWords = text.near {
            // "cafe near Kamppi": the place first, then the category around it.
            guard let anchor = try ranked(placeWords, near: query.near, autocomplete: false).first(where: \.complete)
            else { return [] }
            return try ranked(text.words, near: anchor.coordinate, autocomplete: false, categoryNear: true)
                .filter { $0.complete && isOpen($0) }.prefix(query.limit).map { match in
                    var result = try result(match, language: query.language)
                    result.why = "\(text.words.joined(separator: " ")) near \(anchor.name)"
                    return result
                }
        }
        if let within = try withinRegion(text, query: query) {
            return try within.filter(isOpen).prefix(query.limit).map { try result($0, language: query.language) }
        }
        let matches = try ranked(text.words, near: query.near, autocomplete: query.autocomplete)
        var complete = matches.filter(\.complete)
        if complete.isEmpty, let respaced = try respaced(text.words) {
            // "Mannerheim intie", "Kampinkeskus": the words as the names space them.
            complete = try ranked(respaced, near: query.near, autocomplete: query.autocomplete).filter(\.complete)
        }
        if !complete.isEmpty || filter != nil {
            return try complete.filter(isOpen).prefix(query.limit).map { try result($0, language: query.language) }
        }
        if text.parts.count >= 2 {
            let walked = try addressWalk(text, query: query)
            if !walked.isEmpty { return walked }
        }
        // A house number between two the street has: placed between them, as an
        // interpolation way places it.
        if let interpolated = try interpolated(text.words, among: matches, language: query.language) {
            return [interpolated]
        }
        // All words but one: the street of a house number it does not have, say.
        return try matches.prefix(query.limit).map { match in
            var result = try result(match, language: query.language)
            result.why = "closest match: '\(match.name)'"
            result.closestMatch = match.name
            return result
        }
    }

    /// The most two numbered addresses of one street may lie apart to place a number between
    /// them: 500 m.
    static let interpolationSpan = 500.0

    /// "Street 25" where the street has 21 and 29 (of the same parity, the nearest below and
    /// above, within ``interpolationSpan``): a place at the proportional point between them.
    func interpolated(_ words: [String], among matches: [Match], language: Language?) throws -> PlaceResult? {
        let numbers = words.filter(QueryText.isNumber)
        guard numbers.count == 1, let wanted = Int(numbers[0].prefix { $0.isNumber }) else { return nil }
        let streetWords = Set(words.filter { !QueryText.isNumber($0) })
        guard !streetWords.isEmpty else { return nil }
        // Addresses on that street with a number of the same parity: every address line
        // holding the street's words.
        let onStreet = try store.indexed(
            matching: IndexQuery(streetWords.sorted().map { [IndexQuery.Term($0)] }, columns: .address), limit: 2000
        ).compactMap { feature in
            feature.feature.geometry.anchor.map {
                Match(feature: feature, coordinate: $0, name: "", score: 0, complete: false, distance: nil, why: "")
            }
        }
        let numbered = (matches + onStreet).compactMap { match -> (number: Int, match: Match, street: String)? in
            let tags = match.feature.tags
            guard let street = tags["addr:street"] else { return nil }
            let named = QueryText.words(street)
            guard
                Set(named) == streetWords || streetWords.allSatisfy({ word in named.contains { $0.hasPrefix(word) } }),
                let house = tags["addr:housenumber"], let number = Int(house.prefix { $0.isNumber }),
                number % 2 == wanted % 2
            else { return nil }
            return (number, match, street)
        }
        guard let below = numbered.filter({ $0.number < wanted }).max(by: { $0.number < $1.number }),
            let above = numbered.filter({ $0.number > wanted }).min(by: { $0.number < $1.number }),
            below.match.coordinate.distance(to: above.match.coordinate) <= Self.interpolationSpan
        else { return nil }
        let fraction = Double(wanted - below.number) / Double(above.number - below.number)
        let from = below.match.coordinate
        let to = above.match.coordinate
        let point = Coordinate(
            latitude: from.latitude + (to.latitude - from.latitude) * fraction,
            longitude: from.longitude + (to.longitude - from.longitude) * fraction)
        var result = try self.result(below.match, language: language)
        result.name = "\(below.street) \(wanted)"
        result.coordinate = point
        result.bounds = CoordinateBounds(point, point)
        result.address["house_number"] = "\(wanted)"
        result.osmType = nil
        result.osmID = nil
        result.tags = [:]
        result.featureClass = "address"
        result.kind = "interpolated"
        result.why = "between \(below.street) \(below.number) and \(above.number)"
        return result
    }

    static func check(_ query: SearchQuery) throws(SearchError) {
        guard query.text.count <= QueryText.maxLength else { throw .queryTooLong(query.text.count) }
        guard (1...maxLimit).contains(query.limit) else { throw .limitOutOfRange(query.limit) }
    }

    /// The words spaced as the index's names space them, when they are not: two words that
    /// are one (`mannerheim intie`, or the other way round, `esplanadi pohjois`), or one that
    /// is two (`kampinkeskus`, each half at least three letters); nil when no such spacing
    /// makes known words.
    func respaced(_ words: [String]) throws -> [String]? {
        func isKnown(_ word: String) throws -> Bool {
            try !store.indexWords(startingWith: word, length: word.count...word.count, limit: 1).isEmpty
        }
        for index in words.indices.dropLast() where !QueryText.isNumber(words[index]) {
            for joined in [words[index] + words[index + 1], words[index + 1] + words[index]] where try isKnown(joined) {
                return Array(words[..<index]) + [joined] + Array(words[(index + 2)...])
            }
        }
        for (index, word) in words.enumerated() where word.count >= 6 && !QueryText.isNumber(word) {
            guard try !isKnown(word) else { continue }
            let letters = Array(word)
            // The longest first half first: "kampinkeskus" is "kampin keskus" before "kamp inkeskus".
            for cut in stride(from: letters.count - 3, through: 3, by: -1) {
                let first = String(letters[..<cut])
                let second = String(letters[cut...])
                if try isKnown(first), try isKnown(second) {
                    return Array(words[..<index]) + [first, second] + Array(words[(index + 1)...])
                }
            }
        }
        return nil
    }

    /// A text whose last comma-separated part names a country or a US state, by any of its
    /// names or codes ("Portland, OR", "Valencia, España", "Delhi, भारत", "Paris, TX"): the
    /// places of the rest of the text within it (by their country code and first-level
    /// region), best first; nil when the last part names no such region or nothing of the
    /// rest lies in it (the text is then read as before).
    private func withinRegion(_ text: QueryText, query: SearchQuery) throws -> [Match]? {
        guard text.parts.count >= 2, let last = text.parts.last, !last.isEmpty else { return nil }
        let regions = try ranked(last, near: nil, autocomplete: false).filter { match in
            let kind = match.feature.feature.kind
            return match.complete && (kind == "country" || kind == "state")
                && match.feature.names.contains { QueryText.words($0) == last }
        }
        guard !regions.isEmpty else { return nil }
        let areas = regions.compactMap { region -> (country: String, admin1: String?)? in
            guard let country = region.feature.tags["country_code"] else { return nil }
            return (country, region.feature.feature.kind == "state" ? region.feature.tags["admin1"] : nil)
        }
        let rest = Array(text.parts.dropLast().joined())
        guard !rest.isEmpty else { return nil }
        let within = try ranked(rest, near: query.near, autocomplete: false).filter { match in
            let tags = match.feature.tags
            guard match.complete, let country = tags["country_code"] ?? tags["addr:country"] else { return false }
            return areas.contains { $0.country == country && ($0.admin1 == nil || $0.admin1 == tags["admin1"]) }
        }
        return within.isEmpty ? nil : within
    }

    /// A text none of whose places matches whole, read from its broadest part to its narrowest:
    /// each part must lie within ``partRadius`` of the broader one found; the narrowest found
    /// is the answer, a partial match.
    private func addressWalk(_ text: QueryText, query: SearchQuery) throws -> [PlaceResult] {
        var broader: Match?
        var narrowest: (part: String, matches: [Match])?
        for (part, written) in zip(text.parts, text.partTexts).reversed()
        where part.contains(where: { $0.count >= 3 && !QueryText.isNumber($0) }) {
            // A country's point is its capital: it ranks nothing and bounds nothing.
            let anchor = broader?.feature.feature.kind == "country" ? nil : broader?.coordinate
            var found = try ranked(part, near: anchor ?? query.near, autocomplete: false).filter(\.complete)
            if found.isEmpty {
                let street = part.filter { !QueryText.isNumber($0) }
                if street.count < part.count, !street.isEmpty {
                    found = try ranked(street, near: anchor ?? query.near, autocomplete: false).filter(\.complete)
                }
            }
            if let anchor { found = found.filter { $0.coordinate.distance(to: anchor) <= Self.partRadius } }
            guard let best = found.first else { continue }
            narrowest = (written, found)
            broader = best
        }
        guard let narrowest else { return [] }
        return try narrowest.matches.prefix(query.limit).map { match in
            var result = try result(match, language: query.language)
            result.why = "closest match: '\(narrowest.part)' (\(result.name))"
            result.closestMatch = narrowest.part
            return result
        }
    }

    /// A candidate and how it matches.
    struct Match {
        var feature: MapStore.IndexedFeature
        var coordinate: Coordinate
        var name: String
        var score: Double
        /// Every word of the text matched.
        var complete: Bool
        var distance: Double?
        var why: String
    }

    /// The index's places for `words`, scored, best first, the same place once.
    ///
    /// A keystroke's usual answer comes first, in one reading of the index (one statement on
    /// PostGIS): the words as written (and in full when abbreviated), every one required; a lone
    /// word (not a number) in names and category words before the address lines, as places
    /// called so come before every address of a town of that name. Only when that finds no
    /// place matching every word are the index's nearest words of a mistyped word asked for,
    /// and any word is enough: the partial matches (a street without the house number asked)
    /// then come after the complete ones.
    func ranked(_ words: [String], near: Coordinate?, autocomplete: Bool, categoryNear: Bool = false) throws
        -> [Match]
    {
        guard !words.isEmpty else { return [] }
        let forms = words.map(QueryText.forms)
        var readings: [IndexQuery.Columns] = [.all]
        if words.count == 1 && !QueryText.isNumber(words[0]) { readings.insert(.names, at: 0) }
        for columns in readings {
            let query = IndexQuery(
                terms(words, forms, autocomplete: autocomplete, everyWord: true), columns: columns)
            let complete = try scored(
                query, words: words, alternatives: forms, near: near, autocomplete: autocomplete,
                categoryNear: categoryNear
            ).filter(\.complete)
            if !complete.isEmpty { return complete }
        }
        let alternatives = try words.enumerated().map { index, word in
            try self.alternatives(of: word, prefix: autocomplete && index == words.count - 1)
        }
        let any = IndexQuery([Array(terms(words, alternatives, autocomplete: autocomplete, everyWord: false).joined())])
        return try scored(
            any, words: words, alternatives: alternatives, near: near, autocomplete: autocomplete,
            categoryNear: categoryNear)
    }

    /// Each word's forms as index terms, a group a word: the last word's own form a prefix
    /// when `autocomplete` (never a number; a lone letter only after other words, when every
    /// word is required: "Boulevard d").
    private func terms(_ words: [String], _ forms: [[String]], autocomplete: Bool, everyWord: Bool)
        -> [[IndexQuery.Term]]
    {
        forms.enumerated().map { index, forms in
            forms.map { form in
                let isPrefix =
                    autocomplete && index == words.count - 1 && form == words[index]
                    && (form.count >= 2 || (everyWord && words.count > 1)) && !QueryText.isNumber(form)
                return IndexQuery.Term(form, isPrefix: isPrefix)
            }
        }
    }

    /// The index's rows for `query` (the best ``candidates`` of all, and of those within
    /// ``nearRadius`` of `near`), scored against `words`, best first, the same place once.
    private func scored(
        _ query: IndexQuery, words: [String], alternatives: [[String]], near: Coordinate?, autocomplete: Bool,
        categoryNear: Bool
    ) throws -> [Match] {
        let around = near.map { box(around: $0, metres: Self.nearRadius) }
        let rows = try store.indexedRows(matching: query, limit: Self.candidates, alsoIn: around) {
            self.readCandidates[$0] != nil
        }
        let scored = rows.compactMap { row in
            candidate(row).flatMap { candidate in
                score(
                    candidate, words: words, alternatives: alternatives, near: near, autocomplete: autocomplete,
                    categoryNear: categoryNear)
            }
        }.sorted { $0.score > $1.score }
        var kept: [Match] = []
        for match in scored {
            let repeated = kept.contains {
                $0.name == match.name
                    && $0.coordinate.distance(to: match.coordinate)
                        <= (Self.isStreet($0) && Self.isStreet(match) ? Self.sameStreetRadius : Self.samePlaceRadius)
            }
            if !repeated { kept.append(match) }
        }
        return kept
    }

    /// A row of the index as it is scored: the feature, its anchor, and the words of its
    /// names, category words and address, folded once.
    struct Candidate {
        var feature: MapStore.IndexedFeature
        var anchor: Coordinate
        /// Its name, or a nameless address's street and number.
        var name: String?
        /// The words of its own name (the `name` tag, the gazetteer's name), of all its names.
        var ownNameWords: [String]
        var nameWords: [[String]]
        var categoryWords: [String]
        var addressWords: [String]
        /// What its importance adds to a match's score: population (a city of a million adds
        /// about 0.86), a place (0.25 and its ``PlaceSearch/renown(_:)``), Wikidata (0.2).
        var importance: Double
    }

    /// The candidates read so far by id, up to ``readCandidatesKept``: search as you type reads
    /// the same places keystroke after keystroke (the rows of `hel` are among those of `he`),
    /// and a server's searches the same central places; their rows are then not read again.
    private var readCandidates: [Int64: Candidate] = [:]

    /// The most candidates kept read: 20,000 (a few tens of megabytes); past it they are
    /// all let go and read again as asked.
    static let readCandidatesKept = 20_000

    /// The candidate of an index row: read from `row`, or kept from an earlier reading; nil
    /// for a feature without a place.
    private func candidate(_ row: (id: Int64, feature: MapStore.IndexedFeature?)) -> Candidate? {
        if let kept = readCandidates[row.id] { return kept }
        guard let feature = row.feature, let anchor = feature.feature.geometry.anchor else { return nil }
        var importance = log10(Double(max(feature.feature.population ?? 0, 0)) + 1) / 7
        if feature.feature.featureClass == .place { importance += 0.25 + Self.renown(feature) }
        if feature.hasTag("wikidata") { importance += 0.2 }
        let candidate = Candidate(
            feature: feature, anchor: anchor, name: feature.feature.name ?? Self.streetAndNumber(feature),
            ownNameWords: QueryText.words(feature.feature.name ?? ""), nameWords: feature.names.map(QueryText.words),
            categoryWords: feature.categories.flatMap(SearchVocabulary.indexWords(ofCategoryWord:)),
            addressWords: QueryText.words(feature.address), importance: importance)
        if readCandidates.count >= Self.readCandidatesKept { readCandidates.removeAll(keepingCapacity: true) }
        readCandidates[row.id] = candidate
        return candidate
    }

    static func isStreet(_ match: Match) -> Bool { match.feature.feature.featureClass == .road }

    /// A nameless address's name: its street and house number (`Christopher Street 53`).
    static func streetAndNumber(_ feature: MapStore.IndexedFeature) -> String? {
        guard !feature.address.isEmpty else { return nil }
        let tags = feature.tags
        let street = [tags["addr:street"] ?? tags["addr:place"], tags["addr:housenumber"]].compactMap { $0 }
        return street.isEmpty ? feature.address : street.joined(separator: " ")
    }

    /// The forms a word is looked up in: itself, its full forms when abbreviated, and the
    /// index's words within one edit (five to seven letters) or two (eight and more) when the
    /// index does not hold it (nor, for the word being typed, a word it begins).
    func alternatives(of word: String, prefix: Bool) throws -> [String] {
        var forms = QueryText.forms(of: word)
        let letters = word.count
        guard letters >= 3, !QueryText.isNumber(word), let first = word.first else { return forms }
        // A known word, or the beginning of one being typed, is not a typo: asked first, in one
        // lookup of one word, before the candidates (thousands of words) are read.
        let known = prefix ? letters...99 : letters...letters
        if try !store.indexWords(startingWith: word, length: known, limit: 1).isEmpty { return forms }
        guard letters >= 5 else {
            // A short word with a letter dropped ("Savy" for "Savoy"): any other edit of so
            // few letters makes another word.
            let longer = try store.indexWords(
                startingWith: String(first), length: (letters + 1)...(letters + 1), near: word, edits: 1)
            return forms + longer.filter { Self.dropsOneLetter($0, to: word) }.sorted().prefix(5)
        }
        let limit = letters >= 8 ? 2 : 1
        let candidates = try store.indexWords(
            startingWith: String(first), length: (letters - limit)...(letters + limit), near: word, edits: limit)
        let near = candidates.map { ($0, editDistance(word, $0, limit: limit)) }.filter { $0.1 <= limit }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(5).map(\.0)
        forms += near
        return forms
    }

    /// True when `word` is `longer` without one of its letters.
    static func dropsOneLetter(_ longer: String, to word: String) -> Bool {
        let longer = Array(longer)
        let word = Array(word)
        guard longer.count == word.count + 1 else { return false }
        let common = zip(longer, word).prefix { $0 == $1 }.count
        return longer[(common + 1)...].elementsEqual(word[common...])
    }

    /// How `candidate` matches `words`, or nil when it matches too little.
    private func score(
        _ candidate: Candidate, words: [String], alternatives: [[String]], near: Coordinate?, autocomplete: Bool,
        categoryNear: Bool
    ) -> Match? {
        let coordinate = candidate.anchor
        let nameWords = candidate.nameWords
        let categoryWords = candidate.categoryWords
        let addressWords = candidate.addressWords
        var inName = 0
        var inCategory = 0
        var inAddress = 0
        var unmatched: [String] = []
        // The word being typed, read as the beginning of a word.
        let typed = autocomplete && !QueryText.isNumber(words[words.count - 1]) ? words.count - 1 : -1
        // Words compared byte by byte, as the index compares them (both folded alike).
        func holds(_ index: Int, _ word: String) -> Bool {
            alternatives[index].contains { $0.utf8.elementsEqual(word.utf8) }
                || (index == typed && word.utf8.starts(with: words[index].utf8))
        }
        func holds(_ index: Int, _ list: [String]) -> Bool { list.contains { holds(index, $0) } }
        for index in words.indices {
            if nameWords.contains(where: { holds(index, $0) }) {
                inName += 1
            } else if holds(index, addressWords) {
                inAddress += 1
            } else if holds(index, categoryWords) {
                inCategory += 1
            } else {
                unmatched.append(words[index])
            }
        }
        let matched = words.count - unmatched.count
        let complete = unmatched.isEmpty
        // Short of a complete match, only the house number may be missing (the street has no such number).
        guard complete || (matched > 0 && inName + inAddress > 0 && unmatched.allSatisfy(QueryText.isNumber)) else {
            return nil
        }
        var score = 2.0 * Double(matched) / Double(words.count) + (complete ? 1 : 0)
        var why = "name matches '\(words.joined(separator: " "))'"
        // The whole of a name, or its beginning (in any of the word's forms).
        func wordsMatch(_ nameWords: [String]) -> Bool {
            nameWords.count == words.count && words.indices.allSatisfy { holds($0, nameWords[$0]) }
        }
        func beginsWith(_ nameWords: [String]) -> Bool {
            nameWords.count > words.count && words.indices.allSatisfy { holds($0, nameWords[$0]) }
        }
        if nameWords.contains(where: wordsMatch) {
            score += 2
            // A place called so, word for word, before one that is also called so (Victoria in
            // Canada before Hong Kong, one of whose other names it is; Stockmann the department
            // store, locally "Stokka", as much as the bus stop named after it).
            if candidate.ownNameWords == words { score += 0.5 }
        } else if nameWords.contains(where: beginsWith) {
            score += 1
        } else if !complete {
            // The street itself, when its house number is missing.
            let named = words.indices.filter { !QueryText.isNumber(words[$0]) }
            if nameWords.contains(where: { name in
                name.count == named.count && zip(named, name).allSatisfy { holds($0, $1) }
            }) {
                score += 2
            }
        }
        // A house number on its street.
        if inAddress > 0 {
            let numbers = words.filter(QueryText.isNumber)
            if !numbers.isEmpty && numbers.allSatisfy(addressWords.contains) { score += 2.5 }
            why = "address matches '\(words.joined(separator: " "))'"
        }
        if inCategory > 0 && inName == 0 {
            why = "a \(words.joined(separator: " ")) place"
            score += categoryNear ? 1 : 0.5
        }
        score += candidate.importance
        var distance: Double?
        if let near {
            let metres = coordinate.distance(to: near)
            distance = metres
            // Nearer first: 1 km costs 0.15, 100 km 1, 10,000 km 2; categories count distance more.
            let weight = inCategory > 0 && inName == 0 ? 1.0 : 0.5
            score -= weight * log10(1 + metres / 1000)
        }
        let name = candidate.name ?? words.joined(separator: " ")
        return Match(
            feature: candidate.feature, coordinate: coordinate, name: name, score: score, complete: complete,
            distance: distance, why: why)
    }

    /// How well known a place is beyond its size, for names many places share ("Cambridge",
    /// "Valencia"): how many names the world has for it (the gazetteer's alternate names, or
    /// OpenStreetMap's `name:xx` tags), 72 names adding about 0.47, and a national capital
    /// 0.05 more. The weights put the place most people mean first on a table of shared
    /// names (Valencia in Spain, Victoria in Canada, Cambridge in England).
    static func renown(_ candidate: MapStore.IndexedFeature) -> Double {
        let tags = candidate.tags
        let names = tags["name_count"].flatMap(Int.init) ?? tags.keys.count { $0.hasPrefix("name:") }
        let capital = tags["capital"] == "yes" || tags["capital"] == "2" ? 0.05 : 0
        return log10(Double(names) + 1) / 4 + capital
    }

    // MARK: Results

    /// The sources by id, read once.
    private func sources() throws -> [Int64: MapStore.Source] {
        if let sourceTable { return sourceTable }
        let table = Dictionary(try store.sources(counting: false).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        sourceTable = table
        return table
    }

    /// The places (the gazetteer's cities and countries, OpenStreetMap's places) within
    /// `radius` metres of `point`: read from the spatial index for the first lookups, then from
    /// every place read once into memory (a one-off lookup stays quick; a server's many
    /// lookups skip the index).
    func places(near point: Coordinate, within radius: Double) throws -> [MapStore.IndexedFeature] {
        placeLookups += 1
        if placeTable == nil && placeLookups < Self.lookupsBeforeLoadingPlaces {
            return try store.indexed(in: box(around: point, metres: radius), classes: [.place], limit: 10_000).filter {
                ($0.feature.geometry.anchor?.distance(to: point) ?? .infinity) <= radius
            }
        }
        if placeTable == nil {
            placeTable = try store.indexed(ofClass: .place).compactMap { place in
                place.feature.geometry.anchor.map { (place, $0) }
            }
        }
        return (placeTable ?? []).filter { $0.at.distance(to: point) <= radius }.map(\.place)
    }

    /// Reverse lookups answered from the spatial index before every place is read into memory.
    static let lookupsBeforeLoadingPlaces = 4

    /// Country names by code, read once.
    func countries() throws -> [String: String] {
        if let countryNames { return countryNames }
        let names = try store.countries()
        countryNames = names
        return names
    }

    func result(_ match: Match, language: Language?) throws -> PlaceResult {
        let indexed = match.feature
        let feature = indexed.feature
        let tags = indexed.tags
        let source = try sources()[indexed.source]
        var address: [String: String] = [:]
        let keys = [
            ("addr:housenumber", "house_number"), ("addr:street", "road"), ("addr:place", "road"),
            ("addr:postcode", "postcode"), ("addr:city", "city"), ("addr:suburb", "suburb"),
            ("addr:country", "country_code"), ("country_code", "country_code"),
        ]
        for (tag, part) in keys { if let value = tags[tag], address[part] == nil { address[part] = value } }
        if let code = address["country_code"] { address["country"] = try countries()[code.uppercased()] }
        let box = feature.geometry.boundingBox
        return PlaceResult(
            id: feature.id, osmType: feature.osmType?.code, osmID: feature.osmID,
            name: language.flatMap { tags["name:\($0.rawValue)"] } ?? match.name,
            featureClass: feature.featureClass.rawValue,
            kind: feature.kind, address: address, coordinate: match.coordinate,
            bounds: CoordinateBounds(
                southWest: Coordinate(latitude: box.minLatitude, longitude: box.minLongitude),
                northEast: Coordinate(latitude: box.maxLatitude, longitude: box.maxLongitude)),
            distance: match.distance, source: source?.name ?? "", attribution: source?.attribution ?? "",
            licence: source?.licence ?? "", score: (match.score * 1000).rounded() / 1000, why: match.why,
            tags: tags)
    }
}
