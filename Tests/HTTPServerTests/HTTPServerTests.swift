import Foundation
import HTTPServer
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
        // A body is read and dropped; the handler still answers.
        let posted = exchange(
            port: server.port, "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        #expect(posted?.status == 200 && posted?.body == "POST /p q=- agent=-")
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
}
