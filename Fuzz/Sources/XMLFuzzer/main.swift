import CFuzzerDriver
import Foundation
import FuzzSupport
import PlayheadAds
import PlayheadCore

/// The executable's entry point (SwiftPM defines `main` as `XMLFuzzer_main`): hands the
/// command line to libFuzzer's driver.
@_cdecl("XMLFuzzer_main")
public func xmlFuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    xmlFuzzerTestOneInput(data.map(UnsafeRawPointer.init), size)
  }
}

/// Small limits, used for inputs whose length is a multiple of 3, to reach the limit paths.
private let smallLimits = XMLTreeLimits(maxBytes: 4096, maxDepth: 6, maxElements: 40)

/// The element without its line numbers (a written tree is on one line).
private struct Shape: Equatable, CustomStringConvertible {
  var name: String
  var qualifiedName: String
  var attributes: [String: String]
  var text: String
  var children: [Shape]

  init(_ element: XMLTreeElement) {
    name = element.name
    qualifiedName = element.qualifiedName
    attributes = element.attributes
    text = element.text
    children = element.children.map(Shape.init)
  }

  var description: String { "\(qualifiedName)\(attributes) '\(text)' \(children)" }
}

/// The libFuzzer entry point: the input is an XML document (a VAST, a VMAP, an MPD).
///
/// Checks that the reader ends in a tree or a typed one-line error; that a tree written
/// back (`xmlString`) reads back to the same tree and writes the same text; and that the
/// VAST and VMAP parsers end in a document or a typed error on it. Any trap is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func xmlFuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = start.map { Data(bytes: $0, count: count) } ?? Data()
  let limits = count % 3 == 0 ? smallLimits : XMLTreeLimits()
  guard
    let root = typed({ () throws(XMLTreeError) in try XMLTreeReader.parse(data, limits: limits) })
  else { return 0 }
  checkRoundTrip(
    root, text: "document", model: "tree", write: { $0.xmlString },
    parse: { (text: String) throws(XMLTreeError) in
      try XMLTreeReader.parse(Data(text.utf8), limits: XMLTreeLimits(maxBytes: 1 << 24))
    }, compared: Shape.init)
  _ = try? AdDocument.parse(data)
  return 0
}
