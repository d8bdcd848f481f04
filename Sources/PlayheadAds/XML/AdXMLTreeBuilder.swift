import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The `XMLParser` delegate behind `AdXMLReader`: builds the tree on a stack and records
/// the first fatal problem, aborting the parse there.
final class AdXMLTreeBuilder: NSObject, XMLParserDelegate {
  let limits: AdXMLLimits
  /// The parser being run, to abort it (cleared after the run, breaking the cycle).
  weak var parser: XMLParser?
  private(set) var root: AdXMLElement?
  private(set) var failure: AdXMLError?
  private var stack: [AdXMLElement] = []
  private var texts: [String] = []
  private var elementCount = 0

  init(limits: AdXMLLimits) {
    self.limits = limits
  }

  /// Namespace errors (libxml2's codes 200-299, an undeclared prefix for one) are not
  /// fatal: prefixes are stripped anyway.
  static func isFatal(_ code: Int) -> Bool { !(200..<300).contains(code) }

  private func fail(_ error: AdXMLError) {
    guard failure == nil else { return }
    failure = error
    parser?.abortParsing()
  }

  private var line: Int { parser?.lineNumber ?? 0 }

  static func localName(_ name: String) -> String {
    guard let colon = name.lastIndex(of: ":") else { return name }
    return String(name[name.index(after: colon)...])
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    guard failure == nil else { return }
    elementCount += 1
    if elementCount > limits.maxElements {
      return fail(
        AdXMLError(.limitExceeded, line: line, "more than \(limits.maxElements) elements"))
    }
    if stack.count + 1 > limits.maxDepth {
      return fail(
        AdXMLError(
          .limitExceeded, line: line, "elements nested deeper than \(limits.maxDepth)"))
    }
    if root != nil {
      return fail(AdXMLError(.malformed, line: line, "content after the root element"))
    }
    var attributes: [String: String] = [:]
    for (key, value) in attributeDict {
      if key == "xmlns" || key.hasPrefix("xmlns:") {
        attributes[key] = value
      } else {
        attributes[Self.localName(key)] = value
      }
    }
    stack.append(
      AdXMLElement(
        name: Self.localName(elementName), qualifiedName: elementName, attributes: attributes,
        line: line))
    texts.append("")
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    guard failure == nil, var element = stack.popLast(), let text = texts.popLast() else {
      return
    }
    element.text = text.trimmingXMLSpace
    if stack.isEmpty {
      root = element
    } else {
      stack[stack.count - 1].children.append(element)
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard failure == nil, !texts.isEmpty else { return }
    texts[texts.count - 1] += string
  }

  func parser(_ parser: XMLParser, foundCDATA block: Data) {
    guard failure == nil, !texts.isEmpty else { return }
    texts[texts.count - 1] += String(decoding: block, as: UTF8.self)
  }

  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
    let code = (parseError as NSError).code
    guard Self.isFatal(code) else { return }
    fail(AdXMLError(.malformed, line: line, "not well-formed XML (parser error \(code))"))
  }

  func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
    let code = (validationError as NSError).code
    fail(AdXMLError(.malformed, line: line, "not valid XML (parser error \(code))"))
  }

  func parser(
    _ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?
  ) {
    fail(AdXMLError(.entityRefused, line: line, "entity declaration '\(name)' refused"))
  }

  func parser(
    _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?,
    systemID: String?
  ) {
    fail(AdXMLError(.entityRefused, line: line, "external entity '\(name)' refused"))
  }

  func parser(
    _ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?
  ) -> Data? {
    fail(AdXMLError(.entityRefused, line: line, "external entity '\(name)' refused"))
    return nil
  }

  func parserDidEndDocument(_ parser: XMLParser) {
    if failure == nil && (root == nil || !stack.isEmpty) {
      fail(AdXMLError(.malformed, line: line, "document ends inside an element"))
    }
  }
}
