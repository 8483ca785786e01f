import Foundation

#if os(Linux)
    import CCurl
#endif

/// One HTTP `GET`, waited for: the one way OpenMaps reads from the web (PMTiles archives by
/// range, GTFS-Realtime feeds, region catalogues and extracts, replication feeds). The caller's
/// thread blocks until the answer or the timeout. On Linux it goes through libcurl, loaded at the
/// first request (Foundation's URLSession would link libcurl and its thirty-odd libraries into
/// every command); elsewhere through URLSession. Redirects are followed; nothing is cached.
public struct HTTPGet: Sendable {
    /// Seconds connecting may take, and an answer may stop for, before the request fails: 30 by
    /// default.
    public let timeout: TimeInterval
    #if !os(Linux)
        private let session: URLSession
    #endif

    /// What a host answered.
    public struct Answer: Sendable {
        /// The HTTP status (200, 206, 404 …).
        public var status: Int
        /// The body, all of it.
        public var body: [UInt8]
        /// The response headers, by name as sent.
        public var headers: [String: String]

        /// The header `name`, whatever its case.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// A reader whose requests fail after `timeout` seconds without an answer, never served
    /// from a cache.
    public init(timeout: TimeInterval = 30) {
        self.timeout = timeout
        #if !os(Linux)
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            session = URLSession(configuration: configuration)
        #endif
    }

    /// `GET url` with `headers`, waited for.
    ///
    /// - Throws: ``HTTPGetError`` saying what was asked and why no answer came (no host, refused,
    ///   timed out); an answer of any status is returned, not thrown.
    public func get(_ url: URL, headers: [String: String] = [:]) throws(HTTPGetError) -> Answer {
        #if os(Linux)
            var answer = openmaps_http_answer()
            var reason = [CChar](repeating: 0, count: 512)
            let lines = headers.map { "\($0.key): \($0.value)" }
            // Whole seconds, 1 to a day (a NaN as the default).
            let seconds = Int((timeout.isNaN ? 30 : min(max(timeout, 1), 86_400)).rounded(.up))
            let failed = withCStrings(lines) { pointers in
                openmaps_http_get(
                    url.absoluteString, pointers, Int32(lines.count), seconds, &answer, &reason, reason.count)
            }
            guard failed == 0 else {
                throw HTTPGetError(
                    url: url, message: reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
            }
            defer { openmaps_http_answer_free(&answer) }
            let body = answer.body.map { [UInt8](UnsafeBufferPointer(start: $0, count: answer.body_length)) } ?? []
            let head = answer.headers.map { String(cString: $0) } ?? ""
            return Answer(status: answer.status, body: body, headers: Self.fields(head))
        #else
            var request = URLRequest(url: url)
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let done = DispatchSemaphore(value: 0)
            let outcome = Outcome()
            session.dataTask(with: request) { data, response, error in
                outcome.set(data, response as? HTTPURLResponse, error)
                done.signal()
            }.resume()
            done.wait()
            let (data, response, error) = outcome.get()
            if let error { throw HTTPGetError(url: url, message: error.localizedDescription) }
            guard let response else { throw HTTPGetError(url: url, message: "no HTTP answer") }
            var fields: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { fields[name] = value }
            }
            return Answer(status: response.statusCode, body: [UInt8](data ?? Data()), headers: fields)
        #endif
    }

    /// The header fields of a response's header lines (its status line and blank line skipped;
    /// a name given twice keeps the last value, and folded lines are joined to theirs).
    static func fields(_ head: String) -> [String: String] {
        var fields: [String: String] = [:]
        var last: String?
        for line in head.split(separator: "\r\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("HTTP/") { continue }
            if let first = line.first, first == " " || first == "\t", let name = last {
                fields[name, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            fields[name] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            last = name
        }
        return fields
    }

    #if os(Linux)
        /// Calls `body` with C strings of `strings`, alive for the call.
        private func withCStrings<Result>(
            _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>>?) -> Result
        ) -> Result {
            let copies = strings.map { strdup($0)! }
            defer { copies.forEach { free($0) } }
            let pointers = copies.map { UnsafePointer($0) }
            return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
        }
    #else
        /// A request's outcome, handed from URLSession's thread to the waiting one.
        private final class Outcome: @unchecked Sendable {
            private let lock = NSLock()
            private var value: (Data?, HTTPURLResponse?, (any Error)?) = (nil, nil, nil)
            func set(_ data: Data?, _ response: HTTPURLResponse?, _ error: (any Error)?) {
                lock.withLock { value = (data, response, error) }
            }
            func get() -> (Data?, HTTPURLResponse?, (any Error)?) { lock.withLock { value } }
        }
    #endif
}

/// A `GET` that got no answer: the URL asked and why.
public struct HTTPGetError: Error, CustomStringConvertible, Sendable {
    public var url: URL
    public var message: String

    public var description: String { "GET \(url.absoluteString) failed: \(message)" }
}
