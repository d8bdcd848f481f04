import Foundation

/// Reads an XML document into an `XMLTreeElement` tree with Playhead's own byte scanner,
/// refusing what could harm the player (ad documents, MPDs).
///
/// Only UTF-8 is read (a UTF-8 byte-order mark is skipped; UTF-16/32, NUL bytes, invalid
/// sequences and any other declared encoding are refused). A `<!DOCTYPE` is refused, so no
/// DTD is read and no entity can be declared: references other than XML's five predefined
/// ones and character references are refused too, and nothing is ever fetched. Comments
/// and processing instructions are skipped; CDATA joins the element's text. Size, depth
/// and element count are bounded by `limits`, and the work is linear in the input's size:
/// one pass, no backtracking.
///
/// Example:
/// ```swift
/// let root = try XMLTreeReader.parse(Data("<MPD><Period/></MPD>".utf8))
/// print(root.children.map(\.name))  // ["Period"]
/// ```
public enum XMLTreeReader {
  /// Parses `data` into its root element; throws `XMLTreeError` for refused or malformed
  /// input.
  ///
  /// With `keepingContent`, every element also gets its `content`: its text pieces
  /// (untrimmed) and children in document order, for mixed content such as TTML.
  public static func parse(
    _ data: Data, limits: XMLTreeLimits = XMLTreeLimits(), keepingContent: Bool = false
  ) throws(XMLTreeError) -> XMLTreeElement {
    guard data.count <= limits.maxBytes else {
      throw XMLTreeError(
        .limitExceeded, "document is \(data.count) bytes, over the limit of \(limits.maxBytes)")
    }
    let bytes = [UInt8](data)
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.contains(0) {
      throw XMLTreeError(.unsupportedEncoding, "not UTF-8 text (UTF-16/32 or NUL bytes)")
    }
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw XMLTreeError(.unsupportedEncoding, "not UTF-8 text (invalid byte sequences)")
    }
    if bytes.allSatisfy(XMLScanner.isSpace) {
      throw XMLTreeError(.empty, "empty document")
    }
    var scanner = XMLScanner(bytes: bytes, limits: limits, keepsContent: keepingContent)
    return try scanner.run()
  }
}
