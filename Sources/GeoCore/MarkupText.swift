extension String {
    /// The text safe inside XML or HTML, as element text or a quoted attribute value: `&`, `<`,
    /// `>`, `"` and `'` written as entities (GPX documents, the web app's page).
    public var markupEscaped: String {
        var escaped = ""
        escaped.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
