import Foundation

/// Whether going from one road onto another changes the road's name enough to be said ("Continue
/// onto …", a `new name` step), as OSRM decides it, so that our steps say a new name where an
/// OSRM client expects one:
///
/// - onto a road with a name or ref from one with neither: said;
/// - the same name, one name the start of the other ("Via Roma" → "Via Roma Nord"), or names
///   differing only by a compass word before or after their common part ("Main Street" →
///   "N Main Street"): the same road, unless the refs change too (neither ref empty, and neither
///   within the other);
/// - a named road onto an unnamed one: the same road while the refs do not change;
/// - a road known by its ref alone onto one known by its name alone, and the other way: said;
/// - two unnamed roads whose refs change: said.
///
/// A road keeping its ref under a new name (a numbered road through towns) says the new name:
/// the name is what the driver reads on the signs.
struct NameChange {
    /// The road's `name` and `ref` before and after ("" when untagged).
    let from: (name: String, ref: String)
    let to: (name: String, ref: String)

    init(from: RoadGraph.WayInfo, to: RoadGraph.WayInfo) {
        self.from = (from.name ?? "", from.ref ?? "")
        self.to = (to.name ?? "", to.ref ?? "")
    }

    init(from: (name: String, ref: String), to: (name: String, ref: String)) {
        self.from = from
        self.to = to
    }

    /// Words that may stand before or after a name without making it another road's: compass
    /// points as signs abbreviate them (compared lower-cased).
    static let compassWords: Set<String> = [
        "n", "ne", "e", "se", "s", "sw", "w", "nw", "north", "south", "west", "east", "nor", "sou", "we", "ea",
    ]

    /// Whether two roads are one road by name: each has a name or a ref, and going from one to
    /// the other says no new name (OSRM's "same name", by which a road goes on or continues).
    static func isSameRoad(_ a: RoadGraph.WayInfo, _ b: RoadGraph.WayInfo) -> Bool {
        hasName(a) && hasName(b) && !NameChange(from: a, to: b).isAnnounced
    }

    /// Whether a way is known by a name or a ref.
    static func hasName(_ way: RoadGraph.WayInfo) -> Bool { way.name != nil || way.ref != nil }

    /// Whether the new name is said.
    var isAnnounced: Bool {
        if from == to { return false }
        let (nameA, refA, nameB, refB) = (from.name, from.ref, to.name, to.ref)
        if nameA.isEmpty && refA.isEmpty { return !(nameB.isEmpty && refB.isEmpty) }
        let onlyCompassDiffers = Self.differOnlyByCompassWords(nameA, nameB)
        // `hasPrefix("")` holds: a name against no name counts as the same name here.
        let sameName = nameA.hasPrefix(nameB) || nameB.hasPrefix(nameA) || onlyCompassDiffers
        let refKept = refA.isEmpty || refB.isEmpty || refA.contains(refB) || refB.contains(refA)
        let nameDropped = !nameA.isEmpty && nameB.isEmpty
        let sameRoad = (sameName && refKept) || (nameDropped && refKept) || onlyCompassDiffers
        let refForName =
            (nameA.isEmpty && !refA.isEmpty && !nameB.isEmpty && refB.isEmpty)
            || (!nameA.isEmpty && refA.isEmpty && nameB.isEmpty && !refB.isEmpty)
            || (nameA.isEmpty && nameB.isEmpty && !refKept)
        return !sameRoad || refForName
    }

    /// Whether two names are one name with compass words around it: what is left of each
    /// beside their longest common run of characters (trimmed, lower-cased) is empty or a
    /// ``compassWords`` word, before and after.
    static func differOnlyByCompassWords(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.unicodeScalars), Array(b.unicodeScalars))
        var start = 0
        var length = 0
        if !x.isEmpty && !y.isEmpty {
            var previous = [Int](repeating: 0, count: y.count)
            var current = previous
            for i in x.indices {
                for j in y.indices {
                    current[j] = x[i] == y[j] ? (j == 0 ? 1 : previous[j - 1] + 1) : 0
                    if current[j] > length {
                        length = current[j]
                        start = i + 1 - length
                    }
                }
                swap(&previous, &current)
            }
        }
        func isCompassOrEmpty(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
            let text = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespaces).lowercased()
            return text.isEmpty || compassWords.contains(text)
        }
        guard length > 0 else { return isCompassOrEmpty(x[...]) && isCompassOrEmpty(y[...]) }
        let common = x[start..<start + length]
        /// Where the common run first lies in a name.
        func firstRun(in z: [Unicode.Scalar]) -> Int? {
            (0...(z.count - length)).first { z[$0..<$0 + length] == common }
        }
        guard let inA = firstRun(in: x), let inB = firstRun(in: y) else { return false }
        return isCompassOrEmpty(x[..<inA]) && isCompassOrEmpty(x[(inA + length)...])
            && isCompassOrEmpty(y[..<inB]) && isCompassOrEmpty(y[(inB + length)...])
    }
}
