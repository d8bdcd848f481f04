import Foundation

/// An ad response of either kind, sniffed by its root element (never by its name or
/// Content-Type): a VMAP playlist or a VAST response.
public enum AdDocument: Sendable, Equatable {
  case vmap(VMAPDocument)
  case vast(VASTDocument)

  /// Parses `data` as VMAP when its root is `<VMAP>`, as VAST otherwise (so that a root
  /// that is neither gets VAST's error 101, and input that is not XML VAST's error 100).
  public static func parse(
    _ data: Data, limits: AdXMLLimits = .default
  ) throws(AdDocumentError) -> AdDocument {
    let root: AdXMLElement
    do {
      root = try AdXMLReader.parse(data, limits: limits)
    } catch {
      throw .vast(VASTError(.xmlParsing, error.description, xmlError: error))
    }
    if root.name == "VMAP" {
      do { return .vmap(try VMAPParser.parse(root: root)) } catch { throw .vmap(error) }
    }
    do { return .vast(try VASTParser.parse(root: root)) } catch { throw .vast(error) }
  }
}

/// Why `AdDocument.parse` failed: the VAST or the VMAP error.
public enum AdDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
  case vast(VASTError)
  case vmap(VMAPError)

  /// The VAST or VMAP error's description.
  public var description: String {
    switch self {
    case .vast(let error): return error.description
    case .vmap(let error): return error.description
    }
  }
}
