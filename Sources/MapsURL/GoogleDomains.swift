/// Google's country search domains, as `google.<suffix>` is written after `google.`.
///
/// Source: Google's list of supported domains (`https://www.google.com/supported_domains`),
/// 187 entries, no IDN entries; kept here as data so that nothing is read at run time.
/// Host matching accepts exactly these suffixes, so look-alikes such as `google.evil.com`
/// or the unregistered `google.co.zz` never match.
public enum GoogleDomains {
    /// True when `suffix` (lower-case) is one of ``suffixes``.
    static func contains(suffix: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let key = packedKey(suffix) else { return false }
        var low = 0
        var high = packedSuffixes.count
        while low < high {
            let middle = (low + high) / 2
            if packedSuffixes[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < packedSuffixes.count && packedSuffixes[low] == key
    }

    /// Up to seven bytes and their count packed into an integer (every suffix is shorter), nil
    /// when longer.
    private static func packedKey<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64? {
        var key: UInt64 = 0
        var count = 0
        for byte in bytes {
            count += 1
            if count > 7 { return nil }
            key = key << 8 | UInt64(byte)
        }
        return key | UInt64(count) << 60
    }

    /// ``suffixes`` packed and sorted, for a binary search without hashing.
    private static let packedSuffixes: [UInt64] = suffixes.compactMap { packedKey($0.utf8) }.sorted()

    /// The suffixes after `google.`: `com`, `co.uk`, `com.tr`, ….
    public static let suffixes: Set<String> = [
        "com", "ad", "ae", "com.af", "com.ag", "al", "am", "co.ao", "com.ar", "as", "at", "com.au", "az", "ba",
        "com.bd", "be", "bf", "bg", "com.bh", "bi", "bj", "com.bn", "com.bo", "com.br", "bs", "bt", "co.bw", "by",
        "com.bz", "ca", "cd", "cf", "cg", "ch", "ci", "co.ck", "cl", "cm", "cn", "com.co", "co.cr", "com.cu", "cv",
        "com.cy", "cz", "de", "dj", "dk", "dm", "com.do", "dz", "com.ec", "ee", "com.eg", "es", "com.et", "fi",
        "com.fj", "fm", "fr", "ga", "ge", "gg", "com.gh", "com.gi", "gl", "gm", "gr", "com.gt", "gy", "com.hk", "hn",
        "hr", "ht", "hu", "co.id", "ie", "co.il", "im", "co.in", "iq", "is", "it", "je", "com.jm", "jo", "co.jp",
        "co.ke", "com.kh", "ki", "kg", "co.kr", "com.kw", "kz", "la", "com.lb", "li", "lk", "co.ls", "lt", "lu",
        "lv", "com.ly", "co.ma", "md", "me", "mg", "mk", "ml", "com.mm", "mn", "com.mt", "mu", "mv", "mw", "com.mx",
        "com.my", "co.mz", "com.na", "com.ng", "com.ni", "ne", "nl", "no", "com.np", "nr", "nu", "co.nz", "com.om",
        "com.pa", "com.pe", "com.pg", "com.ph", "com.pk", "pl", "pn", "com.pr", "ps", "pt", "com.py", "com.qa", "ro",
        "ru", "rw", "com.sa", "com.sb", "sc", "se", "com.sg", "sh", "si", "sk", "com.sl", "sn", "so", "sm", "sr",
        "st", "com.sv", "td", "tg", "co.th", "com.tj", "tl", "tm", "tn", "to", "com.tr", "tt", "com.tw", "co.tz",
        "com.ua", "co.ug", "co.uk", "com.uy", "co.uz", "com.vc", "co.ve", "co.vi", "com.vn", "vu", "ws", "rs",
        "co.za", "co.zm", "co.zw", "cat",
    ]
}
