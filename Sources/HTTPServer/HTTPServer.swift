internal import CMicroHTTPD
import Foundation

/// A request as the server hands it to its handler: method, path (percent-decoded), the query
/// (percent-decoded, `+` read as a space) and the headers (names lower-case).
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    /// The query's parameters in order, repeated names kept (`markers=…&markers=…`).
    public var queryItems: [(name: String, value: String)]
    public var headers: [String: String]

    public init(
        method: String, path: String, queryItems: [(name: String, value: String)] = [],
        headers: [String: String] = [:]
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
    }

    /// The query's values by name; of a repeated name, the last.
    public var query: [String: String] {
        Dictionary(queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Every value given for `name`, in order.
    public func values(_ name: String) -> [String] { queryItems.filter { $0.name == name }.map(\.value) }
}

/// A response: status, headers and body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON document (`application/json; charset=utf-8`).
    public static func json(_ status: Int, _ body: Data) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: Array(body))
    }
}

/// Why the server could not start.
public struct HTTPServerError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
}

/// An HTTP/1.1 server on libmicrohttpd: a pool of threads polled by epoll, each request handed
/// to `handler` on one of them. Connections are limited in number, idle time and memory; a
/// request with a body has it read and dropped (the handler sees GET-style requests only).
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// At most this many connections at once: 256.
    public static let connectionLimit: UInt32 = 256
    /// An idle connection is closed after this many seconds: 15.
    public static let timeoutSeconds: UInt32 = 15
    /// Memory a connection may use for its request line, headers and buffers: 32 KiB, so a
    /// request line or headers beyond it are refused by the library.
    public static let connectionMemory = 32 * 1024

    let handler: Handler
    private var daemon: OpaquePointer?
    /// The handler as the daemon's callback gets it: retained while the daemon runs.
    private let context: Unmanaged<HandlerBox>
    /// The port listened on (the one the system chose when 0 was asked).
    public let port: Int

    /// Starts listening on `host` (an IPv4 address), `port` (0: any free one), with `threads`
    /// threads (1...64).
    public init(host: String = "127.0.0.1", port: Int, threads: Int, handler: @escaping Handler)
        throws(HTTPServerError)
    {
        guard (0...65_535).contains(port) else { throw HTTPServerError(description: "port \(port) is not 0 to 65535") }
        guard (1...64).contains(threads) else {
            throw HTTPServerError(description: "threads must be 1 to 64, not \(threads)")
        }
        self.handler = handler
        let context = Unmanaged.passRetained(HandlerBox(handler))
        guard
            let started = openmaps_mhd_start(
                host, UInt16(port), UInt32(threads), Self.connectionLimit, Self.timeoutSeconds, Self.connectionMemory,
                serveRequest, context.toOpaque())
        else {
            context.release()
            throw HTTPServerError(
                description: "cannot listen on \(host):\(port) (address in use, or not an IPv4 address)")
        }
        self.context = context
        daemon = started
        self.port = Int(openmaps_mhd_port(started))
    }

    /// Stops listening and waits for the requests being answered.
    public func stop() {
        guard let daemon else { return }
        MHD_stop_daemon(daemon)
        self.daemon = nil
        context.release()
    }

    deinit { stop() }
}

/// A server's handler, as its daemon's callback context.
final class HandlerBox: Sendable {
    let handler: HTTPServer.Handler
    init(_ handler: @escaping HTTPServer.Handler) { self.handler = handler }
}

/// Collects a connection's values of one kind (query arguments, headers), in order.
private final class ValueCollector {
    var values: [(name: String, value: String)] = []
    let lowercaseKeys: Bool
    init(lowercaseKeys: Bool) { self.lowercaseKeys = lowercaseKeys }
}

private func collect(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercaseKeys: Bool) -> [(
    name: String, value: String
)] {
    let collector = ValueCollector(lowercaseKeys: lowercaseKeys)
    let context = Unmanaged.passUnretained(collector).toOpaque()
    _ = MHD_get_connection_values(
        connection, kind,
        { context, _, key, value in
            guard let context, let key else { return MHD_Result.YES }
            let collector = Unmanaged<ValueCollector>.fromOpaque(context).takeUnretainedValue()
            let name = String(cString: key)
            collector.values.append(
                (collector.lowercaseKeys ? name.lowercased() : name, value.map { String(cString: $0) } ?? ""))
            return MHD_Result.YES
        }, context)
    return collector.values
}

/// A marker for a request whose headers have been seen.
nonisolated(unsafe) private let seen = UnsafeMutableRawPointer(bitPattern: 1)

/// libmicrohttpd's access handler: called when a request's headers are in (marked), for each
/// piece of its body (dropped), and once more at its end, when the handler answers.
private let serveRequest: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, _, uploadSize, requestContext in
    guard let context, let connection, let requestContext else { return MHD_Result.NO }
    if requestContext.pointee == nil {
        requestContext.pointee = seen
        return MHD_Result.YES
    }
    if let uploadSize, uploadSize.pointee > 0 {
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    let handler = Unmanaged<HandlerBox>.fromOpaque(context).takeUnretainedValue().handler
    let request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
        queryItems: collect(connection, MHD_ValueKind.GET_ARGUMENT_KIND, lowercaseKeys: false),
        headers: Dictionary(
            collect(connection, MHD_ValueKind.HEADER_KIND, lowercaseKeys: true).map { ($0.name, $0.value) },
            uniquingKeysWith: { first, next in first + ", " + next }))
    let answer = handler(request)
    let response = answer.body.withUnsafeBytes { bytes in openmaps_mhd_response_copy(bytes.count, bytes.baseAddress) }
    guard let response else { return MHD_Result.NO }
    for (name, value) in answer.headers { _ = MHD_add_response_header(response, name, value) }
    let result = MHD_queue_response(connection, UInt32(answer.status), response)
    MHD_destroy_response(response)
    return result
}
