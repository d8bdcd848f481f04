/// The single pass behind `XMLTreeReader`: markup and text in order, the open elements on
/// a stack, each element's text gathered as bytes and trimmed when it closes.
struct XMLScanner {
  let bytes: [UInt8]
  let limits: XMLTreeLimits
  /// Whether elements get their `content` (text pieces and children in order).
  let keepsContent: Bool
  var position = 0
  var line = 1
  var stack: [Frame] = []
  var root: XMLTreeElement?
  var elementCount = 0

  /// An open element and its text so far.
  struct Frame {
    var element: XMLTreeElement
    var text: [UInt8] = []
    /// How much of `text` is already in the element's `content`.
    var kept = 0
  }

  init(bytes: [UInt8], limits: XMLTreeLimits, keepsContent: Bool = false) {
    self.bytes = bytes
    self.limits = limits
    self.keepsContent = keepsContent
  }

  static let lessThan = UInt8(ascii: "<")
  static let greaterThan = UInt8(ascii: ">")
  static let ampersand = UInt8(ascii: "&")
  static let slash = UInt8(ascii: "/")
  static let newline = UInt8(ascii: "\n")

  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  func failure(_ kind: XMLTreeError.Kind, _ message: String) -> XMLTreeError {
    XMLTreeError(kind, line: line, message)
  }

  /// A `.malformed` error at the current line.
  func failure(_ message: String) -> XMLTreeError { failure(.malformed, message) }

  mutating func run() throws(XMLTreeError) -> XMLTreeElement {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    while position < bytes.count {
      if bytes[position] == Self.lessThan {
        try markup()
      } else {
        try characters()
      }
    }
    guard stack.isEmpty else { throw failure("document ends inside an element") }
    guard let root else { throw failure("no root element") }
    return root
  }

  // MARK: Text

  /// Character data up to the next `<`: the open element's text (entities decoded); only
  /// white space outside the root.
  private mutating func characters() throws(XMLTreeError) {
    let start = position
    var hasReference = false
    while position < bytes.count {
      let byte = bytes[position]
      if byte == Self.lessThan { break }
      if byte == Self.newline {
        line += 1
      } else if byte == Self.ampersand {
        hasReference = true
      }
      position += 1
    }
    guard !stack.isEmpty else {
      if bytes[start..<position].contains(where: { !Self.isSpace($0) }) {
        throw failure(
          root == nil ? "text before the root element" : "content after the root element")
      }
      return
    }
    if hasReference {
      var decoded: [UInt8] = []
      try decodeReferences(start..<position, into: &decoded, normalizingSpace: false)
      stack[stack.count - 1].text.append(contentsOf: decoded)
    } else {
      stack[stack.count - 1].text.append(contentsOf: bytes[start..<position])
    }
  }

  // MARK: Markup

  private mutating func markup() throws(XMLTreeError) {
    let next = position + 1 < bytes.count ? bytes[position + 1] : 0
    switch next {
    case UInt8(ascii: "?"): try processingInstruction()
    case UInt8(ascii: "!"): try declarationOrSection()
    case Self.slash: try endTag()
    default: try startTag()
    }
  }

  /// `<?…?>`: skipped, except that an XML declaration must not name another encoding.
  private mutating func processingInstruction() throws(XMLTreeError) {
    let start = position + 2
    guard let end = find([UInt8(ascii: "?"), Self.greaterThan], from: start) else {
      throw failure("unterminated processing instruction")
    }
    let body = bytes[start..<end]
    if body.starts(with: Array("xml ".utf8)) || body.elementsEqual(Array("xml".utf8)) {
      try checkEncoding(String(decoding: body, as: UTF8.self))
    }
    position = end + 2
  }

  private func checkEncoding(_ declaration: String) throws(XMLTreeError) {
    guard let range = declaration.range(of: "encoding") else { return }
    let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return }
    let name = rest.dropFirst().prefix { $0 != quote }.lowercased()
    guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(name) else {
      throw failure(
        .unsupportedEncoding, "encoding '\(Self.excerpt(name))' is not read (UTF-8 only)")
    }
  }

  /// `<!--…-->` (skipped), `<![CDATA[…]]>` (text), or a refused declaration.
  private mutating func declarationOrSection() throws(XMLTreeError) {
    if starts(with: "<!--") {
      guard let end = find(Array("-->".utf8), from: position + 4) else {
        throw failure("unterminated comment")
      }
      position = end + 3
      return
    }
    if starts(with: "<![CDATA[") {
      let start = position + 9
      guard let end = find(Array("]]>".utf8), from: start) else {
        throw failure("unterminated CDATA section")
      }
      guard !stack.isEmpty else { throw failure("CDATA outside the root element") }
      stack[stack.count - 1].text.append(contentsOf: bytes[start..<end])
      position = end + 3
      return
    }
    if starts(with: "<!DOCTYPE", ignoringCase: true) {
      throw failure(.doctypeRefused, "DOCTYPE declarations are refused")
    }
    if starts(with: "<!ENTITY", ignoringCase: true) {
      throw failure(.entityRefused, "ENTITY declarations are refused")
    }
    throw failure("unknown markup declaration")
  }

  private mutating func startTag() throws(XMLTreeError) {
    let tagLine = line
    position += 1
    let qualified = try name(what: "element")
    elementCount += 1
    if elementCount > limits.maxElements {
      throw failure(.limitExceeded, "more than \(limits.maxElements) elements")
    }
    if stack.count + 1 > limits.maxDepth {
      throw failure(.limitExceeded, "elements nested deeper than \(limits.maxDepth)")
    }
    if stack.isEmpty && root != nil { throw failure("content after the root element") }
    var attributes: [String: String] = [:]
    var written: [String] = []
    while true {
      let spaced = skipSpace()
      guard position < bytes.count else { throw failure("document ends inside a tag") }
      let byte = bytes[position]
      if byte == Self.greaterThan {
        position += 1
        open(qualified, attributes: attributes, line: tagLine)
        return
      }
      if byte == Self.slash {
        guard position + 1 < bytes.count, bytes[position + 1] == Self.greaterThan else {
          throw failure("'/' in a tag must end it ('/>')")
        }
        position += 2
        open(qualified, attributes: attributes, line: tagLine)
        close()
        return
      }
      guard spaced else { throw failure("attributes must be separated by white space") }
      let key = try name(what: "attribute")
      guard !written.contains(key) else {
        throw failure("attribute '\(Self.excerpt(key))' given twice")
      }
      written.append(key)
      _ = skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
        throw failure("attribute '\(Self.excerpt(key))' has no value")
      }
      position += 1
      _ = skipSpace()
      let value = try attributeValue(of: key)
      let isDeclaration = key == "xmlns" || key.hasPrefix("xmlns:")
      attributes[isDeclaration ? key : Self.localName(key)] = value
    }
  }

  /// A quoted attribute value, references decoded and white space characters made spaces.
  private mutating func attributeValue(of key: String) throws(XMLTreeError) -> String {
    guard position < bytes.count,
      bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
    else { throw failure("the value of attribute '\(Self.excerpt(key))' is not quoted") }
    let quote = bytes[position]
    position += 1
    let start = position
    var plain = true
    while position < bytes.count, bytes[position] != quote {
      let byte = bytes[position]
      if byte == Self.lessThan {
        throw failure("'<' in the value of attribute '\(Self.excerpt(key))'")
      }
      if byte == Self.newline { line += 1 }
      if byte == Self.ampersand || byte == 0x09 || byte == 0x0A || byte == 0x0D { plain = false }
      position += 1
    }
    guard position < bytes.count else {
      throw failure("unterminated value of attribute '\(Self.excerpt(key))'")
    }
    let range = start..<position
    position += 1
    if plain { return String(decoding: bytes[range], as: UTF8.self) }
    var decoded: [UInt8] = []
    try decodeReferences(range, into: &decoded, normalizingSpace: true)
    return String(decoding: decoded, as: UTF8.self)
  }

  private mutating func endTag() throws(XMLTreeError) {
    position += 2
    let start = position
    _ = try name(what: "end tag")
    let written = bytes[start..<position]
    _ = skipSpace()
    guard position < bytes.count, bytes[position] == Self.greaterThan else {
      throw failure("end tag not closed with '>'")
    }
    position += 1
    guard let top = stack.last else { throw failure("end tag without a start tag") }
    guard top.element.qualifiedName.utf8.elementsEqual(written) else {
      throw failure(
        "end tag '\(Self.excerpt(String(decoding: written, as: UTF8.self)))' does not match "
          + "'\(Self.excerpt(top.element.qualifiedName))'")
    }
    close()
  }

  private mutating func open(_ qualified: String, attributes: [String: String], line: Int) {
    keepText()
    stack.append(
      Frame(
        element: XMLTreeElement(
          name: Self.localName(qualified), qualifiedName: qualified, attributes: attributes,
          line: line)))
  }

  /// Closes the innermost element: its text trimmed, then into its parent (or the root).
  private mutating func close() {
    keepText()
    var frame = stack.removeLast()
    let text = frame.text
    if let first = text.firstIndex(where: { !Self.isSpace($0) }),
      let last = text.lastIndex(where: { !Self.isSpace($0) })
    {
      frame.element.text = String(decoding: text[first...last], as: UTF8.self)
    }
    if stack.isEmpty {
      root = frame.element
    } else {
      let parent = stack.count - 1
      if keepsContent {
        stack[parent].element.content.append(.element(stack[parent].element.children.count))
      }
      stack[parent].element.children.append(frame.element)
    }
  }

  /// Moves the innermost element's text since its last piece into its `content`.
  private mutating func keepText() {
    guard keepsContent, let top = stack.indices.last else { return }
    let kept = stack[top].kept
    let count = stack[top].text.count
    guard count > kept else { return }
    let piece = String(decoding: stack[top].text[kept..<count], as: UTF8.self)
    stack[top].element.content.append(.text(piece))
    stack[top].kept = count
  }

  // MARK: Pieces

  /// A name at the position (letters, digits, `_`, `-`, `.`, `:` and any non-ASCII), not
  /// starting with a digit, `-` or `.`, nor with its local part (after the last `:`) so, and
  /// not ending with `:`.
  private mutating func name(what: String) throws(XMLTreeError) -> String {
    let start = position
    while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
    guard position > start else { throw failure("missing \(what) name") }
    guard bytes[position - 1] != UInt8(ascii: ":") else {
      throw failure("\(what) name ends with ':' (no local name)")
    }
    // The name and its local part (after the last ':') must each start like a name.
    let local = (bytes[start..<position].lastIndex(of: UInt8(ascii: ":")) ?? start - 1) + 1
    for first in [bytes[start], bytes[local]]
    where (0x30...0x39).contains(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: ".")
    {
      throw failure("\(what) name starts with '\(Character(Unicode.Scalar(first)))'")
    }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
      UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...0xFF:
      return true
    default:
      return false
    }
  }

  /// Skips white space; whether there was any.
  private mutating func skipSpace() -> Bool {
    let start = position
    while position < bytes.count, Self.isSpace(bytes[position]) {
      if bytes[position] == Self.newline { line += 1 }
      position += 1
    }
    return position > start
  }

  private func starts(with text: String, ignoringCase: Bool = false) -> Bool {
    let wanted = Array(text.utf8)
    guard position + wanted.count <= bytes.count else { return false }
    for (offset, byte) in wanted.enumerated() {
      let actual = bytes[position + offset]
      let same =
        ignoringCase
        ? (actual | 0x20) == (byte | 0x20) || actual == byte : actual == byte
      if !same { return false }
    }
    return true
  }

  /// The index where `marker` next starts at or after `start`, counting the lines passed.
  private mutating func find(_ marker: [UInt8], from start: Int) -> Int? {
    var index = start
    let first = marker[0]
    while index + marker.count <= bytes.count {
      let byte = bytes[index]
      if byte == Self.newline { line += 1 }
      if byte == first && bytes[index..<index + marker.count].elementsEqual(marker) {
        return index
      }
      index += 1
    }
    return nil
  }

  /// Text from the input as a message quotes it: on one line, at most 40 characters.
  static func excerpt(_ text: some StringProtocol) -> String {
    let line = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    return line.count > 40 ? String(line.prefix(40)) + "…" : line
  }

  static func localName(_ name: String) -> String {
    guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return name }
    return String(name[name.utf8.index(after: colon)...])
  }
}
