/// Opens a ``MapsRequest`` in the best maps app available, the way a calling app does.
///
/// The chain is `comgooglemaps-x-callback://` (only when the request has a callback) →
/// `comgooglemaps://` → a universal `https` Maps URL → Apple Maps. The custom schemes are
/// used only when ``canOpen`` says the app is installed; the https links always open
/// (in the browser when no app claims them), so they are tried in order until ``open``
/// reports success. Both functions are injected, so the choice is testable anywhere;
/// ``system`` wires them to `UIApplication` on iOS.
public struct MapsLauncher: Sendable {
    /// Answers whether a URL with this scheme can be opened (`"comgooglemaps://"`); on iOS,
    /// `UIApplication.canOpenURL`, which needs ``queriesSchemes`` in the app's Info.plist.
    public var canOpen: @Sendable (String) -> Bool
    /// Opens a link and reports whether it was opened.
    public var open: @Sendable (String) -> Bool

    /// The `LSApplicationQueriesSchemes` entries an iOS app must declare for ``canOpen``.
    public static let queriesSchemes = ["comgooglemaps", "comgooglemaps-x-callback"]

    /// A launcher that asks `canOpen` whether an app answers a link and `open` to open it (on iOS, `UIApplication`'s `canOpenURL` and `open`).
    public init(canOpen: @escaping @Sendable (String) -> Bool, open: @escaping @Sendable (String) -> Bool) {
        self.canOpen = canOpen
        self.open = open
    }

    /// One candidate link for a request.
    public struct Choice: Sendable, Equatable {
        /// The link form chosen.
        public var target: LinkTarget
        /// The link printed for it, with what it had to leave out.
        public var link: PrintedURL
    }

    /// The links to try for `request`, best first: installed custom schemes, then the https ones.
    public func candidates(for request: MapsRequest) -> [Choice] {
        var targets: [LinkTarget] = []
        if request.callback != nil && canOpen("comgooglemaps-x-callback://") { targets.append(.xCallback) }
        if canOpen("comgooglemaps://") { targets.append(.comgooglemaps) }
        targets += [.universal, .apple]
        return targets.compactMap { target in
            (try? MapsURLPrinter.print(request, as: target)).map { Choice(target: target, link: $0) }
        }
    }

    /// Opens the first candidate that opens.
    ///
    /// - Returns: the choice that was opened, or nil when none could be.
    @discardableResult
    public func launch(_ request: MapsRequest) -> Choice? {
        candidates(for: request).first { open($0.link.url) }
    }
}

#if canImport(UIKit)
    import UIKit

    extension MapsLauncher {
        /// A launcher on `UIApplication.shared`; declare ``queriesSchemes`` in Info.plist.
        @MainActor
        public static var system: MapsLauncher {
            MapsLauncher(
                canOpen: { scheme in
                    MainActor.assumeIsolated {
                        URL(string: scheme).map { UIApplication.shared.canOpenURL($0) } ?? false
                    }
                },
                open: { link in
                    MainActor.assumeIsolated {
                        guard let url = URL(string: link) else { return false }
                        UIApplication.shared.open(url)
                        return true
                    }
                })
        }
    }
#endif
