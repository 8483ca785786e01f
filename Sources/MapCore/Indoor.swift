/// A floor of a building with indoor data.
public struct IndoorLevel: Sendable, Hashable, Codable {
    /// The level's name ("Ground floor").
    public var name: String
    /// The floor picker's label ("G"); nil uses the name.
    public var shortName: String?

    /// A level named `name`, labelled `shortName` in the floor picker when given.
    public init(name: String, shortName: String? = nil) {
        self.name = name
        self.shortName = shortName
    }
}

/// A building with indoor floor plans.
public struct IndoorBuilding: Sendable, Hashable, Codable {
    /// A stable id from the map data.
    public var id: String
    /// Levels from top to bottom, as the floor picker lists them.
    public var levels: [IndoorLevel]
    /// The level shown when the building comes into focus.
    public var defaultLevelIndex: Int
    /// True when the building is entirely underground (its level may then be nil).
    public var isUnderground: Bool

    /// A building with `levels` from top to bottom, `defaultLevelIndex` shown first (it must be one of them).
    public init(id: String, levels: [IndoorLevel], defaultLevelIndex: Int = 0, isUnderground: Bool = false) {
        precondition(levels.indices.contains(defaultLevelIndex) || levels.isEmpty, "the default level must exist")
        self.id = id
        self.levels = levels
        self.defaultLevelIndex = defaultLevelIndex
        self.isUnderground = isUnderground
    }

    /// The level shown on focus, nil for a building without levels.
    public var defaultLevel: IndoorLevel? { levels.isEmpty ? nil : levels[defaultLevelIndex] }
}

extension MapView {
    /// The level shown, nil when no building is active. Setting a level the active building
    /// does not have is ignored; nil is accepted only for an underground building.
    public var activeLevel: IndoorLevel? {
        get { storedActiveLevel }
        set {
            guard let building = activeBuilding else { return }
            if let level = newValue {
                guard building.levels.contains(level) else { return }
            } else if !building.isUnderground {
                return
            }
            storedActiveLevel = newValue
            onEvent?(.didChangeActiveLevel(newValue))
        }
    }

    /// Recomputes the active building from the building in focus, the indoor switch, the map
    /// type and the zoom; on a change the building event comes first, with the level already
    /// set to the building's default, then the level event.
    func updateActiveBuilding() {
        let building = isIndoorEnabled && content.indoor ? indoorBuildingInFocus : nil
        guard building != activeBuilding else { return }
        activeBuilding = building
        storedActiveLevel = building?.defaultLevel
        onEvent?(.didChangeActiveBuilding(building))
        onEvent?(.didChangeActiveLevel(storedActiveLevel))
    }
}
