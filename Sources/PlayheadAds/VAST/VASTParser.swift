import Foundation
import PlayheadCore

/// Parses VAST 2.0, 3.0 and 4.0 to 4.3 responses into `VASTDocument`s.
///
/// Elements are matched by local name, so a default namespace (`xmlns="http://www.iab.com/VAST"`)
/// or prefixes change nothing. Fatal problems throw a `VASTError` with its IAB code: 100 for
/// XML the reader refuses (malformed, DTD, limits), 101 for a root that is not `<VAST>`, 102
/// for VAST 1 (`<VideoAdServingTemplate>`) or a version whose major number is not 2, 3 or 4.
/// Everything else is lenient and noted in `warnings`: an `<Ad>` with neither `<InLine>`
/// nor `<Wrapper>` is dropped, unparseable numbers and durations become nil, a Wrapper
/// without a tag URI is dropped, a missing `version` is accepted.
///
/// Example:
/// ```swift
/// let document = try VASTParser.parse(data)
/// for ad in document.podAds { print(ad.id ?? "-", ad.linear?.duration ?? .invalid) }
/// ```
public enum VASTParser {
  /// The VAST major versions understood.
  public static let supportedMajorVersions: Set<Int> = [2, 3, 4]

  /// Parses a VAST response from its bytes.
  public static func parse(
    _ data: Data, limits: AdXMLLimits = .default
  ) throws(VASTError) -> VASTDocument {
    let root: AdXMLElement
    do {
      root = try AdXMLReader.parse(data, limits: limits)
    } catch {
      throw VASTError(.xmlParsing, error.description, xmlError: error)
    }
    return try parse(root: root)
  }

  /// Parses a VAST response from an element tree whose root is `<VAST>` (a VMAP's inline
  /// `VASTAdData` content, for one).
  public static func parse(root: AdXMLElement) throws(VASTError) -> VASTDocument {
    switch root.name {
    case "VAST": break
    case "VideoAdServingTemplate":
      throw VASTError(
        .versionNotSupported, path: "/\(root.name)",
        "VAST 1.0 (<VideoAdServingTemplate>) is not supported")
    default:
      throw VASTError(
        .schemaValidation, path: "/\(root.name)", "the root is <\(root.name)>, not <VAST>")
    }
    var context = VASTParseContext()
    let version = root.attribute("version")
    if let version {
      let major = version.split(separator: ".").first.flatMap { Int($0) }
      guard let major, supportedMajorVersions.contains(major) else {
        throw VASTError(
          .versionNotSupported, path: "/VAST", "VAST version \(version) is not supported")
      }
    } else {
      context.warn("/VAST", "no version attribute; read as VAST 4")
    }
    var ads: [VASTAd] = []
    for (index, element) in root.children("Ad").enumerated() {
      if let ad = context.ad(element, path: "/VAST/Ad[\(index + 1)]") { ads.append(ad) }
    }
    return VASTDocument(
      version: version, ads: ads, errorURLs: VASTParseContext.urls(root.children("Error")),
      warnings: context.warnings)
  }
}
