import MapsURL
import Routing

/// Why the maps app could not answer.
public enum AppError: Error, CustomStringConvertible {
    /// No request could be read from the link; the diagnostics say why.
    case unreadableLink(diagnostics: [Diagnostic])
    /// An option cannot apply to this answer: the option's name and what was wrong.
    case invalidOption(String, message: String)
    /// An engine failed: what the app was doing and the engine's error.
    case engineFailed(String, underlying: any Error)
    /// The answer needs an engine the app was not given (e.g. drawing without a renderer).
    case engineMissing(String)
    /// No route: a point has no road for the mode, two points are not connected, or the points
    /// are too few or too many (the router's reason).
    case noRoute(RoutingError)

    public var description: String {
        switch self {
        case .unreadableLink: "no request could be read from the link"
        case .invalidOption(let option, let message): "'\(option)' \(message)"
        case .engineFailed(let doing, let underlying): "\(doing) failed: \(underlying)"
        case .engineMissing(let engine): "no \(engine) is available"
        case .noRoute(let reason): "no route: \(reason.description)"
        }
    }
}
