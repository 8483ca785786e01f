import Foundation
import HTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A plain HTTP/1.1 exchange over a loopback socket: the status, the headers (names
/// lower-case) and the body, or nil when nothing came back.
func exchange(port: Int, _ request: String) -> (
    status: Int, headers: [String: String], body: String, bytes: [UInt8]
)? {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return nil }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    // No exchange waits for ever: 60 s for the answer at most.
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { return nil }
    let sent = Array(request.utf8)
    guard sent.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == sent.count else { return nil }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        received += buffer[0..<count]
    }
    guard
        let end = (0..<max(received.count - 3, 0)).first(where: { received[$0..<$0 + 4].elementsEqual("\r\n\r\n".utf8) }
        )
    else { return nil }
    let bytes = Array(received[(end + 4)...])
    let head = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    guard let statusLine = head.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return (status, headers, String(decoding: bytes, as: UTF8.self), bytes)
}

@Suite struct HTTPServerTests {
    @Test func aRequestReachesTheHandlerDecodedAndItsAnswerComesBack() throws {
        let server = try HTTPServer(port: 0, threads: 2) { request in
            let echo =
                "\(request.method) \(request.path) q=\(request.query["q"] ?? "-") agent=\(request.headers["user-agent"] ?? "-")"
                + (request.body.isEmpty ? "" : " body=\(String(decoding: request.body, as: UTF8.self))")
            return HTTPResponse(
                status: request.path == "/missing" ? 404 : 200, headers: [("X-Test", "yes")], body: Array(echo.utf8))
        }
        defer { server.stop() }
        #expect(server.port > 0)
        let answer = try #require(
            exchange(
                port: server.port,
                "GET /maps/search?q=caf%C3%A9+Helsinki&x=1 HTTP/1.1\r\nHost: localhost\r\nUser-Agent: t/1\r\nConnection: close\r\n\r\n"
            ))
        #expect(answer.status == 200 && answer.headers["x-test"] == "yes")
        #expect(answer.body == "GET /maps/search q=café Helsinki agent=t/1")
        #expect(
            exchange(port: server.port, "GET /missing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")?.status == 404)
        // A body reaches the handler whole, however the client sends it in pieces.
        let posted = exchange(
            port: server.port, "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        #expect(posted?.status == 200 && posted?.body == "POST /p q=- agent=- body=hello")
        let long = String(repeating: "0123456789", count: 6_000)
        let longer = exchange(
            port: server.port,
            "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: \(long.utf8.count)\r\nConnection: close\r\n\r\n\(long)")
        #expect(longer?.status == 200 && longer?.body == "POST /p q=- agent=- body=\(long)")
        // One over the limit is refused before the handler, which never holds it.
        let huge = String(repeating: "x", count: HTTPRequest.maxBodyBytes + 1)
        let refused = exchange(
            port: server.port,
            "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: \(huge.utf8.count)\r\nConnection: close\r\n\r\n\(huge)")
        #expect(refused?.status == 413)
    }

    @Test func aHeaderBeyondTheConnectionsMemoryIsRefusedAndTheServerGoesOn() throws {
        let server = try HTTPServer(port: 0, threads: 1) { _ in HTTPResponse(status: 200, body: Array("ok".utf8)) }
        defer { server.stop() }
        let huge = String(repeating: "a", count: HTTPServer.connectionMemory * 2)
        let refused = exchange(port: server.port, "GET /\(huge) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(refused.map { $0.status >= 400 } ?? true)
        #expect(exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")?.body == "ok")
    }

    @Test func aBusyPortOrABadHostIsAClearError() throws {
        let first = try HTTPServer(port: 0, threads: 1) { _ in HTTPResponse(status: 204) }
        defer { first.stop() }
        #expect(throws: HTTPServerError.self) {
            try HTTPServer(port: first.port, threads: 1) { _ in HTTPResponse(status: 204) }
        }
        #expect(throws: HTTPServerError.self) {
            try HTTPServer(host: "localhost:80", port: 0, threads: 1) { _ in HTTPResponse(status: 204) }
        }
        #expect(throws: HTTPServerError.self) { try HTTPServer(port: 0, threads: 0) { _ in HTTPResponse(status: 204) } }
    }

    /// A connection to the loopback `port` that has sent `text` and waits; nil when it cannot
    /// connect. Reading it times out after `seconds`.
    func openConnection(port: Int, sending text: String, readTimeout seconds: Int = 5) -> Int32? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let bytes = Array(text.utf8)
        guard connected == 0, bytes.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == bytes.count
        else {
            close(socket)
            return nil
        }
        return socket
    }

    /// True when the server closed `socket` (a read finds its end, or its reset) within its
    /// read timeout.
    func isClosedByServer(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    @Test func halfSentRequestsDoNotKeepOthersWaitingAndAreClosedAtTheHeaderDeadline() throws {
        HTTPServer.raiseOpenFileLimit()
        var limits = HTTPServer.Limits()
        limits.headerSeconds = 2
        let server = try HTTPServer(port: 0, threads: 2, limits: limits) { _ in
            HTTPResponse(status: 200, body: Array("ok".utf8))
        }
        defer { server.stop() }
        #expect(server.limits.connections >= 1_100 && server.limits.perAddress == 0)
        // 1,000 connections from this one address, each with half a request, holding on.
        var stalled: [Int32] = []
        defer { stalled.forEach { close($0) } }
        for _ in 0..<1_000 {
            guard let socket = openConnection(port: server.port, sending: "GET /health HTTP/1.1\r\nHost: x\r\n") else {
                break
            }
            stalled.append(socket)
        }
        #expect(stalled.count == 1_000)
        // Another client is answered at once, on one of the two threads.
        let start = ContinuousClock.now
        let answer = exchange(port: server.port, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(answer?.body == "ok")
        #expect(ContinuousClock.now - start < .seconds(1))
        // Past the deadline for their headers the stalled connections are closed; a connection
        // whose request came in whole stays open, idle, for longer.
        let idle = try #require(
            openConnection(port: server.port, sending: "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", readTimeout: 1))
        defer { close(idle) }
        var response = [UInt8](repeating: 0, count: 4_096)
        #expect(recv(idle, &response, response.count, 0) > 0)
        #expect(stalled.prefix(20).allSatisfy(isClosedByServer))
        #expect(!isClosedByServer(idle))
    }

    @Test func connectionsFromOneAddressAreLimitedWhereTheDeploymentSaysSo() throws {
        var limits = HTTPServer.Limits()
        limits.perAddress = 4
        let server = try HTTPServer(port: 0, threads: 1, limits: limits) { _ in
            HTTPResponse(status: 200, body: Array("ok".utf8))
        }
        defer { server.stop() }
        let held = (0..<4).compactMap { _ in openConnection(port: server.port, sending: "GET / HTTP/1.1\r\n") }
        defer { held.dropFirst().forEach { close($0) } }
        #expect(held.count == 4)
        // A fifth from the same address is turned away; once one closes, it is served again.
        #expect(exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") == nil)
        close(held[0])
        let deadline = Date(timeIntervalSinceNow: 10)
        var answered: String?
        while answered == nil && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            answered = exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")?.body
        }
        #expect(answered == "ok")
        #expect(throws: HTTPServerError.self) {
            var bad = HTTPServer.Limits()
            bad.headerSeconds = 0
            return try HTTPServer(port: 0, threads: 1, limits: bad) { _ in HTTPResponse(status: 204) }
        }
    }

    @Test func aBusyWorkerKeepsNoQuickAnswerWaitingAndAFreeWorkerTakesTheNextRequest() throws {
        let release = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let server = try HTTPServer(
            port: 0, threads: 2,
            quick: { request in request.path == "/health" ? HTTPResponse(status: 200, body: Array("ok".utf8)) : nil }
        ) { request in
            if request.path == "/block" {
                entered.signal()
                release.wait()
            }
            return HTTPResponse(status: 200, body: Array("done \(request.path)".utf8))
        }
        // One worker held by a request that waits; it is answered once let go, even as the
        // server stops.
        let blocked = Results(count: 1)
        let waiting = DispatchGroup()
        DispatchQueue.global().async(group: waiting) {
            let answer = exchange(port: server.port, "GET /block HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            blocked.set(0, answer?.body == "done /block")
        }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        // The other worker answers; the quick answer needs none.
        #expect(
            exchange(port: server.port, "GET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")?.body
                == "done /next")
        #expect(
            exchange(port: server.port, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")?.body == "ok")
        release.signal()
        server.stop()
        waiting.wait()
        #expect(blocked.all == [true])
    }
}
