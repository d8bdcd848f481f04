import PlayheadCore

/// The playlist-specific helpers over the shared `ByteText` scanner.
extension ByteText {
  /// `span` without leading and trailing spaces, tabs and carriage returns.
  func trimmed(_ span: ByteSpan) -> ByteSpan {
    trimmed(span, where: Self.isBlank)
  }

  /// Whether `span` contains the two bytes `{$` (a possible variable reference).
  func containsVariableReference(_ span: ByteSpan) -> Bool {
    var search = span
    while let brace = firstIndex(of: UInt8(ascii: "{"), in: search) {
      if brace + 1 < span.end && bytes[brace + 1] == UInt8(ascii: "$") { return true }
      search = ByteSpan(brace + 1, span.end)
    }
    return false
  }

  /// Space, tab, or a carriage return (stray ones are trimmed like blanks).
  static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D
  }
}
