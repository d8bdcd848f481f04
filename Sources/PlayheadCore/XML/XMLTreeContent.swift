/// One piece of an element's content in document order, kept when `XMLTreeReader` is asked
/// to keep mixed content (`keepingContent: true`), for documents whose meaning depends on
/// where text and elements interleave (TTML's `<p>Line one<br/>Line two</p>`).
///
/// ```swift
/// let p = try XMLTreeReader.parse(Data("<p>a<br/>b</p>".utf8), keepingContent: true)
/// // p.content == [.text("a"), .element(0), .text("b")]
/// ```
public enum XMLTreeContent: Sendable, Equatable {
  /// Character data or CDATA as written between markup: untrimmed, references decoded.
  case text(String)
  /// The child element at this index of `children`.
  case element(Int)
}
