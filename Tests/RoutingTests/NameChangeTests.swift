import Testing

@testable import Routing

/// When a road's new name is said, as OSRM says it, on names and refs of real roads.
@Suite struct NameChangeTests {
    /// (name, ref) before, (name, ref) after, and whether the new name is said.
    static let cases: [((String, String), (String, String), Bool)] = [
        // A numbered road through town under its streets' names: each name is said.
        (("Avenue de France", "D 6098"), ("Avenue Jean Jaurès", "D 6098"), true),
        (("Helsinginkatu", ""), ("Hämeentie", ""), true),
        // The same name, or one name the start of the other: the same road.
        (("Boulevard d'Italie", ""), ("Boulevard d'Italie", ""), false),
        (("Avenue Prince Rainier III", ""), ("Avenue Prince Rainier III Monaco", ""), false),
        // A compass word before or after: the same road.
        (("Main Street", ""), ("N Main Street", ""), false),
        (("Lake Shore Drive", ""), ("Lake Shore Drive North", ""), false),
        // Onto a name from no name and no ref: said.
        (("", ""), ("Boulevard Princesse Charlotte", ""), true),
        // The ref or the name dropped while the other stays: the same road.
        (("Route de la Turbie", "D 2564"), ("Route de la Turbie", ""), false),
        (("Mannerheimintie", ""), ("", ""), false),
        // Name dropped and the ref changing: said.
        (("Route de Laghet", "M 2204 A"), ("", "D 2204 A"), true),
        // A road known by its ref onto one known by its name, and back: said.
        (("", "E 18"), ("Mannerheimintie", ""), true),
        (("Mannerheimintie", ""), ("", "E 18"), true),
        // Unnamed roads: said when the ref changes, not when one ref holds the other.
        (("", "E 18"), ("", "E 75"), true),
        (("", "E 18"), ("", "E 18;E 75"), false),
    ]

    @Test(arguments: cases)
    func aNewNameIsSaidAsOSRMSaysIt(from: (String, String), to: (String, String), said: Bool) {
        let change = NameChange(from: (name: from.0, ref: from.1), to: (name: to.0, ref: to.1))
        #expect(change.isAnnounced == said, "\(from) → \(to)")
    }

    @Test func compassWordsAroundOneNameAreTheSameName() {
        #expect(NameChange.differOnlyByCompassWords("Main Street", "Main Street West"))
        #expect(NameChange.differOnlyByCompassWords("Main Street", "n main street") == false, "case counts in the name")
        #expect(NameChange.differOnlyByCompassWords("Main Street", "Main Avenue") == false)
        #expect(NameChange.differOnlyByCompassWords("", "North"))
        #expect(NameChange.differOnlyByCompassWords("", "Hämeentie") == false)
    }
}
