/// Distances as a person reads them in a sentence (English; the guidance's languages come with
/// their own templates).
public enum DistanceText {
    /// `850 m` (to 10 m) below a kilometre, `12 km`, `8,640 km` (whole kilometres, thousands
    /// grouped) above.
    ///
    /// - Parameter metres: a distance, 0 or more.
    public static func rounded(_ metres: Double) -> String {
        if metres < 995 { return "\(Int((metres / 10).rounded()) * 10) m" }
        var digits = String(Int((metres / 1000).rounded()))
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped + " km"
    }
}
