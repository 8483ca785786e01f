import GeoCore
import MapData

/// One place a search or a reverse lookup found.
public struct PlaceResult: Sendable, Equatable {
    /// The store's feature id.
    public var id: Int64
    /// The OpenStreetMap element, when the place comes from OpenStreetMap (`n`, `w`, `r` and its id).
    public var osmType: String?
    /// The OpenStreetMap element's id, with ``osmType``.
    public var osmID: Int64?
    /// The name in the asked language where the data has it, else the local name (an address
    /// without a name is named by its street and number).
    public var name: String
    /// The feature's class and kind (`poi`, `amenity=pharmacy`; `place`, `city`).
    public var featureClass: String
    /// The kind within the class (`amenity=pharmacy`, `city`).
    public var kind: String
    /// The address parts the data has: `house_number`, `road`, `postcode`, `city`,
    /// `suburb`, `country`, `country_code`.
    public var address: [String: String]
    /// Where its pin goes.
    public var coordinate: Coordinate
    /// Its extent.
    public var bounds: CoordinateBounds
    /// Metres from the search's centre, when it had one.
    public var distance: Double?
    /// The data set it came from, its credit and licence.
    public var source: String
    /// The credit the source asks for.
    public var attribution: String
    /// The source's licence.
    public var licence: String
    /// How good a match it is (higher is better; comparable within one search).
    public var score: Double
    /// Why it was chosen: "name matches 'Kiasma'", "pharmacy near Kamppi", "closest match: 'Tokyo'".
    public var why: String
    /// When only part of the text was found: that part (`Tokyo` of "Tokyo Tower Annex"), the
    /// place being the closest match; nil when the whole text matches.
    public var closestMatch: String? = nil
    /// The kept tags (opening hours, phone, website, Wikidata, …).
    public var tags: [String: String]
    /// Whether it is open at the search's moment and until when, where its `opening_hours`
    /// can be read.
    public var opening: PlaceOpening? = nil

    /// Its plus code: the 10-digit code of its pin, a cell of about 14 × 14 m (a plus code
    /// found by search is itself, at its own length).
    public var plusCode: PlusCode? { featureClass == "plus_code" ? try? PlusCode(name) : try? PlusCode(coordinate) }

    /// Its plus code as a person writes it in a city: the code without its first four
    /// characters and the city's name (`9GWR+2V Helsinki`), recovered near the city; nil
    /// where the address has no city and the place is not a settlement itself.
    public var compoundPlusCode: String? {
        guard let plusCode else { return nil }
        let settlements: Set<String> = ["city", "town", "village", "suburb", "quarter", "neighbourhood", "hamlet"]
        guard let city = address["city"] ?? (featureClass == "place" && settlements.contains(kind) ? name : nil)
        else { return nil }
        return String(plusCode.code.dropFirst(4)) + " " + city
    }

    /// The address on one line, as a person reads it: `Aleksanterinkatu 52, 00100 Helsinki, Finland`.
    public var addressLine: String {
        let street = [address["road"], address["house_number"]].compactMap { $0 }.joined(separator: " ")
        let city = [address["postcode"], address["city"]].compactMap { $0 }.joined(separator: " ")
        return [street, address["suburb"] ?? "", city, address["country"] ?? ""].filter { !$0.isEmpty }
            .joined(separator: ", ")
    }

    /// The name and address on one line, without repeating a name the address starts with.
    public var displayName: String {
        let line = addressLine
        if line.isEmpty { return name }
        return line.hasPrefix(name) ? line : name + ", " + line
    }
}
