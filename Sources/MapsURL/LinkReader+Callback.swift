/// Reading the x-callback-url parameters through ``CallbackPolicy``.
extension LinkReader {
    /// Reads x-source / x-success / x-error / x-cancel; returns false for other names.
    mutating func readCallbackParameter(_ parameter: Parameter, into parts: inout CallbackParts) -> Bool {
        switch parameter.name {
        case "x-source":
            guard let text = decodedValue(parameter, allowControls: true) else { return true }
            guard let (label, changed) = CallbackPolicy.sanitizeSource(text) else {
                report(
                    .emptySource, .error, "'x-source' is empty after removing hidden characters", at: parameter.whole)
                return true
            }
            if changed {
                report(
                    .sourceSanitized, .warning,
                    "'x-source' had hidden or bidirectional characters or was over \(CallbackPolicy.maxSourceLength) characters; it was cleaned",
                    at: parameter.whole)
            }
            parts.source = label
        case "x-success", "x-error", "x-cancel":
            guard let text = decodedValue(parameter, plusIsSpace: false, allowControls: true) else { return true }
            switch CallbackPolicy.validateCallbackURL(text) {
            case .failure(let refusal):
                report(refusal.code, .error, "'\(parameter.name)' refused: \(refusal.message)", at: parameter.whole)
            case .success(let url):
                switch parameter.name {
                case "x-success": parts.success = url
                case "x-error": parts.error = url
                default: parts.cancel = url
                }
            }
        default:
            return false
        }
        return true
    }

    /// Turns the collected callback parameters into a ``Callback`` when both required ones
    /// are there; `required` makes a missing pair an error (the x-callback scheme).
    mutating func applyCallback(_ parts: CallbackParts, required: Bool, at range: Range<Int>) {
        if let source = parts.source, let success = parts.success {
            request.callback = Callback(
                validatedSource: source, success: success, error: parts.error, cancel: parts.cancel)
            return
        }
        guard required || parts.any else { return }
        let missing = [parts.source == nil ? "x-source" : nil, parts.success == nil ? "x-success" : nil]
            .compactMap { $0 }.joined(separator: " and ")
        report(
            .callbackIncomplete, .error,
            "a callback needs both x-source and x-success; \(missing) missing or refused, so no callback button is offered",
            at: range)
    }
}

/// The x-callback parameters seen so far.
struct CallbackParts {
    var source: String?
    var success: String?
    var error: String?
    var cancel: String?
    var any: Bool { source != nil || success != nil || error != nil || cancel != nil }
}
