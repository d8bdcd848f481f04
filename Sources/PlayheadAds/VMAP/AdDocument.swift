import Foundation
import PlayheadCore

/// An ad response of either kind, sniffed by its root element (never by its name or
/// Content-Type): a VMAP playlist or a VAST response.
public enum AdDocument: Sendable, Equatable {
  case vmap(VMAPDocument)
  case vast(VASTDocument)

  /// Parses `data` as VMAP when its root is `<VMAP>`, as VAST otherwise (so that a root
  /// that is neither gets VAST's error 101).
  ///
  /// Input that is not well-formed XML gets VMAP's error 1002 when its first start tag is
  /// (a prefixed) `VMAP`, VAST's error 100 otherwise.
  public static func parse(
    _ data: Data, limits: AdXMLLimits = .default
  ) throws(AdDocumentError) -> AdDocument {
    let root: AdXMLElement
    do {
      root = try AdXMLReader.parse(data, limits: limits)
    } catch {
      // Not XML: the first start tag still tells which kind was meant.
      if firstElementName(in: data) == "VMAP" {
        throw .vmap(VMAPError(VMAPError.parsingError, error.description, xmlError: error))
      }
      throw .vast(VASTError(.xmlParsing, error.description, xmlError: error))
    }
    if root.name == "VMAP" {
      do { return .vmap(try VMAPParser.parse(root: root)) } catch { throw .vmap(error) }
    }
    do { return .vast(try VASTParser.parse(root: root)) } catch { throw .vast(error) }
  }
}

/// The local name of the first start tag of `data` (skipping the XML declaration,
/// comments and processing instructions), read from at most its first 4 KiB.
func firstElementName(in data: Data) -> String? {
  let bytes = data.prefix(4096)
  var index = bytes.startIndex
  while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
    let next = bytes.index(after: open)
    guard next < bytes.endIndex else { return nil }
    if bytes[next] == UInt8(ascii: "?") || bytes[next] == UInt8(ascii: "!") {
      index = next
      continue
    }
    let name = bytes[next...].prefix { byte in
      !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x3E
        || byte == 0x2F)
    }
    let text = String(decoding: name, as: UTF8.self)
    return text.split(separator: ":").last.map(String.init)
  }
  return nil
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
