import Foundation
import Testing

@testable import GeoCore

/// The four languages' templates: the same keys and placeholders in each, Hindi in Devanagari,
/// and numbers written as each language writes them.
@Suite struct PhrasebookTests {
    /// Every template of a language's file with its path (`note.no match`, `phrase.turn.name`).
    static func templates(_ book: Phrasebook.Templates) -> [String: String] {
        var all: [String: String] = ["navigation": book.navigation]
        func add(_ section: String, _ values: [String: String]) {
            for (key, value) in values { all["\(section).\(key)"] = value }
        }
        add("direction", book.direction)
        add("modifier", book.modifier)
        add("side", book.side)
        add("unit", book.unit)
        add("voice", book.voice)
        add("role", book.role)
        add("note", book.note)
        add("word", book.word)
        add("app", book.app)
        for (kind, variants) in book.phrase { add("phrase.\(kind)", variants) }
        for (index, ordinal) in book.ordinal.enumerated() { all["ordinal.\(index)"] = ordinal }
        return all
    }

    /// The `{key}`s a template fills.
    static func placeholders(_ template: String) -> Set<String> {
        var keys: Set<String> = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            keys.insert(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return keys
    }

    @Test(arguments: [Language.es, .it, .hi])
    func everyLanguageHasEnglishsKeysAndPlaceholders(language: Language) throws {
        let english = Self.templates(try #require(Phrasebook.decode(Phrasebook.source(.en))))
        let other = Self.templates(try #require(Phrasebook.decode(Phrasebook.source(language))))
        #expect(Set(other.keys) == Set(english.keys), "\(Set(other.keys).symmetricDifference(english.keys))")
        for (key, template) in english {
            #expect(Self.placeholders(other[key] ?? "") == Self.placeholders(template), "\(language) \(key)")
            #expect(other[key]?.isEmpty == false, "\(language) \(key)")
        }
    }

    @Test func hindiHasNoLatinLettersOutsideItsPlaceholders() throws {
        let hindi = Self.templates(try #require(Phrasebook.decode(Phrasebook.source(.hi))))
        for (key, text) in hindi {
            let bare = text.replacingOccurrences(of: #"\{[a-z_]+\}"#, with: "", options: .regularExpression)
            #expect(!bare.unicodeScalars.contains { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }, "\(key)")
        }
    }

    @Test(arguments: [
        (0.0, "0 m"), (4.0, "0 m"), (362.0, "360 m"), (994.0, "990 m"), (996.0, "1 km"), (12_400.0, "12 km"),
        (1_813_499.0, "1,813 km"), (7_822_000.0, "7,822 km"), (20_015_000.0, "20,015 km"),
    ])
    func roundedDistancesInEnglish(metres: Double, text: String) {
        #expect(Phrasebook(.en).roundedDistance(metres) == text)
    }

    /// A limit someone set in metres is said as set, not rounded to 10 m or to none.
    @Test func limitsInMetresAreSaidAsSet() {
        #expect(Phrasebook(.en).limit(metres: 5) == "5 m")
        #expect(Phrasebook(.en).limit(metres: 0.001) == "0.001 m")
        #expect(Phrasebook(.it).limit(metres: -0.0) == "0 m")
        #expect(Phrasebook(.es).limit(metres: 25.5) == "25,5 m")
        #expect(Phrasebook(.hi).limit(metres: 0.5) == "0.5 मीटर")
        #expect(Phrasebook(.en, units: .imperial).limit(metres: 5_000) == "5 km")
    }

    @Test func roundedDistancesInEachLanguageAndUnit() {
        #expect(Phrasebook(.es).roundedDistance(7_822_000) == "7.822 km")
        #expect(Phrasebook(.it).roundedDistance(362) == "360 m")
        #expect(Phrasebook(.hi).roundedDistance(7_822_000) == "7,822 किमी")
        #expect(Phrasebook(.hi).roundedDistance(362) == "360 मीटर")
        #expect(Phrasebook(.en, units: .imperial).roundedDistance(100) == "330 ft")
        #expect(Phrasebook(.en, units: .imperial).roundedDistance(800) == "0.5 mi")
        #expect(Phrasebook(.en, units: .imperial).roundedDistance(16_093) == "10 mi")
        #expect(Phrasebook(.it, units: .imperial).roundedDistance(1_609_344) == "1.000 mi")
    }

    @Test func listsAndNotesAsEachLanguageWritesThem() {
        #expect(Phrasebook(.en).list(["a"]) == "a")
        #expect(Phrasebook(.en).list(["a", "b", "c"]) == "a, b and c")
        #expect(Phrasebook(.es).list(["los peajes", "las autopistas"]) == "los peajes y las autopistas")
        #expect(Phrasebook(.hi).list(["टोल", "राजमार्गों"]) == "टोल और राजमार्गों")
        #expect(
            Phrasebook(.it).note("no match", ["text": "Duomo"])
                == "nessun luogo nei dati della mappa corrisponde a «Duomo»")
        #expect(Phrasebook(.en).note("no such key") == "no such key")
    }

    @Test(arguments: [("es", Language.es), ("es-419", .es), ("it_IT", .it), ("HI", .hi), ("en-GB", .en)])
    func languageTags(tag: String, language: Language) {
        #expect(Language(tag: tag) == language)
    }

    @Test func tagsOfOtherLanguagesAreNone() {
        #expect(Language(tag: "fr") == nil && Language(tag: "") == nil && Language(tag: "-") == nil)
    }
}
