extension AdXMLElement {
  /// The element written back as XML, with its qualified names, attributes sorted by name,
  /// its text before its children, and `&`, `<`, `>` and `"` escaped (in attribute values
  /// also tab, CR and LF, which a reader would turn into spaces).
  ///
  /// This is how kept parts (`<Extension>`, `<CustomAdData>`) are handed on: equivalent to
  /// the original for a reader that ignores white space and attribute order, not a byte
  /// copy (comments and processing instructions are gone; CDATA becomes escaped text).
  public var xmlString: String {
    var output = ""
    write(to: &output)
    return output
  }

  private func write(to output: inout String) {
    output += "<" + qualifiedName
    for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
      output += " \(key)=\"\(Self.escape(value, quote: true))\""
    }
    if text.isEmpty && children.isEmpty {
      output += "/>"
      return
    }
    output += ">" + Self.escape(text, quote: false)
    for child in children { child.write(to: &output) }
    output += "</\(qualifiedName)>"
  }

  /// `text` with the markup characters escaped, scalar by scalar (a `&` followed by a
  /// combining mark is one `Character` but still a `&`).
  static func escape(_ text: String, quote: Bool) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"" where quote: result += "&quot;"
      case "\t" where quote: result += "&#9;"
      case "\n" where quote: result += "&#10;"
      case "\r" where quote: result += "&#13;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
