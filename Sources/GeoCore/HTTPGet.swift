import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP `GET`, waited for: the one way OpenMaps reads from the web (PMTiles archives by
/// range, GTFS-Realtime feeds). The caller's thread blocks until the answer or the timeout.
public struct HTTPGet: Sendable {
    /// Seconds a request may take before it fails: 30 by default.
    public let timeout: TimeInterval
    private let session: URLSession

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

    /// A reader whose requests fail after `timeout` seconds, never served from a cache.
    public init(timeout: TimeInterval = 30) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    /// `GET url` with `headers`, waited for.
    ///
    /// - Throws: ``HTTPGetError`` saying what was asked and why no answer came (no host, refused,
    ///   timed out); an answer of any status is returned, not thrown.
    public func get(_ url: URL, headers: [String: String] = [:]) throws(HTTPGetError) -> Answer {
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
    }

    /// A request's outcome, handed from URLSession's thread to the waiting one.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var value: (Data?, HTTPURLResponse?, (any Error)?) = (nil, nil, nil)
        func set(_ data: Data?, _ response: HTTPURLResponse?, _ error: (any Error)?) {
            lock.withLock { value = (data, response, error) }
        }
        func get() -> (Data?, HTTPURLResponse?, (any Error)?) { lock.withLock { value } }
    }
}

/// A `GET` that got no answer: the URL asked and why.
public struct HTTPGetError: Error, CustomStringConvertible, Sendable {
    public var url: URL
    public var message: String

    public var description: String { "GET \(url.absoluteString) failed: \(message)" }
}
