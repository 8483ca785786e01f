import Foundation
import HTTPServer
import Testing

@testable import GeoCore

/// `HTTPGet`, the one way OpenMaps reads from the web, against a loopback host: the status,
/// body and headers of an answer, the request's headers, redirects, and a host that is not
/// there.
@Suite struct HTTPGetTests {
    @Test func anAnswerComesWithItsStatusBodyAndHeadersAndRedirectsAreFollowed() throws {
        let host = try HTTPServer(port: 0, threads: 1) { request in
            switch request.path {
            case "/echo":
                let range = request.headers["range"] ?? "none"
                return HTTPResponse(
                    status: 206, headers: [("Content-Range", "bytes 0-4/10"), ("X-Range-Asked", range)],
                    body: Array("hello".utf8))
            case "/moved": return HTTPResponse(status: 302, headers: [("Location", "/echo"), ("X-Hop", "first")])
            case "/large": return HTTPResponse(status: 200, body: (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0) })
            default: return HTTPResponse(status: 404, body: Array("no such thing".utf8))
            }
        }
        defer { host.stop() }
        let base = "http://127.0.0.1:\(host.port)"
        let http = HTTPGet(timeout: 5)

        let answer = try http.get(URL(string: "\(base)/echo")!, headers: ["Range": "bytes=0-4"])
        #expect(answer.status == 206 && answer.body == Array("hello".utf8))
        #expect(answer.header("content-range") == "bytes 0-4/10" && answer.header("X-RANGE-ASKED") == "bytes=0-4")

        // Followed to its target; the headers are the last answer's.
        let moved = try http.get(URL(string: "\(base)/moved")!)
        #expect(moved.status == 206 && moved.body == Array("hello".utf8) && moved.header("X-Hop") == nil)

        // A status of any kind is an answer, not an error; a body of megabytes comes whole.
        let missing = try http.get(URL(string: "\(base)/nothing")!)
        #expect(missing.status == 404 && String(decoding: missing.body, as: UTF8.self) == "no such thing")
        let large = try http.get(URL(string: "\(base)/large")!)
        #expect(large.body.count == 3_000_000 && large.body[2_999_999] == UInt8(truncatingIfNeeded: 2_999_999))
    }

    @Test func aHostThatIsNotThereIsAnErrorNamingTheURL() throws {
        // A port just given up: nothing listens there.
        let closed = try HTTPServer(port: 0, threads: 1) { _ in HTTPResponse(status: 200) }
        let port = closed.port
        closed.stop()
        let url = URL(string: "http://127.0.0.1:\(port)/state.txt")!
        #expect {
            try HTTPGet(timeout: 5).get(url)
        } throws: { error in
            guard let error = error as? HTTPGetError else { return false }
            return error.url == url && !error.message.isEmpty
                && error.description.hasPrefix("GET http://127.0.0.1:\(port)/state.txt failed: ")
        }
    }

    @Test func headerLinesAreReadAsFields() {
        let fields = HTTPGet.fields(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Long: one\r\n  two\r\nETag:\"abc\"\r\n\r\n")
        #expect(fields == ["Content-Type": "text/plain", "X-Long": "one two", "ETag": "\"abc\""])
    }
}
