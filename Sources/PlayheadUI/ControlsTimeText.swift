/// Times as the controls print them: `m:ss` under an hour, `h:mm:ss` from an hour on.
public enum ControlsTimeText {
  /// What a label shows for a time not known yet.
  public static let unknown = "--:--"

  /// `seconds` as `m:ss` or `h:mm:ss`, rounded down to the second; negative times are
  /// shown with a leading `-`; non-finite ones as `unknown`.
  public static func format(_ seconds: Double) -> String {
    guard seconds.isFinite else { return unknown }
    let sign = seconds < 0 ? "-" : ""
    let whole = Int(min(abs(seconds), 359_999_999).rounded(.down))
    let hours = whole / 3600
    let minutes = (whole % 3600) / 60
    let secs = whole % 60
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    if hours > 0 { return "\(sign)\(hours):\(two(minutes)):\(two(secs))" }
    return "\(sign)\(minutes):\(two(secs))"
  }
}
