/// A half-open range `[start, end)` of byte offsets into the text a parser reads.
///
/// A span whose `end` is not after its `start` is empty; `count` is then zero or negative,
/// and every `ByteText` helper treats it as holding no bytes.
@usableFromInline
package struct ByteSpan: Equatable, Sendable {
  // `@usableFromInline` on the type and its stored properties lets the `@inlinable` members
  // inline into the parsers of other modules; without it they silently stay calls.
  @usableFromInline package var start: Int
  @usableFromInline package var end: Int

  @inlinable
  package init(_ start: Int, _ end: Int) {
    self.start = start
    self.end = end
  }

  @inlinable
  package var count: Int { end - start }

  @inlinable
  package var isEmpty: Bool { start >= end }
}
