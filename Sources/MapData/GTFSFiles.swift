import Foundation

/// A GTFS feed's files, each unzipped and read as a table once, on first use: the map's
/// features and the timetable read the same tables.
final class GTFSFiles {
    /// The feed's path, for messages.
    let feed: String
    private let archive: ZipArchive
    private var tables: [String: CSVTable] = [:]

    /// The feed at `path` (a zip).
    ///
    /// - Throws: ``DataError`` when it is not a zip archive that can be read.
    init(path: String) throws(DataError) {
        feed = path
        archive = try ZipArchive(path: path)
    }

    /// True when the feed has `file` (in any folder of the archive).
    func has(_ file: String) -> Bool { member(file) != nil }

    /// The table of `file`, nil when the feed has none.
    ///
    /// - Throws: ``DataError`` when the file cannot be unzipped or read as CSV.
    func table(_ file: String) throws(DataError) -> CSVTable? {
        if let table = tables[file] { return table }
        guard let member = member(file) else { return nil }
        let table = try CSVTable(name: file, bytes: try archive.contents(of: member), feed: feed)
        tables[file] = table
        return table
    }

    private func member(_ file: String) -> String? {
        archive.members.first(where: { ($0.name as NSString).lastPathComponent == file })?.name
    }
}
