import Foundation
import PlayheadCore

/// The paragraphs of one TTML document (an `stpp` sample) as plain-text cues: every `<p>`
/// with its begin and end (a `dur` counts from the begin; times inherit the begins of the
/// `body` and `div`s around them, and are cut at their ends), its text flattened (`<br/>`
/// a line break, spans and other elements by their text, white space collapsed).
struct TTMLCueReader {
  /// A paragraph; `end` nil when the document leaves it open (it lasts to the sample's end).
  struct Paragraph {
    var begin: Double
    var end: Double?
    var text: String
  }

  let times: TTMLTimeExpression

  /// The paragraphs of `document` (its root is `tt`), in document order; ones whose times do
  /// not read are left out.
  static func paragraphs(of document: XMLTreeElement, limit: Int) -> [Paragraph] {
    let reader = TTMLCueReader(times: TTMLTimeExpression(parameters: document.attributes))
    var result: [Paragraph] = []
    for body in document.children("body") {
      reader.walk(body, begin: 0, end: nil, into: &result, limit: limit)
    }
    return result
  }

  private func walk(
    _ element: XMLTreeElement, begin parentBegin: Double, end parentEnd: Double?,
    into result: inout [Paragraph], limit: Int
  ) {
    guard result.count < limit else { return }
    guard let (begin, end) = timing(of: element, parentBegin: parentBegin, parentEnd: parentEnd)
    else { return }
    if element.name == "p" {
      result.append(Paragraph(begin: begin, end: end, text: Self.text(of: element)))
      return
    }
    for child in element.children where child.name == "div" || child.name == "p" {
      walk(child, begin: begin, end: end, into: &result, limit: limit)
    }
  }

  /// The element's interval: its `begin` after its parent's, its `end` (or `begin + dur`)
  /// from the parent's begin, cut at the parent's end. Nil when a time does not read.
  private func timing(of element: XMLTreeElement, parentBegin: Double, parentEnd: Double?)
    -> (Double, Double?)?
  {
    var begin = parentBegin
    if let text = element.attributes["begin"] {
      guard let offset = times.seconds(text) else { return nil }
      begin += offset
    }
    var end: Double?
    if let text = element.attributes["end"] {
      guard let value = times.seconds(text) else { return nil }
      end = parentBegin + value
    }
    if let text = element.attributes["dur"] {
      guard let value = times.seconds(text) else { return nil }
      end = min(end ?? .infinity, begin + value)
    }
    if let parentEnd { end = min(end ?? parentEnd, parentEnd) }
    return (begin, end)
  }

  /// The element's text: pieces and children in order, `br` a line feed, white space runs one
  /// space, each line trimmed.
  static func text(of element: XMLTreeElement) -> String {
    var raw = ""
    append(element, to: &raw)
    return raw.split(separator: "\n", omittingEmptySubsequences: false)
      .map { line in
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(
          separator: " ")
      }
      .joined(separator: "\n")
  }

  private static func append(_ element: XMLTreeElement, to text: inout String) {
    for piece in element.content {
      switch piece {
      case .text(let run):
        text += run.map { $0 == "\n" || $0 == "\r\n" || $0 == "\t" ? " " : $0 }
          .reduce(into: "") { $0.append($1) }
      case .element(let index):
        guard element.children.indices.contains(index) else { continue }
        let child = element.children[index]
        if child.name == "br" {
          text += "\n"
        } else {
          append(child, to: &text)
        }
      }
    }
  }
}
