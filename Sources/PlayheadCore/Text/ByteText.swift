import Foundation

/// The bytes of a text being parsed, with the scanning helpers the M3U8 and WebVTT parsers
/// share.
///
/// Valid only inside the `withUnsafeBytes` (or `withUTF8`) call that provides `bytes`. Every
/// helper is bounded by the span it is given, so malformed text never reads out of bounds;
/// the spans themselves must lie inside `bytes`. What counts as white space differs between
/// formats, so trimming takes the format's own test (`trimmed(_:where:)`).
@usableFromInline
package struct ByteText {
  // `@usableFromInline` on the type and its stored property lets the `@inlinable` members
  // inline into the parsers of other modules; without it they silently stay calls.
  @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>

  @inlinable
  package init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// The byte at `offset`.
  @inlinable
  package subscript(_ offset: Int) -> UInt8 { bytes[offset] }

  /// The bytes of `span` as a buffer.
  @inlinable
  package func buffer(_ span: ByteSpan) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
  }

  /// The bytes of `span` decoded as UTF-8.
  ///
  /// Invalid sequences become U+FFFD; NUL bytes are kept as they are.
  @inlinable
  package func string(_ span: ByteSpan) -> String {
    String(decoding: buffer(span), as: UTF8.self)
  }

  /// Whether `span` holds exactly `literal`.
  @inlinable
  package func equals(_ span: ByteSpan, _ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard span.count == length else { return false }
    return matches(at: span.start, literal, length: length)
  }

  /// Whether `span` starts with `literal`.
  ///
  /// Every span starts with the empty literal.
  @inlinable
  package func hasPrefix(_ span: ByteSpan, _ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard span.count >= length else { return false }
    return matches(at: span.start, literal, length: length)
  }

  /// Whether the spans hold the same bytes.
  ///
  /// Two empty spans are equal wherever they stand.
  @inlinable
  package func bytesEqual(_ first: ByteSpan, _ second: ByteSpan) -> Bool {
    guard first.count == second.count else { return false }
    guard first.count > 0, let base = bytes.baseAddress else { return true }
    return memcmp(base + first.start, base + second.start, first.count) == 0
  }

  /// Whether `span` holds exactly `literal`, ignoring ASCII case.
  ///
  /// `literal` must be upper case: only the span's bytes are folded.
  @inlinable
  package func equalsIgnoringCase(_ span: ByteSpan, _ literal: StaticString) -> Bool {
    guard span.count == literal.utf8CodeUnitCount else { return false }
    let pattern = literal.utf8Start
    for offset in 0..<span.count {
      let byte = bytes[span.start + offset]
      let folded = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
      if folded != pattern[offset] { return false }
    }
    return true
  }

  @inlinable
  func matches(at start: Int, _ literal: StaticString, length: Int) -> Bool {
    guard length > 0 else { return true }
    guard let base = bytes.baseAddress else { return false }
    return memcmp(base + start, literal.utf8Start, length) == 0
  }

  /// The first offset in `span` holding `byte`, or nil.
  ///
  /// An empty span holds nothing.
  @inlinable
  package func firstIndex(of byte: UInt8, in span: ByteSpan) -> Int? {
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

  /// `span` without the leading and trailing bytes for which `isBlank` holds.
  ///
  /// A span of blanks only becomes the empty span at its end.
  @inlinable
  package func trimmed(_ span: ByteSpan, where isBlank: (UInt8) -> Bool) -> ByteSpan {
    var start = span.start
    var end = span.end
    while start < end && isBlank(bytes[start]) { start += 1 }
    while end > start && isBlank(bytes[end - 1]) { end -= 1 }
    return ByteSpan(start, end)
  }

  /// Whether `byte` is an ASCII digit, `0` to `9`.
  @inlinable
  package static func isDigit(_ byte: UInt8) -> Bool {
    byte >= 0x30 && byte <= 0x39
  }
}
