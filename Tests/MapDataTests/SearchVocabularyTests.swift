import MapData
import Testing

@Suite struct SearchVocabularyTests {
    @Test func keptTagsRoundTripThroughTheirJSON() throws {
        let tags: [(key: String, value: String)] = [
            ("name", "Café \"Ekberg\""), ("website", "https://example.org/a\\b"), ("note", "two\nlines\t\u{1}"),
            ("name:hi", "कोलंबस सर्कल"), ("name", "Café Ekberg"),
        ]
        let json = try #require(SearchVocabulary.json(tags))
        #expect(json.hasPrefix("{\"name\":\"Café Ekberg\",\"name:hi\":"), "keys sorted, the last value of a key kept")
        #expect(
            SearchVocabulary.tags(json: json) == [
                "name": "Café Ekberg", "website": "https://example.org/a\\b", "note": "two\nlines\t\u{1}",
                "name:hi": "कोलंबस सर्कल",
            ])
        #expect(SearchVocabulary.json([]) == nil)
    }

    @Test func onlyTheTagsAUserExpectsToSeeAreKept() {
        let kept = SearchVocabulary.keptTags([
            ("highway", "primary"), ("name", "Mannerheimintie"), ("name:sv", "Mannerheimvägen"), ("addr:street", "X"),
            ("opening_hours", "24/7"), ("lanes", "4"), ("contact:phone", "+358"), ("wikidata", "Q1"),
        ])
        #expect(kept.map(\.key) == ["name", "name:sv", "addr:street", "opening_hours", "contact:phone", "wikidata"])
    }

    @Test func addressLines() {
        #expect(
            SearchVocabulary.addressLine([
                ("addr:street", "Aleksanterinkatu"), ("addr:housenumber", "52"), ("addr:postcode", "00100"),
                ("addr:city", "Helsinki"),
            ]) == "Aleksanterinkatu 52 00100 Helsinki")
        #expect(SearchVocabulary.addressLine([("addr:street", "Aleksanterinkatu")]) == "", "no number, no address")
        #expect(
            SearchVocabulary.addressLine([("addr:place", "Suomenlinna"), ("addr:housenumber", "C 74")])
                == "Suomenlinna C 74")
    }

    @Test func categoryWordsInEveryLanguage() {
        let pharmacy = SearchVocabulary.categoryWords(kind: "amenity=pharmacy", tags: [])
        for word in ["pharmacy", "farmacia", "apteekki", "apotek", "फार्मेसी"] { #expect(pharmacy.contains(word)) }
        #expect(Set(pharmacy).count == pharmacy.count, "each word once")
        let pizzeria = SearchVocabulary.categoryWords(kind: "amenity=restaurant", tags: [("cuisine", "pizza;italian")])
        #expect(pizzeria.contains("pizza") && pizzeria.contains("ristorante"))
        #expect(SearchVocabulary.categoryWords(kind: "residential", tags: []).isEmpty)
        // Every category has words in the six languages.
        for category in SearchVocabulary.categories {
            #expect(Set(category.words.keys) == ["en", "es", "it", "hi", "fi", "sv"], "\(category.kinds)")
            #expect(category.words.values.allSatisfy { !$0.isEmpty }, "\(category.kinds)")
        }
    }
}
