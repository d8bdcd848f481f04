import Foundation

/// A half-open range `[start, end)` of byte offsets into the playlist being parsed.
struct ByteSpan: Equatable {
  var start: Int
  var end: Int

  init(_ start: Int, _ end: Int) {
    self.start = start
    self.end = end
  }

  var count: Int { end - start }
  var isEmpty: Bool { start >= end }
}

/// The playlist's bytes, with the scanning helpers the parser needs.
///
/// Valid only inside the `withUnsafeBytes` call that created it. Every helper is bounded
/// by the span it is given, so malformed text never reads out of bounds.
struct ByteText {
  let bytes: UnsafeBufferPointer<UInt8>

  /// The bytes of `span` as a buffer.
  func buffer(_ span: ByteSpan) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
  }

  /// The bytes of `span` decoded as UTF-8 (invalid sequences become U+FFFD).
  func string(_ span: ByteSpan) -> String {
    String(decoding: buffer(span), as: UTF8.self)
  }

  /// Whether `span` holds exactly `literal`.
  func equals(_ span: ByteSpan, _ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard span.count == length else { return false }
    return matches(at: span.start, literal, length: length)
  }

  /// Whether `span` starts with `literal`.
  func hasPrefix(_ span: ByteSpan, _ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard span.count >= length else { return false }
    return matches(at: span.start, literal, length: length)
  }

  /// Whether the spans hold the same bytes.
  func bytesEqual(_ first: ByteSpan, _ second: ByteSpan) -> Bool {
    guard first.count == second.count else { return false }
    guard first.count > 0, let base = bytes.baseAddress else { return true }
    return memcmp(base + first.start, base + second.start, first.count) == 0
  }

  /// Whether `span` holds exactly `literal`, ignoring ASCII case.
  func equalsIgnoringCase(_ span: ByteSpan, _ literal: StaticString) -> Bool {
    guard span.count == literal.utf8CodeUnitCount else { return false }
    let pattern = literal.utf8Start
    for offset in 0..<span.count {
      let byte = bytes[span.start + offset]
      let folded = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
      if folded != pattern[offset] { return false }
    }
    return true
  }

  private func matches(at start: Int, _ literal: StaticString, length: Int) -> Bool {
    guard length > 0 else { return true }
    guard let base = bytes.baseAddress else { return false }
    return memcmp(base + start, literal.utf8Start, length) == 0
  }

  /// The first offset in `span` holding `byte`, or nil.
  func firstIndex(of byte: UInt8, in span: ByteSpan) -> Int? {
    // A short span is searched sooner by a plain loop than by a library call.
    if span.count <= 16 {
      for index in span.start..<max(span.start, span.end) where bytes[index] == byte {
        return index
      }
      return nil
    }
    guard let base = bytes.baseAddress else { return nil }
    guard let found = memchr(base + span.start, Int32(byte), span.count) else { return nil }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
  }

  /// `span` without leading and trailing spaces, tabs and carriage returns.
  func trimmed(_ span: ByteSpan) -> ByteSpan {
    var start = span.start
    var end = span.end
    while start < end && Self.isBlank(bytes[start]) { start += 1 }
    while end > start && Self.isBlank(bytes[end - 1]) { end -= 1 }
    return ByteSpan(start, end)
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

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= 0x30 && byte <= 0x39
  }
}
