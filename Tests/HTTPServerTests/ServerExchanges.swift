import Foundation

@testable import MapsServer

/// GET requests to a running server and JSON bodies read, for the suites that drive one.
protocol ServerExchanges {}

extension ServerExchanges {
    /// `GET target` with `headers` (each ending in CRLF), `Host: x`, the connection closed.
    func get(_ server: MapsServer, _ target: String, headers: String = "") -> (
        status: Int, headers: [String: String], body: String, bytes: [UInt8]
    )? {
        exchange(port: server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\n\(headers)Connection: close\r\n\r\n")
    }

    /// A JSON object's members; empty when the body is not one.
    func json(_ body: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }
}
