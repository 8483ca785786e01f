import Foundation
import PostgresKit

/// What the search index holds of a feature besides its names: the words of its category in
/// English, Spanish, Italian, Hindi and the languages of the places we hold (Finnish, Swedish),
/// its address as one line, and the tags a user expects to see, kept with the feature.
///
/// The category words are written into the index with each feature, so "farmacia",
/// "apteekki" and "फार्मेसी" find a pharmacy as "pharmacy" does, and "pizza" a restaurant
/// with `cuisine=pizza`.
public enum SearchVocabulary {
    /// One category: the feature kinds it covers and its words in each language.
    public struct Category: Sendable {
        /// Kinds as the store writes them: `amenity=pharmacy` for points of interest, `station`
        /// for transit, `park` for parks, `cuisine=pizza` for a cuisine tag.
        public var kinds: [String]
        /// Words by language code (`en`, `es`, `it`, `hi`, `fi`, `sv`).
        public var words: [String: [String]]
    }

    /// The categories, each with its words in every language (a documented subset of OSM's
    /// tagging: the places people search for by kind).
    public static let categories: [Category] = [
        category(
            ["amenity=pharmacy", "healthcare=pharmacy", "shop=chemist"], en: ["pharmacy", "chemist", "drugstore"],
            es: ["farmacia", "droguería"], it: ["farmacia"], hi: ["फार्मेसी", "दवाखाना", "दवा की दुकान"],
            fi: ["apteekki"], sv: ["apotek"]),
        category(
            ["amenity=cafe", "cuisine=coffee_shop"], en: ["cafe", "café", "coffee", "coffee shop"],
            es: ["cafetería", "café"], it: ["caffè", "bar", "caffetteria"], hi: ["कैफ़े", "कैफे", "कॉफ़ी"],
            fi: ["kahvila"], sv: ["kafé", "café", "kafe"]),
        category(
            ["amenity=restaurant"], en: ["restaurant", "food"], es: ["restaurante", "comida"],
            it: ["ristorante", "trattoria"], hi: ["रेस्टोरेंट", "रेस्तरां", "भोजनालय"], fi: ["ravintola"],
            sv: ["restaurang"]),
        category(
            ["amenity=fast_food"], en: ["fast food"], es: ["comida rápida"], it: ["fast food"], hi: ["फ़ास्ट फ़ूड"],
            fi: ["pikaruoka"], sv: ["snabbmat"]),
        category(
            ["cuisine=pizza"], en: ["pizza", "pizzeria"], es: ["pizza", "pizzería"], it: ["pizza", "pizzeria"],
            hi: ["पिज़्ज़ा", "पिज्जा"], fi: ["pizza", "pizzeria"], sv: ["pizza", "pizzeria"]),
        category(
            ["cuisine=sushi"], en: ["sushi"], es: ["sushi"], it: ["sushi"], hi: ["सुशी"], fi: ["sushi"], sv: ["sushi"]),
        category(
            ["cuisine=burger"], en: ["burger", "hamburger"], es: ["hamburguesa"], it: ["hamburger"], hi: ["बर्गर"],
            fi: ["hampurilainen"], sv: ["hamburgare"]),
        category(
            ["cuisine=kebab"], en: ["kebab"], es: ["kebab"], it: ["kebab"], hi: ["कबाब"], fi: ["kebab"], sv: ["kebab"]),
        category(
            ["cuisine=indian"], en: ["indian"], es: ["indio", "india"], it: ["indiano"], hi: ["भारतीय"],
            fi: ["intialainen"], sv: ["indisk"]),
        category(
            ["amenity=ice_cream", "cuisine=ice_cream"], en: ["ice cream", "dessert"],
            es: ["helado", "heladería", "postre"],
            it: ["gelato", "gelateria", "dolce"], hi: ["आइसक्रीम", "मिठाई"], fi: ["jäätelö"], sv: ["glass"]),
        category(
            ["amenity=bar", "amenity=pub", "amenity=biergarten"], en: ["bar", "pub"], es: ["bar", "pub"],
            it: ["bar", "pub"], hi: ["बार", "पब"], fi: ["baari", "pubi"], sv: ["bar", "pub"]),
        category(
            ["amenity=bank"], en: ["bank"], es: ["banco"], it: ["banca"], hi: ["बैंक"], fi: ["pankki"], sv: ["bank"]),
        category(
            ["amenity=atm"], en: ["atm", "cash machine"], es: ["cajero"], it: ["bancomat"], hi: ["एटीएम"],
            fi: ["pankkiautomaatti", "otto"], sv: ["bankomat", "uttagsautomat"]),
        category(
            ["amenity=hospital", "healthcare=hospital"], en: ["hospital"], es: ["hospital"], it: ["ospedale"],
            hi: ["अस्पताल"], fi: ["sairaala"], sv: ["sjukhus"]),
        category(
            ["amenity=clinic", "amenity=doctors", "healthcare=doctor", "healthcare=clinic"],
            en: ["doctor", "clinic"], es: ["médico", "clínica"], it: ["medico", "clinica"], hi: ["डॉक्टर", "क्लिनिक"],
            fi: ["lääkäri", "terveysasema"], sv: ["läkare", "vårdcentral"]),
        category(
            ["amenity=dentist", "healthcare=dentist"], en: ["dentist"], es: ["dentista"], it: ["dentista"],
            hi: ["दंत चिकित्सक"], fi: ["hammaslääkäri"], sv: ["tandläkare"]),
        category(
            ["amenity=school"], en: ["school"], es: ["escuela", "colegio"], it: ["scuola"], hi: ["स्कूल", "विद्यालय"],
            fi: ["koulu"], sv: ["skola"]),
        category(
            ["amenity=university", "amenity=college"], en: ["university", "college"], es: ["universidad"],
            it: ["università"], hi: ["विश्वविद्यालय"], fi: ["yliopisto"], sv: ["universitet"]),
        category(
            ["amenity=library"], en: ["library"], es: ["biblioteca"], it: ["biblioteca"], hi: ["पुस्तकालय"],
            fi: ["kirjasto"], sv: ["bibliotek"]),
        category(
            ["amenity=post_office"], en: ["post office"], es: ["correos", "oficina de correos"],
            it: ["ufficio postale", "posta"], hi: ["डाकघर"], fi: ["posti"], sv: ["post", "postkontor"]),
        category(
            ["amenity=police"], en: ["police"], es: ["policía"], it: ["polizia"], hi: ["पुलिस"], fi: ["poliisi"],
            sv: ["polis"]),
        category(
            ["amenity=fuel"], en: ["gas station", "petrol station", "fuel"], es: ["gasolinera"],
            it: ["distributore", "benzinaio"], hi: ["पेट्रोल पंप"], fi: ["huoltoasema"], sv: ["bensinstation"]),
        category(
            ["amenity=parking"], en: ["parking"], es: ["aparcamiento", "estacionamiento"], it: ["parcheggio"],
            hi: ["पार्किंग"], fi: ["pysäköinti", "parkkipaikka"], sv: ["parkering"]),
        category(
            ["amenity=toilets"], en: ["toilets", "restroom", "wc"], es: ["baños", "aseos"], it: ["bagni", "toilette"],
            hi: ["शौचालय"], fi: ["wc", "vessa"], sv: ["toalett"]),
        category(
            ["amenity=cinema"], en: ["cinema", "movie theater"], es: ["cine"], it: ["cinema"], hi: ["सिनेमा"],
            fi: ["elokuvateatteri"], sv: ["biograf"]),
        category(
            ["amenity=theatre"], en: ["theatre", "theater"], es: ["teatro"], it: ["teatro"], hi: ["थिएटर", "रंगमंच"],
            fi: ["teatteri"], sv: ["teater"]),
        category(
            ["amenity=place_of_worship"], en: ["church", "place of worship"], es: ["iglesia"], it: ["chiesa"],
            hi: ["पूजा स्थल", "मंदिर"], fi: ["kirkko"], sv: ["kyrka"]),
        category(
            ["shop=supermarket"], en: ["supermarket", "grocery"], es: ["supermercado"], it: ["supermercato"],
            hi: ["सुपरमार्केट"], fi: ["supermarketti", "ruokakauppa"], sv: ["mataffär", "livsmedelsbutik"]),
        category(
            ["shop=convenience"], en: ["convenience store"], es: ["tienda"], it: ["alimentari"], hi: ["किराना"],
            fi: ["lähikauppa", "kioski"], sv: ["närbutik"]),
        category(
            ["shop=bakery"], en: ["bakery"], es: ["panadería"], it: ["panetteria", "forno"], hi: ["बेकरी"],
            fi: ["leipomo"], sv: ["bageri"]),
        category(
            ["shop=books"], en: ["bookshop", "bookstore"], es: ["librería"], it: ["libreria"], hi: ["किताबों की दुकान"],
            fi: ["kirjakauppa"], sv: ["bokhandel"]),
        category(
            ["shop=clothes"], en: ["clothes"], es: ["ropa"], it: ["abbigliamento"], hi: ["कपड़े"], fi: ["vaatekauppa"],
            sv: ["kläder"]),
        category(
            ["shop=department_store", "shop=mall"], en: ["department store", "mall"], es: ["grandes almacenes"],
            it: ["grande magazzino"], hi: ["डिपार्टमेंट स्टोर", "मॉल"], fi: ["tavaratalo"], sv: ["varuhus"]),
        category(
            ["tourism=hotel"], en: ["hotel"], es: ["hotel"], it: ["albergo", "hotel"], hi: ["होटल"], fi: ["hotelli"],
            sv: ["hotell"]),
        category(
            ["tourism=hostel"], en: ["hostel"], es: ["albergue"], it: ["ostello"], hi: ["हॉस्टल"], fi: ["hostelli"],
            sv: ["vandrarhem"]),
        category(
            ["tourism=museum"], en: ["museum"], es: ["museo"], it: ["museo"], hi: ["संग्रहालय"], fi: ["museo"],
            sv: ["museum"]),
        category(
            ["tourism=gallery", "tourism=artwork"], en: ["gallery", "art"], es: ["galería", "arte"],
            it: ["galleria", "arte"], hi: ["गैलरी", "कला"], fi: ["galleria", "taide"], sv: ["galleri", "konst"]),
        category(
            ["tourism=attraction", "tourism=viewpoint"], en: ["attraction", "sight"], es: ["atracción"],
            it: ["attrazione"], hi: ["पर्यटन स्थल"], fi: ["nähtävyys"], sv: ["sevärdhet"]),
        category(
            ["park", "garden"], en: ["park"], es: ["parque"], it: ["parco"], hi: ["पार्क", "उद्यान"], fi: ["puisto"],
            sv: ["park"]),
        category(
            ["playground", "leisure=playground"], en: ["playground"], es: ["parque infantil"], it: ["parco giochi"],
            hi: ["खेल का मैदान"], fi: ["leikkipuisto"], sv: ["lekplats"]),
        category(
            ["leisure=fitness_centre", "leisure=sports_centre"], en: ["gym", "fitness"], es: ["gimnasio"],
            it: ["palestra"], hi: ["जिम"], fi: ["kuntosali"], sv: ["gym"]),
        category(
            ["station", "halt"], en: ["station", "train station", "metro"], es: ["estación", "metro"],
            it: ["stazione", "metropolitana"], hi: ["स्टेशन", "मेट्रो"], fi: ["asema", "metro"],
            sv: ["station", "tunnelbana"]),
        category(
            ["bus_stop"], en: ["bus stop"], es: ["parada de autobús"], it: ["fermata dell'autobus"], hi: ["बस स्टॉप"],
            fi: ["bussipysäkki"], sv: ["busshållplats"]),
        category(
            ["tram_stop"], en: ["tram stop"], es: ["parada de tranvía"], it: ["fermata del tram"], hi: ["ट्राम स्टॉप"],
            fi: ["raitiovaunupysäkki"], sv: ["spårvagnshållplats"]),
        category(
            ["subway_entrance"], en: ["subway entrance", "metro entrance"], es: ["entrada de metro"],
            it: ["ingresso della metropolitana"], hi: ["मेट्रो प्रवेश"], fi: ["metron sisäänkäynti"],
            sv: ["tunnelbaneingång"]),
    ]

    private static func category(
        _ kinds: [String], en: [String], es: [String], it: [String], hi: [String], fi: [String], sv: [String]
    ) -> Category {
        Category(kinds: kinds, words: ["en": en, "es": es, "it": it, "hi": hi, "fi": fi, "sv": sv])
    }

    /// The categories by kind.
    static let categoriesByKind: [String: [Category]] = {
        var table: [String: [Category]] = [:]
        for category in categories {
            for kind in category.kinds { table[kind, default: []].append(category) }
        }
        return table
    }()

    /// The category words of a feature of `kind` with `tags` (its cuisines too), every
    /// language, each once.
    public static func categoryWords(kind: String, tags: [(key: String, value: String)]) -> [String] {
        var kinds = [kind]
        for tag in tags where tag.key == "cuisine" {
            kinds += tag.value.split(separator: ";").map { "cuisine=" + $0.trimmingCharacters(in: .whitespaces) }
        }
        if kinds.count == 1 { return categoryWordsByKind[kind] ?? [] }
        return distinctWords(of: kinds.flatMap { categoriesByKind[$0] ?? [] })
    }

    /// The languages of the category words, in the order the index lists them.
    static let languages = ["en", "es", "it", "hi", "fi", "sv"]

    /// The words of `categories`, language by language (``languages``), each once.
    private static func distinctWords(of categories: [Category]) -> [String] {
        var seen: Set<String> = []
        return categories.flatMap { category in languages.flatMap { category.words[$0] ?? [] } }.filter {
            seen.insert($0).inserted
        }
    }

    /// The category words of each kind (without cuisines), worked out once.
    private static let categoryWordsByKind: [String: [String]] = categoriesByKind.mapValues(distinctWords)

    /// The tags kept with a feature and shown with a result: every name, the address, contact,
    /// opening hours and the `timezone` they are read in, links to Wikidata and Wikipedia,
    /// cuisine, operator and brand, what places and boundaries need for the address hierarchy
    /// and ranking (the gazetteer's `admin1` region and `name_count`), and what the vector
    /// tiles' schema reads (``tileKeys``).
    public static func keptTags(_ tags: [(key: String, value: String)]) -> [(key: String, value: String)] {
        tags.filter { tag in
            keptKeys.contains(tag.key) || tag.key.hasPrefix("name:") || tag.key.hasPrefix("addr:")
                || tag.key.hasPrefix("contact:")
        }
    }

    static let keptKeys = Set<String>([
        "name", "alt_name", "old_name", "short_name", "official_name", "loc_name", "opening_hours", "phone",
        "website", "url", "email", "wikidata", "wikipedia", "cuisine", "operator", "brand", "admin_level",
        "boundary", "place", "population", "country_code", "ISO3166-1", "iso3", "timezone", "admin1", "name_count",
    ]).union(tileKeys)

    /// The tags the vector tiles' schema reads beyond names and addresses: a road's `ref`,
    /// `oneway`, `surface`, `service` and `ford`; a building's `building:colour`, `min_height` and
    /// `building:min_level`; `repeat_on` of indoor features; a waterway's `intermittent`; a
    /// route's `network`; an airport's `iata`, `icao` and `ele`; a place's `capital`; a
    /// boundary's `maritime` and `disputed`.
    public static let tileKeys: Set<String> = [
        "ref", "oneway", "surface", "service", "ford", "building:colour", "min_height", "building:min_level",
        "repeat_on", "intermittent", "network", "iata", "icao", "ele", "capital", "maritime", "disputed",
    ]

    /// A feature's address on one line as the index holds it: street and house number (or
    /// place), postcode, city (`Aleksanterinkatu 52 00100 Helsinki`); empty without an address.
    public static func addressLine(_ tags: [(key: String, value: String)]) -> String {
        func value(_ key: String) -> String? { tags.first { $0.key == key }?.value }
        guard let written = value("addr:housenumber") ?? value("addr:housename") else { return "" }
        let number = houseNumber(written)
        let street = value("addr:street") ?? value("addr:place") ?? ""
        return [street, number, value("addr:postcode") ?? "", value("addr:city") ?? ""].filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    /// A house number as one word where it is a number and a letter (`14 B`, `14/B` → `14B`),
    /// so that "Kaivokatu 14 B" and "Kaivokatu 14b" find it alike; anything else as written
    /// (a range `3-5` is read as its two numbers).
    public static func houseNumber(_ text: String) -> String {
        let characters = Array(text.trimmingCharacters(in: .whitespaces))
        guard let last = characters.last, last.isLetter, characters.count >= 2 else { return text }
        let digits = characters.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return text }
        let between = characters[digits.count..<(characters.count - 1)]
        guard between.allSatisfy({ $0 == " " || $0 == "/" || $0 == "-" }) else { return text }
        return String(digits) + String(last)
    }

    /// Tags as the store keeps them: a JSON object, keys sorted (a key given twice keeps its
    /// last value). Written by hand: Foundation's writer took half of an import's time.
    public static func json(_ tags: [(key: String, value: String)]) -> String? {
        guard !tags.isEmpty else { return nil }
        var object: [String: String] = [:]
        for tag in tags { object[tag.key] = tag.value }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, key) in object.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendQuoted(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            appendQuoted(object[key]!, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `value` as a JSON string in UTF-8: quotes, backslashes and control characters escaped
    /// (every byte of a multi-byte character is 0x80 or above, so bytes are read one by one).
    private static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20: bytes += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The tags of a stored JSON object: read as ``json(_:)`` writes them (an object of strings,
    /// no white space) byte by byte, any other JSON by Foundation's reader; empty when it is not
    /// an object of strings.
    public static func tags(json: String) -> [String: String] {
        var json = json
        if let tags = json.withUTF8(readFlatObject) { return tags }
        return (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: String] ?? [:]
    }

    /// A JSON object of strings without white space (`{"a":"b","c":"d"}`), escapes read; nil for
    /// anything else.
    static func readFlatObject(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: String]? {
        var index = 0
        /// The string whose opening quote is at `index`, `index` moved past its closing quote.
        func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            // Most strings have no escape: read whole.
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                index += 1
            }
            let plain = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: plain, as: UTF8.self)
            }
            var text = Array(plain)
            var pendingHigh: UInt32?
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") {
                    return pendingHigh == nil ? String(decoding: text, as: UTF8.self) : nil
                }
                guard byte == UInt8(ascii: "\\") else {
                    guard pendingHigh == nil else { return nil }
                    text.append(byte)
                    continue
                }
                guard index < bytes.count else { return nil }
                let escaped = bytes[index]
                index += 1
                let unit: UInt32
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unit = UInt32(escaped)
                case UInt8(ascii: "n"): unit = 0x0A
                case UInt8(ascii: "r"): unit = 0x0D
                case UInt8(ascii: "t"): unit = 0x09
                case UInt8(ascii: "b"): unit = 0x08
                case UInt8(ascii: "f"): unit = 0x0C
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                        let hex = UInt32(
                            String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + 4)]), as: UTF8.self),
                            radix: 16)
                    else { return nil }
                    index += 4
                    unit = hex
                default: return nil
                }
                // A UTF-16 surrogate pair is one scalar.
                var value = unit
                if let high = pendingHigh {
                    guard (0xDC00...0xDFFF).contains(unit) else { return nil }
                    pendingHigh = nil
                    value = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                } else if (0xD800...0xDBFF).contains(unit) {
                    pendingHigh = unit
                    continue
                }
                guard let scalar = Unicode.Scalar(value) else { return nil }
                text += Array(String(scalar).utf8)
            }
            return nil
        }
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "{") else { return nil }
        index = 1
        var tags: [String: String] = [:]
        if bytes[index] == UInt8(ascii: "}") { return index + 1 == bytes.count ? tags : nil }
        while true {
            guard let key = string(), index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let value = string(), index < bytes.count else { return nil }
            tags[key] = value
            index += 1
            switch bytes[index - 1] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return index == bytes.count ? tags : nil
            default: return nil
            }
        }
    }

    /// Characters the index keeps inside words besides letters and digits: Devanagari's vowel
    /// signs, virama and nukta (else "फार्मेसी" would fall apart at its signs).
    static let wordMarks: String = {
        let ranges = [0x0900...0x0903, 0x093A...0x094F, 0x0951...0x0957, 0x0962...0x0963]
        return String(String.UnicodeScalarView(ranges.joined().compactMap(Unicode.Scalar.init)))
    }()

    /// Folded words of a text: letters, digits and the signs Devanagari keeps inside words,
    /// lower case, Latin diacritics dropped (`Töölö` → `toolo`), as the SQLite index's
    /// `unicode61 remove_diacritics 2` reads them; other scripts as they are. The PostGIS
    /// index is written and asked in these words.
    public static func words(_ text: String) -> [String] {
        // Scalar by scalar from a table, when every scalar is a character of its own (ASCII,
        // Latin, Cyrillic, Greek, Arabic without vowel marks, Chinese, Korean syllables…).
        var words: [String] = []
        var current: [UInt8] = []
        for scalar in text.unicodeScalars {
            let value = Int(scalar.value)
            let reading: ScalarReading
            if value < scalarReadings.count {
                reading = scalarReadings[value]
            } else if (0x4E00...0x9FEF).contains(value) || (0xAC00...0xD7A3).contains(value) {
                reading = .word(Array(String(scalar).utf8))
            } else {
                reading = .joining
            }
            switch reading {
            case .word(let bytes): current += bytes
            case .separator:
                if !current.isEmpty {
                    words.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                }
            case .joining: return wordsByCharacter(text)
            }
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }

    /// How ``words(_:)`` reads a scalar on its own.
    enum ScalarReading {
        /// A letter or digit, and its folded UTF-8 bytes.
        case word([UInt8])
        /// Anything else that is a character of its own.
        case separator
        /// A scalar that may join its neighbours into one character (a mark, a format
        /// character, a character prefixed to the next, a carriage return): the text is read
        /// character by character.
        case joining
    }

    /// ``ScalarReading`` of U+0000 to U+33FF, made once.
    static let scalarReadings: [ScalarReading] = (0..<0x3400).map { value in
        guard let scalar = Unicode.Scalar(value), value != 0x0D else { return .joining }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format, .surrogate: return .joining
        default: break
        }
        if properties.isGraphemeExtend || [0x0D4E, 0x0E33, 0x0EB3].contains(value) { return .joining }
        let character = Character(scalar)
        guard character.isLetter || character.isNumber else { return .separator }
        return .word(Array(fold(String(character)).utf8))
    }

    /// ``words(_:)`` read character by character, for any script (the reference of its faster
    /// reading from a table).
    static func wordsByCharacter(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber || character.unicodeScalars.allSatisfy(isWordMark) {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map(fold)
    }

    /// Lower case, Latin diacritics dropped; other scripts as they are.
    static func fold(_ word: String) -> String {
        var folded = ""
        for character in word.lowercased() {
            let scalars = character.unicodeScalars
            if character.isASCII {
                folded.append(character)
            } else if scalars.count == 1, let first = scalars.first, first.value < 0x0250 {
                folded += latinFolds[Int(first.value) - 0x80]
            } else if scalars.allSatisfy({ $0.value < 0x0250 }) {
                folded += String(character).folding(options: .diacriticInsensitive, locale: nil)
            } else {
                folded.append(character)
            }
        }
        return folded
    }

    /// U+0080 to U+024F (Latin-1 to Latin Extended-B), each without its diacritics, by scalar
    /// value less 0x80: folded once rather than for every letter of every name searched.
    private static let latinFolds: [String] = (0x80..<0x0250).map { value in
        Unicode.Scalar(value).map { String(Character($0)).folding(options: .diacriticInsensitive, locale: nil) } ?? ""
    }

    static func isWordMark(_ scalar: Unicode.Scalar) -> Bool {
        (0x0900...0x0903).contains(scalar.value) || (0x093A...0x094F).contains(scalar.value)
            || (0x0951...0x0957).contains(scalar.value) || (0x0962...0x0963).contains(scalar.value)
    }

    /// The folded words of a category word as the index holds them (``words(_:)``), from a
    /// table made once for the vocabulary's words (a search reads hundreds a keystroke).
    public static func indexWords(ofCategoryWord word: String) -> [String] {
        categoryIndexWords[word] ?? words(word)
    }

    /// The folded words of every category word (``words(_:)`` of each, read once).
    static let categoryIndexWords: [String: [String]] = {
        var table: [String: [String]] = [:]
        for category in categories {
            for word in category.words.values.joined() { table[word] = words(word) }
        }
        return table
    }()

    /// The PostgreSQL `tsvector` of an index entry: the words of its names (weight A), its
    /// address (B) and its category words (C), numbered from 1 in that order.
    static func tsvector(names: [String], address: String, categories: [String]) -> TextSearchVector {
        var vector = TextSearchVector()
        var position = 0
        for (texts, weight) in [(names, TextSearchVector.Weight.a), ([address], .b), (categories, .c)] {
            for text in texts {
                for word in weight == .c ? indexWords(ofCategoryWord: text) : words(text) {
                    position += 1
                    vector.add(word, position: position, weight: weight)
                }
            }
        }
        return vector
    }
}
