internal import CMicroHTTPD
import Foundation
import Synchronization

/// A request as the server hands it to its handler: method, path (percent-decoded), the query
/// (percent-decoded, `+` read as a space) and the headers (names lower-case).
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, `POST`… as the client sent it.
    public var method: String
    /// The path, percent-decoded, without the query.
    public var path: String
    /// The query's parameters in order, repeated names kept (`markers=…&markers=…`).
    public var queryItems: [(name: String, value: String)]
    /// The request's headers, names lower-case; a repeated header's values joined with ", ".
    public var headers: [String: String]
    /// The body a `POST` carries (at most ``maxBodyBytes``; a longer one is answered 413 by the
    /// server before any handler sees it); empty for a `GET`.
    public var body: [UInt8]

    /// Bytes a request's body may have: 64 KiB (a Valhalla request is a few hundred; the cap
    /// keeps a flood of large bodies from holding much memory per connection).
    public static let maxBodyBytes = 64 << 10

    /// A request, for handlers and their tests.
    public init(
        method: String, path: String, queryItems: [(name: String, value: String)] = [],
        headers: [String: String] = [:], body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
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
    /// The HTTP status code, 100...599.
    public var status: Int
    /// Headers in the order they are sent; a name may repeat.
    public var headers: [(name: String, value: String)]
    /// The body's bytes (none for a `HEAD` request or a 304).
    public var body: [UInt8]
    /// A part of a file sent as the body instead of ``body``, read by the server as it sends it
    /// (a range of a large archive is never held in memory).
    public var file: FileRange?

    /// `length` bytes of the file at `path` from byte `offset`.
    public struct FileRange: Sendable, Equatable {
        /// The file's path.
        public var path: String
        /// The first byte sent.
        public var offset: UInt64
        /// How many bytes are sent.
        public var length: UInt64

        /// The range of `length` bytes from `offset` of `path`.
        public init(path: String, offset: UInt64, length: UInt64) {
            self.path = path
            self.offset = offset
            self.length = length
        }
    }

    /// A response of `status` with these headers and body.
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

    /// A failure that says `description`.
    public init(description: String) { self.description = description }
}

/// An HTTP/1.1 server on libmicrohttpd: a pool of threads polled by epoll, each request handed
/// to `handler` on one of them. Connections are limited in number (in all and from one
/// address), in the time their request's headers may take and their idle time, and in memory;
/// a request with a body has it read and dropped (the handler sees GET-style requests only).
///
/// Connections waiting for their request cost no thread: many more can be open than there are
/// threads, so slow or stalled clients do not keep others from being answered. A request whose
/// headers are in is answered by `quick` on the thread that read it when it can be at once (a
/// cached picture, a page), else handed with its connection suspended to the next free one of
/// `threads` workers, whichever connection it came on: every worker is busy while requests wait.
public final class HTTPServer: @unchecked Sendable {
    /// Turns a request into its response; called on any worker thread, so it must be safe to call at once from several.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
    /// Answers a request at once, on the thread that read it, or gives nil to hand it to a
    /// worker; it must never wait on anything slow.
    public typealias QuickHandler = @Sendable (HTTPRequest) -> HTTPResponse?

    /// How many connections the server holds and how long it waits for them.
    public struct Limits: Sendable, Equatable {
        /// Connections open at once, ≥ 1; by default as many as the process's open-file limit
        /// allows (raised to the system's ceiling, ``raiseOpenFileLimit()``) less 256 for the
        /// store and its files, at most 65,536.
        public var connections = Limits.defaultConnections
        /// Connections open at once from one address; 0 (the default) for no limit beyond
        /// ``connections`` (clients behind one proxy or NAT share an address).
        public var perAddress = 0
        /// Seconds a new connection may stay silent before its first request's headers are all
        /// in: 10.
        public var headerSeconds = 10
        /// Seconds a connection may stay idle once a request was read (between keep-alive
        /// requests): 15.
        public var idleSeconds = 15

        /// The defaults above.
        public init() {}

        /// The default for ``connections``.
        public static var defaultConnections: Int { max(64, min(HTTPServer.raiseOpenFileLimit() - 256, 65_536)) }
    }

    /// Memory a connection may use for its request line, headers and buffers: 32 KiB, so a
    /// request line or headers beyond it are refused by the library.
    public static let connectionMemory = 32 * 1024

    let handler: Handler
    private var daemon: OpaquePointer?
    /// The handler as the daemon's callback gets it: retained while the daemon runs.
    private let context: Unmanaged<HandlerBox>
    /// The port listened on (the one the system chose when 0 was asked).
    public let port: Int
    /// The limits in force.
    public let limits: Limits

    /// The threads that run `handler`.
    private let workers: WorkerPool

    /// Starts listening on `host` (an IPv4 address), `port` (0: any free one), with `threads`
    /// workers (1...64; as many threads read and write the connections) and `limits`; `quick`
    /// answers what needs no worker (nil: every request goes to one).
    public init(
        host: String = "127.0.0.1", port: Int, threads: Int, limits: Limits = Limits(),
        quick: QuickHandler? = nil, handler: @escaping Handler
    ) throws(HTTPServerError) {
        guard (0...65_535).contains(port) else { throw HTTPServerError(description: "port \(port) is not 0 to 65535") }
        guard (1...64).contains(threads) else {
            throw HTTPServerError(description: "threads must be 1 to 64, not \(threads)")
        }
        guard limits.connections >= 1, limits.perAddress >= 0, limits.headerSeconds >= 1, limits.idleSeconds >= 1
        else {
            throw HTTPServerError(
                description:
                    "limits must be at least 1 connection (0 or more per address) and 1 second, not \(limits)")
        }
        self.handler = handler
        self.limits = limits
        workers = WorkerPool(threads: threads)
        let context = Unmanaged.passRetained(
            HandlerBox(handler, quick: quick, workers: workers, idleSeconds: UInt32(limits.idleSeconds)))
        guard
            let started = openmaps_mhd_start(
                host, UInt16(port), UInt32(threads), UInt32(limits.connections), UInt32(limits.perAddress),
                UInt32(limits.headerSeconds), Self.connectionMemory, serveRequest, context.toOpaque(),
                requestCompleted)
        else {
            workers.stop()
            context.release()
            throw HTTPServerError(
                description: "cannot listen on \(host):\(port) (address in use, or not an IPv4 address)")
        }
        self.context = context
        daemon = started
        self.port = Int(openmaps_mhd_port(started))
    }

    /// Raises this process's limit of open files to the system's ceiling for it (each open
    /// connection is a file), once; returns the limit in force.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int { openFileLimit }

    private static let openFileLimit: Int = {
        let files = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(files, &limit) == 0 else { return 1_024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(files, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }()

    /// Stops listening and waits for the requests being answered.
    public func stop() {
        guard let daemon else { return }
        // No new connection; requests read from now on are refused (503), and those with the
        // workers are answered, their connections resumed, before the daemon stops.
        // (The listening socket is closed once the daemon is stopped: its threads may still
        // look at it until then, and its number must not be reused under them.)
        let listening = MHD_quiesce_daemon(daemon)
        let box = context.takeUnretainedValue()
        box.stopping.store(true, ordering: .sequentiallyConsistent)
        workers.drain()
        // The answers the workers made go out before the connections close (a client that
        // does not read its answer is not waited for past the deadline).
        box.handed.waitUntilNone(seconds: Double(limits.idleSeconds))
        MHD_stop_daemon(daemon)
        if listening >= 0 { close(listening) }
        self.daemon = nil
        workers.stop()
        context.release()
    }

    deinit { stop() }
}

/// A server's handlers and workers, as its daemon's callback context, and the idle time of a
/// connection whose request is in.
final class HandlerBox: Sendable {
    let handler: HTTPServer.Handler
    let quick: HTTPServer.QuickHandler?
    let workers: WorkerPool
    let idleSeconds: UInt32
    /// Set once the server stops: no request is handed to the workers any more.
    let stopping = Atomic(false)
    /// Requests handed to the workers and not yet ended.
    let handed = Counter()

    init(
        _ handler: @escaping HTTPServer.Handler, quick: HTTPServer.QuickHandler?, workers: WorkerPool,
        idleSeconds: UInt32
    ) {
        self.handler = handler
        self.quick = quick
        self.workers = workers
        self.idleSeconds = idleSeconds
    }
}

/// A count read and written from several threads, that can be waited on to reach 0.
final class Counter: @unchecked Sendable {
    private let condition = NSCondition()
    private var value = 0

    func increment() { condition.withLock { value += 1 } }

    func decrement() {
        condition.withLock {
            value -= 1
            if value == 0 { condition.broadcast() }
        }
    }

    /// Waits until the count is 0, at most `seconds`.
    func waitUntilNone(seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.withLock {
            while value > 0 && condition.wait(until: deadline) {}
        }
    }
}

/// One request's state across the calls of the access handler: whether it was handed to a
/// worker, and its answer once the worker has made it.
final class RequestState: @unchecked Sendable {
    /// Written by the worker before it resumes the connection, read after on the connection's
    /// thread (the resume orders the two).
    var answer: HTTPResponse?
    var handed = false
    /// The body read so far, and whether it went past ``HTTPRequest/maxBodyBytes`` (then
    /// dropped, and the request answered 413).
    var body: [UInt8] = []
    var bodyTooLarge = false
}

/// A connection handed to a worker (a pointer libmicrohttpd owns; resumed exactly once).
struct SuspendedConnection: @unchecked Sendable {
    let connection: OpaquePointer
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

/// libmicrohttpd's access handler: called when a request's headers are in (its state made),
/// for each piece of its body (kept up to ``HTTPRequest/maxBodyBytes``), once more at its end
/// (answered at once by the quick handler, else suspended and handed to a worker), and, for a
/// handed request, when its worker resumes the connection with the answer.
private let serveRequest: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let context, let connection, let requestContext else { return MHD_Result.NO }
    let box = Unmanaged<HandlerBox>.fromOpaque(context).takeUnretainedValue()
    guard let pointer = requestContext.pointee else {
        // The headers are in: from now on the connection may idle as long as any.
        requestContext.pointee = Unmanaged.passRetained(RequestState()).toOpaque()
        openmaps_mhd_set_timeout(connection, box.idleSeconds)
        return MHD_Result.YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
    if let uploadSize, uploadSize.pointee > 0 {
        let count = Int(uploadSize.pointee)
        if state.bodyTooLarge || state.body.count + count > HTTPRequest.maxBodyBytes {
            state.bodyTooLarge = true
            state.body = []
        } else if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        }
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    if let answer = state.answer { return queue(answer, on: connection) }
    if state.bodyTooLarge {
        return queue(
            HTTPResponse(
                status: 413, body: Array("the request's body is over \(HTTPRequest.maxBodyBytes) bytes".utf8)),
            on: connection)
    }
    let request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
        queryItems: collect(connection, MHD_ValueKind.GET_ARGUMENT_KIND, lowercaseKeys: false),
        headers: Dictionary(
            collect(connection, MHD_ValueKind.HEADER_KIND, lowercaseKeys: true).map { ($0.name, $0.value) },
            uniquingKeysWith: { first, next in first + ", " + next }), body: state.body)
    state.body = []
    if let answer = box.quick?(request) { return queue(answer, on: connection) }
    guard !box.stopping.load(ordering: .sequentiallyConsistent) else {
        return queue(HTTPResponse(status: 503, body: Array("the server is stopping".utf8)), on: connection)
    }
    state.handed = true
    box.handed.increment()
    MHD_suspend_connection(connection)
    let suspended = SuspendedConnection(connection: connection)
    let handler = box.handler
    box.workers.submit {
        state.answer = handler(request)
        MHD_resume_connection(suspended.connection)
    }
    return MHD_Result.YES
}

/// Queues `answer` on `connection`.
private func queue(_ answer: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    var made: OpaquePointer?
    if let file = answer.file {
        // libmicrohttpd reads the range as it sends it and closes the descriptor.
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return queue(HTTPResponse(status: 404, body: Array("the file is gone".utf8)), on: connection)
        }
        made = MHD_create_response_from_fd_at_offset64(file.length, descriptor, file.offset)
        if made == nil { close(descriptor) }
    } else {
        made = answer.body.withUnsafeBytes { bytes in openmaps_mhd_response_copy(bytes.count, bytes.baseAddress) }
    }
    guard let response = made else { return MHD_Result.NO }
    for (name, value) in answer.headers { _ = MHD_add_response_header(response, name, value) }
    let result = MHD_queue_response(connection, UInt32(answer.status), response)
    MHD_destroy_response(response)
    return result
}

/// libmicrohttpd's notice that a request ended (answered, or its connection closed): its state
/// is released.
private let requestCompleted: MHD_RequestCompletedCallback = { context, _, requestContext, _ in
    guard let context, let requestContext, let pointer = requestContext.pointee else { return }
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeRetainedValue()
    requestContext.pointee = nil
    if state.handed { Unmanaged<HandlerBox>.fromOpaque(context).takeUnretainedValue().handed.decrement() }
}
