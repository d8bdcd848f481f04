import Foundation

/// Base64url (RFC 4648 section 5), as JSON Web Keys and EME licence requests write key IDs
/// and keys.
enum Base64URL {
  /// `bytes` in base64url without padding.
  static func encode(_ bytes: [UInt8]) -> String {
    var text = Data(bytes).base64EncodedString()
    while text.hasSuffix("=") { text.removeLast() }
    return String(
      text.map { character -> Character in
        switch character {
        case "+": return "-"
        case "/": return "_"
        default: return character
        }
      })
  }

  /// The bytes of base64url `text`, with or without its `=` padding; nil for any other
  /// character (white space, the `+` and `/` of plain base64 included), misplaced or
  /// excess padding, or a length no encoding has.
  static func decode(_ text: String) -> [UInt8]? {
    var body = Substring(text)
    var padding = 0
    while body.hasSuffix("=") {
      body.removeLast()
      padding += 1
    }
    guard padding <= 2, body.count % 4 != 1 else { return nil }
    if padding > 0, (body.count + padding) % 4 != 0 { return nil }
    var standard = ""
    standard.reserveCapacity(body.count + 3)
    for character in body.unicodeScalars {
      switch character {
      case "A"..."Z", "a"..."z", "0"..."9": standard.unicodeScalars.append(character)
      case "-": standard.append("+")
      case "_": standard.append("/")
      default: return nil
      }
    }
    while standard.count % 4 != 0 { standard.append("=") }
    guard let data = Data(base64Encoded: standard) else { return nil }
    return [UInt8](data)
  }
}
