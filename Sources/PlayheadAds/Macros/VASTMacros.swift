import Foundation
import PlayheadCore

/// Expands VAST 4.x macros (`[ERRORCODE]`, `[CACHEBUSTING]`, …) in a tracking URL: a pure
/// function of the URL, the context and the random generator.
///
/// Rules (VAST 4.1 §6.1):
/// - A macro Playhead knows is replaced by its value, percent-encoded (RFC 3986
///   unreserved characters stay, everything else is `%XX`, so `00:00:05.000` becomes
///   `00%3A00%3A05.000`).
/// - A known macro whose value the context does not have becomes `-1` ("unknown").
/// - A bracketed word Playhead does not know (`[random]`, a server's own macro) is left as
///   it is: replacing it could break a URL that uses brackets for something else.
/// Known macros: `ERRORCODE`, `CACHEBUSTING` (8 digits), `TIMESTAMP` (ISO 8601 UTC with
/// milliseconds), `CONTENTPLAYHEAD`, `MEDIAPLAYHEAD`, `ADPLAYHEAD` (`HH:MM:SS.mmm`),
/// `ASSETURI`, `BREAKPOSITION` (1 pre, 2 mid, 3 post, 4 stand-alone), `ADCOUNT`. Names are
/// matched case-sensitively, as VAST writes them.
///
/// Example:
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// let url = VASTMacros.expand(
///   "https://t.example/e?c=[ERRORCODE]&cb=[CACHEBUSTING]",
///   context: VASTMacroContext(errorCode: .noAd), using: &random)
/// // https://t.example/e?c=303&cb=04719385
/// ```
public enum VASTMacros {
  /// The macro names `expand` replaces.
  public static let knownNames: Set<String> = [
    "ERRORCODE", "CACHEBUSTING", "TIMESTAMP", "CONTENTPLAYHEAD", "MEDIAPLAYHEAD", "ADPLAYHEAD",
    "ASSETURI", "BREAKPOSITION", "ADCOUNT",
  ]

  /// `template` with every known macro replaced; see the type for the rules.
  public static func expand(
    _ template: String, context: VASTMacroContext,
    using generator: inout some RandomNumberGenerator
  ) -> String {
    guard template.contains("[") else { return template }
    var output = ""
    var rest = template[...]
    while let open = rest.firstIndex(of: "[") {
      output += rest[..<open]
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(of: "]") else {
        output += rest[open...]
        return output
      }
      let name = String(rest[afterOpen..<close])
      if knownNames.contains(name) {
        output += encode(value(of: name, context: context, using: &generator) ?? "-1")
      } else {
        output += rest[open...close]
      }
      rest = rest[rest.index(after: close)...]
    }
    output += rest
    return output
  }

  /// An 8-digit cache buster (leading zeros kept) drawn from `generator`.
  public static func cacheBuster(using generator: inout some RandomNumberGenerator) -> String {
    let number = UInt64.random(in: 0..<100_000_000, using: &generator)
    let text = String(number)
    return String(repeating: "0", count: 8 - text.count) + text
  }

  /// `date` as `YYYY-MM-DDThh:mm:ss.sssZ` (UTC).
  public static func timestamp(_ date: Date) -> String {
    // Whole milliseconds first (rounded), so that 0.999 s never prints as .998.
    let totalMs = Int64((date.timeIntervalSince1970 * 1000).rounded())
    let millis = Int(((totalMs % 1000) + 1000) % 1000)
    let seconds = (totalMs - Int64(millis)) / 1000
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second],
      from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    func pad(_ value: Int?, _ width: Int) -> String {
      let text = String(value ?? 0)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T"
      + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))."
      + "\(pad(millis, 3))Z"
  }

  private static func value(
    of name: String, context: VASTMacroContext,
    using generator: inout some RandomNumberGenerator
  ) -> String? {
    switch name {
    case "ERRORCODE": return context.errorCode.map { String($0.rawValue) }
    case "CACHEBUSTING": return context.cacheBusting ?? cacheBuster(using: &generator)
    case "TIMESTAMP": return context.timestamp.map(timestamp)
    case "CONTENTPLAYHEAD": return context.contentPlayhead.flatMap(playhead)
    case "MEDIAPLAYHEAD": return context.mediaPlayhead.flatMap(playhead)
    case "ADPLAYHEAD": return context.adPlayhead.flatMap(playhead)
    case "ASSETURI": return context.assetURI
    case "BREAKPOSITION": return context.breakPosition.map { String($0.rawValue) }
    case "ADCOUNT": return context.adCount.map(String.init)
    default: return nil
    }
  }

  private static func playhead(_ time: MediaTime) -> String? {
    time.isNumeric ? VASTTime.format(time) : nil
  }

  /// RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`) as they are, every other byte
  /// of the UTF-8 form as `%XX`.
  static func encode(_ value: String) -> String {
    var output = ""
    for byte in value.utf8 {
      switch byte {
      case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E:
        output.append(Character(UnicodeScalar(byte)))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        output += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return output
  }
}
