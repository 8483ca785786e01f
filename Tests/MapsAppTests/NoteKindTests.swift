import Foundation
import GeoCore
import MapsApp
import Testing

/// Notes are typed: every kind renders in every language, and every template is used.
@Suite struct NoteKindTests {
    @Test(arguments: Language.allCases)
    func everyKindOfNoteIsASentenceInEveryLanguage(language: Language) {
        let words = Phrasebook(language)
        let english = Phrasebook(.en)
        for kind in Note.Kind.examples {
            let message = kind.message(words)
            #expect(!message.isEmpty, "\(kind)")
            #expect(!message.contains("{") && !message.contains("}"), "\(kind): \(message)")
            // A template is found: the sentence is not a key (no key has a space after a letter
            // and ends without punctuation the way these do), and it differs by language where
            // the words do.
            if language != .en, kind != .noStreetData(notice: "No street data here") {
                #expect(message != kind.message(english), "\(kind) is not translated into \(language)")
            }
        }
    }

    @Test func everyCodeHasAKindAndEachKindItsCode() {
        #expect(Set(Note.Kind.examples.map(\.code)) == Set(Note.Code.allCases))
        #expect(
            Note(.noMatch(text: "Sushi"), words: Phrasebook(.en))
                == Note(.noMatch, "no place in the map data matches 'Sushi'"))
        #expect(
            Note.Kind.endNotFound(.init(.stop, number: 2), text: "Atlantis").message(Phrasebook(.it))
                == "la tappa 2 «Atlantis» non è nei dati della mappa")
    }

    /// Every note template of the phrasebook is named by the sources, as a whole literal key (no
    /// key is built at run time): a template nothing names is dead, and a test of it proves nothing.
    @Test func everyTemplateIsUsedBySomeSource() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var text = ""
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift", !file.path.contains("/Phrasebook/") else { continue }
            text += try String(contentsOf: file, encoding: .utf8)
        }
        let keys = Phrasebook(.en).templates.note.keys.sorted()
        #expect(keys.count > 50)
        let unused = keys.filter { !text.contains("\"\($0)\"") }
        #expect(unused.isEmpty, "templates nothing names: \(unused)")
    }
}
