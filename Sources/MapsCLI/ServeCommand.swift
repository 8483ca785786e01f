import Dispatch
import Foundation
import MapsApp
import MapsServer

/// `openmaps serve`: the maps app over HTTP until SIGINT or SIGTERM.
enum ServeCommand {
    static let command = Command(
        name: "serve",
        summary: "Serve the maps app over HTTP: /api/answer?url=LINK answers any Maps link as JSON; /health.",
        usage: "serve [--port 8080] [--host 127.0.0.1] [--threads N] [--store PATH]",
        parser: ArgumentParser(
            options: [
                .init(name: "--port", value: "N", help: "The port, 1-65535 (default 8080)."),
                .init(
                    name: "--host", value: "IPV4",
                    help: "The address listened on (default 127.0.0.1: this machine only)."),
                .init(name: "--threads", value: "N", help: "Threads answering requests, 1-64 (default 4)."),
                DataCommand.storeOption,
            ], positionals: 0...0)
    ) { (arguments, console) throws(CLIError) in
        let port = try ViewCommand.count(arguments, "--port", in: 1...65_535) ?? 8080
        let threads = try ViewCommand.count(arguments, "--threads", in: 1...64) ?? 4
        let host = arguments.value("--host") ?? "127.0.0.1"
        let app = try ViewCommand.app(arguments)
        let server: MapsServer
        do {
            server = try MapsServer(app: app, host: host, port: port, threads: threads) { line in
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
        } catch {
            throw .failure("\(error)")
        }
        FileHandle.standardError.write(
            Data("serving on http://\(host):\(server.port)/ (Ctrl-C stops)\n".utf8))
        waitForSignal()
        server.stop()
        console.error("stopped")
    }

    /// Blocks until SIGINT or SIGTERM.
    private static func waitForSignal() {
        let stop = DispatchSemaphore(value: 0)
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            sources.append(source)
        }
        stop.wait()
        for source in sources { source.cancel() }
    }
}
