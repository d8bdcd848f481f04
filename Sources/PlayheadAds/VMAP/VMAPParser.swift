import Foundation
import PlayheadCore

/// Parses VMAP 1.0 playlists into `VMAPDocument`s.
///
/// Elements are matched by local name: `vmap:` prefixes, other prefixes, undeclared ones
/// and un-prefixed elements inside a prefixed document all read the same. Fatal problems
/// throw a `VMAPError`: 1002 for XML the reader refuses, 1000 for a root that is not
/// `<VMAP>`, 1001 for a major version other than 1. An `<AdBreak>` whose `timeOffset` is
/// missing or unreadable is dropped with a warning; inline VAST that cannot be used is kept
/// as `.invalidVASTAdData` with its VAST error.
///
/// Example:
/// ```swift
/// let vmap = try VMAPParser.parse(data)
/// for adBreak in vmap.adBreaks { print(adBreak.timeOffset, adBreak.breakType.names) }
/// ```
public enum VMAPParser {
  /// Parses a VMAP playlist from its bytes.
  public static func parse(
    _ data: Data, limits: AdXMLLimits = .default
  ) throws(VMAPError) -> VMAPDocument {
    let root: AdXMLElement
    do {
      root = try AdXMLReader.parse(data, limits: limits)
    } catch {
      throw VMAPError(VMAPError.parsingError, error.description, xmlError: error)
    }
    return try parse(root: root)
  }

  /// Parses a VMAP playlist from an element tree whose root is `<VMAP>`.
  public static func parse(root: AdXMLElement) throws(VMAPError) -> VMAPDocument {
    guard root.name == "VMAP" else {
      throw VMAPError(
        VMAPError.schemaError, path: "/\(root.name)", "the root is <\(root.name)>, not <VMAP>")
    }
    var warnings: [String] = []
    let version = root.attribute("version")
    if let version {
      guard version.split(separator: ".").first == "1" else {
        throw VMAPError(
          VMAPError.versionNotSupported, path: "/VMAP", "VMAP version \(version) is not supported")
      }
    } else {
      warnings.append("/VMAP: no version attribute; read as VMAP 1.0")
    }
    var breaks: [VMAPAdBreak] = []
    for (index, element) in root.children("AdBreak").enumerated() {
      let path = "/VMAP/AdBreak[\(index + 1)]"
      guard let text = element.attribute("timeOffset"), let offset = VMAPTimeOffset(text) else {
        warnings.append("\(path): missing or unreadable timeOffset; break dropped")
        continue
      }
      var adBreak = VMAPAdBreak(
        timeOffset: offset,
        breakType: element.attribute("breakType").map(VMAPBreakType.init(parsing:)) ?? .linear,
        breakID: element.attribute("breakId"))
      if let repeatText = element.attribute("repeatAfter") {
        adBreak.repeatAfter = VASTTime.parse(repeatText)
        if adBreak.repeatAfter == nil {
          warnings.append("\(path): repeatAfter \"\(repeatText)\" is not a time")
        }
      }
      if let source = element.child("AdSource") {
        adBreak.adSource = adSource(source)
      }
      var context = VASTParseContext()
      adBreak.trackingEvents = context.tracking(element, path: path + "/TrackingEvents")
      warnings += context.warnings
      adBreak.extensions = element.children(of: "Extensions", named: "Extension").map(\.xmlString)
      breaks.append(adBreak)
    }
    return VMAPDocument(
      version: version, adBreaks: breaks,
      extensions: root.children(of: "Extensions", named: "Extension").map(\.xmlString),
      warnings: warnings)
  }

  static func adSource(_ element: AdXMLElement) -> VMAPAdSource {
    func flag(_ name: String) -> Bool {
      element.attribute(name)?.lowercased() != "false" && element.attribute(name) != "0"
    }
    var source = VMAPAdSource(
      id: element.attribute("id"), allowMultipleAds: flag("allowMultipleAds"),
      followRedirects: flag("followRedirects"), content: .none)
    if let holder = element.child("VASTAdData") ?? element.child("VASTData") {
      source.inlineElementName = holder.name
      if let vast = holder.children.first {
        do {
          source.content = .vastAdData(try VASTParser.parse(root: vast))
        } catch {
          source.content = .invalidVASTAdData(error)
        }
      } else {
        source.content = .invalidVASTAdData(
          VASTError(.noAd, path: "/VMAP/AdBreak/AdSource/\(holder.name)", "no <VAST> inside"))
      }
    } else if let tag = element.child("AdTagURI") {
      source.content = .adTagURI(uri: tag.text, templateType: tag.attribute("templateType"))
    } else if let custom = element.child("CustomAdData") {
      source.content = .customAdData(
        templateType: custom.attribute("templateType"), xml: custom.xmlString)
    }
    return source
  }
}
