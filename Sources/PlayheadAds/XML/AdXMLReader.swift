import Foundation
import PlayheadCore

/// Reads an ad document (VAST, VMAP) into an `AdXMLElement` tree, refusing what could
/// harm the player: DTDs, entity declarations, oversized, too deep or too large documents.
///
/// The bytes are checked before any parsing: input over `limits.maxBytes`, UTF-16/UTF-32
/// input, and any `<!DOCTYPE` or `<!ENTITY` (in any letter case, even in a comment) are
/// refused. Playhead's own XML reader (`XMLTreeReader`, one pass over the bytes) then
/// builds the tree: it reads no DTD, expands no entity but XML's five and character
/// references, fetches nothing, strips namespace prefixes (so undeclared ones such as a
/// stray `xsi:` are tolerated), and stops at the first error, at an element past
/// `maxDepth` or past `maxElements`. Work is linear in the input's size.
///
/// Example:
/// ```swift
/// let root = try AdXMLReader.parse(data)
/// print(root.name)  // "VAST"
/// ```
public enum AdXMLReader {
  /// Parses `data` into its root element; throws `AdXMLError` for refused or malformed
  /// input.
  public static func parse(
    _ data: Data, limits: AdXMLLimits = .default
  ) throws(AdXMLError) -> AdXMLElement {
    try screen(data, limits: limits)
    return try XMLTreeReader.parse(data, limits: limits)
  }

  /// The checks on the raw bytes, before the parser runs.
  static func screen(_ data: Data, limits: AdXMLLimits) throws(AdXMLError) {
    if data.count > limits.maxBytes {
      throw AdXMLError(
        .limitExceeded, "document is \(data.count) bytes, over the limit of \(limits.maxBytes)")
    }
    let bytes = [UInt8](data)
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
      throw AdXMLError(.empty, "empty document")
    }
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
      || bytes.contains(0)
    {
      throw AdXMLError(.unsupportedEncoding, "not UTF-8 text (UTF-16/32 or NUL bytes)")
    }
    if let line = lineOfDeclaration(in: bytes, "<!DOCTYPE") {
      throw AdXMLError(.doctypeRefused, line: line, "DOCTYPE declarations are refused")
    }
    if let line = lineOfDeclaration(in: bytes, "<!ENTITY") {
      throw AdXMLError(.entityRefused, line: line, "ENTITY declarations are refused")
    }
  }

  /// The 1-based line of the first occurrence of `marker` (ASCII, any letter case).
  static func lineOfDeclaration(in bytes: [UInt8], _ marker: String) -> Int? {
    let wanted = Array(marker.uppercased().utf8)
    guard bytes.count >= wanted.count else { return nil }
    var line = 1
    var index = 0
    while index + wanted.count <= bytes.count {
      let byte = bytes[index]
      if byte == 0x0A { line += 1 }
      if byte == 0x3C {
        var matches = true
        for offset in 1..<wanted.count {
          var candidate = bytes[index + offset]
          if candidate >= 0x61 && candidate <= 0x7A { candidate -= 0x20 }
          if candidate != wanted[offset] {
            matches = false
            break
          }
        }
        if matches { return line }
      }
      index += 1
    }
    return nil
  }
}
