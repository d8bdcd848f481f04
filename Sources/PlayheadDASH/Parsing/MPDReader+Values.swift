import Foundation
import PlayheadCore

extension MPDReader {
  // MARK: Attribute values

  func duration(_ element: XMLTreeElement, _ name: String, _ path: String) throws(MPDError)
    -> MediaTime?
  {
    guard let text = element.attribute(name) else { return nil }
    guard let value = XSDuration.parse(text) else {
      throw MPDError(
        path: "\(path)/@\(name)", "'\(text)' is not an xs:duration (of at most 292 years)")
    }
    return value
  }

  func date(_ element: XMLTreeElement, _ name: String, _ path: String) throws(MPDError) -> Date? {
    guard let text = element.attribute(name) else { return nil }
    guard let value = XSDateTime.parse(text) else {
      throw MPDError(path: "\(path)/@\(name)", "'\(text)' is not an xs:dateTime")
    }
    return value
  }

  /// An `xs:double` of seconds (`INF` is `.positiveInfinity`, `-INF` `.negativeInfinity`),
  /// kept to the microsecond.
  func seconds(_ element: XMLTreeElement, _ name: String, _ path: String) throws(MPDError)
    -> MediaTime?
  {
    guard let text = element.attribute(name)?.trimmingCharacters(in: .whitespaces) else {
      return nil
    }
    switch text {
    case "INF": return .positiveInfinity
    case "-INF": return .negativeInfinity
    default:
      guard let value = Double(text), value.isFinite,
        text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) })
      else {
        throw MPDError(path: "\(path)/@\(name)", "'\(text)' is not a number of seconds")
      }
      return MediaTime(seconds: value, preferredTimescale: 1_000_000)
    }
  }

  /// A non-negative whole number.
  func integer(_ element: XMLTreeElement, _ name: String, _ path: String) throws(MPDError)
    -> Int64?
  {
    guard let text = element.attribute(name) else { return nil }
    guard let value = Int64(text), value >= 0 else {
      throw MPDError(path: "\(path)/@\(name)", "'\(text)' is not a non-negative integer")
    }
    return value
  }

  /// `first-last` (inclusive, as HTTP ranges).
  func byteRange(_ text: String?, _ path: String) throws(MPDError) -> ByteRange? {
    guard let text else { return nil }
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let first = Int64(parts[0]), let last = Int64(parts[1]),
      first >= 0, last >= first
    else {
      throw MPDError(path: path, "'\(text)' is not a byte range first-last")
    }
    return ByteRange(offset: first, length: last - first + 1)
  }

  func descriptors(_ element: XMLTreeElement, _ name: String) -> [MPDDescriptor] {
    element.children(name).compactMap { child in
      guard let scheme = child.attribute("schemeIdUri") else { return nil }
      return MPDDescriptor(
        schemeIDURI: scheme, value: child.attribute("value"), id: child.attribute("id"))
    }
  }

  // MARK: URLs

  /// `element`'s BaseURLs resolved against each of `parents` (none: the parents).
  func resolve(_ element: XMLTreeElement, path: String, against parents: [URL]) throws(MPDError)
    -> [URL]
  {
    let children = element.children("BaseURL")
    guard !children.isEmpty else { return parents }
    var result: [URL] = []
    for (index, child) in children.enumerated() {
      let childPath = "\(path)/BaseURL[\(index + 1)]"
      for parent in parents {
        let resolved = try resolveURL(child.text, against: parent, path: childPath)
        if !result.contains(resolved) { result.append(resolved) }
        // An absolute BaseURL is the same against every parent.
        if URL(string: child.text)?.scheme != nil { break }
      }
    }
    return result
  }

  /// `text` resolved against `base`; refused when it is not a URL, or when an MPD from the
  /// network names a local file.
  func resolveURL(_ text: String, against base: URL, path: String) throws(MPDError) -> URL {
    guard let resolved = URL(string: text, relativeTo: base)?.absoluteURL else {
      throw MPDError(path: path, "'\(text)' is not a URL")
    }
    if isRemote && resolved.isFileURL {
      throw MPDError(path: path, "an MPD from the network may not name a local file ('\(text)')")
    }
    return resolved
  }

  // MARK: Protection and events

  func contentProtections(_ element: XMLTreeElement, path: String) throws(MPDError)
    -> [MPDContentProtection]
  {
    var result: [MPDContentProtection] = []
    var defaultKID: String?
    for (index, child) in element.children("ContentProtection").enumerated() {
      let childPath = "\(path)/ContentProtection[\(index + 1)]"
      guard let scheme = child.attribute("schemeIdUri") else {
        throw MPDError(path: childPath + "/@schemeIdUri", "missing", clause: "5.8.4.1")
      }
      var kid: String?
      if let text = child.attribute("default_KID") {
        let ids = text.split(whereSeparator: \.isWhitespace)
        guard ids.count == 1 else {
          throw MPDError(
            path: childPath + "/@default_KID", "several key IDs in one element are not supported")
        }
        let hex = ids[0].replacingOccurrences(of: "-", with: "").lowercased()
        guard hex.count == 32, hex.allSatisfy(\.isHexDigit) else {
          throw MPDError(path: childPath + "/@default_KID", "'\(text)' is not a UUID")
        }
        if let defaultKID, defaultKID != hex {
          throw MPDError(
            path: childPath + "/@default_KID",
            "conflicts with the default key ID \(defaultKID) of another ContentProtection")
        }
        defaultKID = hex
        kid = hex
      }
      var boxes: [Data] = []
      for box in child.children("pssh") {
        guard let data = Data(base64Encoded: box.text, options: .ignoreUnknownCharacters),
          !box.text.isEmpty
        else {
          throw MPDError(path: childPath + "/pssh", "the pssh box is not base64")
        }
        boxes.append(data)
      }
      let laurl = (child.child("Laurl") ?? child.child("laurl")).map(\.text)
      result.append(
        MPDContentProtection(
          schemeIDURI: scheme, value: child.attribute("value"), defaultKID: kid, pssh: boxes,
          licenseURL: try laurl.map { text throws(MPDError) in
            try resolveURL(text, against: url, path: childPath + "/Laurl")
          }))
    }
    // A default key ID given once applies to every element of the set.
    if let defaultKID {
      for index in result.indices where result[index].defaultKID == nil {
        result[index].defaultKID = defaultKID
      }
    }
    return result
  }

  func eventStream(_ element: XMLTreeElement, path: String) throws(MPDError) -> MPDEventStream {
    guard let scheme = element.attribute("schemeIdUri") else {
      throw MPDError(path: path + "/@schemeIdUri", "missing", clause: "5.10.2")
    }
    let timescale = try integer(element, "timescale", path) ?? 1
    guard timescale > 0 else { throw MPDError(path: path + "/@timescale", "must be positive") }
    let offset = try integer(element, "presentationTimeOffset", path) ?? 0
    var events: [MPDEvent] = []
    for (index, child) in element.children("Event").enumerated() {
      let childPath = "\(path)/Event[\(index + 1)]"
      let time = try integer(child, "presentationTime", childPath) ?? 0
      let duration = try integer(child, "duration", childPath)
      events.append(
        MPDEvent(
          id: child.attribute("id"),
          presentationTime: MediaTime(value: time - offset, timescale: Int32(clamping: timescale)),
          duration: duration.map { MediaTime(value: $0, timescale: Int32(clamping: timescale)) },
          message: child.attribute("messageData") ?? child.text))
    }
    return MPDEventStream(
      schemeIDURI: scheme, value: element.attribute("value"), timescale: timescale,
      presentationTimeOffset: offset, events: events)
  }
}
