import Foundation
import Testing

@testable import MapData

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

    @Test func storedTagsAreReadAsFoundationReadsThem() throws {
        let objects = [
            #"{"name":"Caf\u00e9 \"Ekberg\"","note":"a\/b\\c\n\t\r\b\f"}"#,
            #"{"emoji":"\ud83d\ude00 ok","hi":"कोलंबस सर्कल","empty":""}"#, "{}",
            #"{ "spaced" : "value" }"#, #"{"number":5}"#, #"{"broken":"\ud83d"}"#, #"{"open":"#, "[]", "",
            #"{"a":"b"}x"#, #"{"a":"b",}"#,
        ]
        for json in objects {
            let foundation =
                (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: String] ?? [:]
            #expect(SearchVocabulary.tags(json: json) == foundation, "\(json)")
        }
        #expect(SearchVocabulary.tags(json: #"{"emoji":"\ud83d\ude00"}"#) == ["emoji": "😀"])
    }

    @Test func latinTextIsReadAsCharacterByCharacter() {
        let texts = [
            "Töölönlahti", "Pohjoisesplanadi 2–4", "Caffè Lattè, Piazza San Marco", "Straße 11 B", "Ærø/Øresund",
            "Łódź, ǅemal", "İstanbul", "Mannerheimintie\r\n5", "Œuvre ½ ²³ ª º", "año\u{00A0}nuevo",
        ]
        for text in texts {
            #expect(SearchVocabulary.words(text) == SearchVocabulary.wordsByCharacter(text), "\(text)")
        }
        // Every Latin scalar, in words of a few, with the ASCII between them.
        let scalars = (0x20..<0x0250).compactMap(Unicode.Scalar.init)
        for start in stride(from: 0, to: scalars.count, by: 5) {
            let text = String(String.UnicodeScalarView(scalars[start..<min(start + 7, scalars.count)])) + " x"
            #expect(
                SearchVocabulary.words(text) == SearchVocabulary.wordsByCharacter(text), "\(Array(text.unicodeScalars))"
            )
        }
    }

    @Test func everyScriptIsReadAsCharacterByCharacter() {
        let texts = [
            "Стокманн Хельсинки", "헬싱키 대성당", "赫尔辛基主教座堂", "ヘルシンキ大聖堂", "Καθεδρικός Ελσίνκι",
            "كاتدرائية هلسنكي", "קתדרלת הלסינקי", "हेलसिंकी कैथेड्रल", "มหาวิหารเฮลซิงกิ ำ", "ﾍﾙｼﾝｷﾞ", "Ⅻ ½ ١٢٣ ४५",
            "Café ẞtraße İzmir", "🇫🇮 Suomi 👍🏽 x‍y", "e\u{301}cole", "Ǆ ǅ ǆ ﬁ ﬀ",
        ]
        for text in texts {
            #expect(SearchVocabulary.words(text) == SearchVocabulary.wordsByCharacter(text), "\(text)")
        }
        // Every scalar the table reads (to U+33FF), then every seventh of the rest of the Basic
        // Multilingual Plane, a few at a time, between words.
        let scalars = (Array(0x250..<0x3400) + Array(stride(from: 0x3400, to: 0xFFFF, by: 7))).compactMap(
            Unicode.Scalar.init)
        for start in stride(from: 0, to: scalars.count, by: 3) {
            let text = "a" + String(String.UnicodeScalarView(scalars[start..<min(start + 4, scalars.count)])) + "b c"
            #expect(
                SearchVocabulary.words(text) == SearchVocabulary.wordsByCharacter(text), "\(Array(text.unicodeScalars))"
            )
        }
    }
}
