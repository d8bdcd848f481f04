import Foundation

/// One element of an XML document as `XMLTreeReader` builds it: its local name, attributes
/// by local name, trimmed text and child elements (ad documents, MPDs).
///
/// Names lose any namespace prefix (`vmap:AdBreak` is `AdBreak`), because servers declare
/// namespaces inconsistently (default namespaces, undeclared prefixes); the documents read
/// this way (VAST, VMAP, MPD) never use one name for two meanings. `text` joins the element's own character data and
/// CDATA sections (not its children's), trimmed of leading and trailing white space.
public struct XMLTreeElement: Sendable, Equatable {
  /// The name without its prefix (`AdBreak` for `vmap:AdBreak`).
  public var name: String
  /// The name as written, with its prefix (for re-serializing kept elements).
  public var qualifiedName: String
  /// The attributes by local name; an `xmlns` declaration is kept under its written name.
  public var attributes: [String: String]
  /// The element's own text and CDATA, trimmed.
  public var text: String
  /// The child elements in document order.
  public var children: [XMLTreeElement]
  /// Where the element starts in its document (1-based line; 0 when unknown).
  public var line: Int
  /// Text and children in document order, when the reader kept them
  /// (`XMLTreeReader.parse(_:limits:keepingContent:)`); empty otherwise.
  public var content: [XMLTreeContent] = []

  public init(
    name: String, qualifiedName: String? = nil, attributes: [String: String] = [:],
    text: String = "", children: [XMLTreeElement] = [], line: Int = 0
  ) {
    self.name = name
    self.qualifiedName = qualifiedName ?? name
    self.attributes = attributes
    self.text = text
    self.children = children
    self.line = line
  }

  /// The first child named `name` (local name, case-sensitive), if any.
  public func child(_ name: String) -> XMLTreeElement? {
    children.first { $0.name == name }
  }

  /// Every child named `name`, in document order.
  public func children(_ name: String) -> [XMLTreeElement] {
    children.filter { $0.name == name }
  }

  /// The children of the first child named `container` that are named `name`
  /// (`children(of: "TrackingEvents", named: "Tracking")`); empty when there is none.
  public func children(of container: String, named name: String) -> [XMLTreeElement] {
    children(container).flatMap { $0.children(name) }
  }

  /// The value of the attribute `name` (local name), trimmed; nil when absent or empty.
  public func attribute(_ name: String) -> String? {
    guard let value = attributes[name] else { return nil }
    let trimmed = value.trimmingXMLSpace
    return trimmed.isEmpty ? nil : trimmed
  }

  /// The text of the first child named `name`, when it is not empty.
  public func childText(_ name: String) -> String? {
    guard let text = child(name)?.text, !text.isEmpty else { return nil }
    return text
  }
}
