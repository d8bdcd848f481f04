import PlayheadCore

/// The state of one VAST parse: the warnings so far, and the readers of each element.
struct VASTParseContext {
  var warnings: [String] = []

  mutating func warn(_ path: String, _ message: String) {
    warnings.append("\(path): \(message)")
  }

  /// The non-empty texts of `elements`.
  static func urls(_ elements: [AdXMLElement]) -> [String] {
    elements.map(\.text).filter { !$0.isEmpty }
  }

  /// An integer attribute; a malformed one is nil with a warning.
  mutating func int(_ element: AdXMLElement, _ name: String, path: String) -> Int? {
    guard let text = element.attribute(name) else { return nil }
    if let value = Int(text) { return value }
    // Some servers write "640.0" for a width.
    if let value = Double(text), value.isFinite, value == value.rounded(), abs(value) < 1e9 {
      return Int(value)
    }
    warn(path, "\(name)=\"\(text)\" is not an integer")
    return nil
  }

  /// A boolean attribute (`true`/`false`/`1`/`0`, any case); a malformed one is nil.
  mutating func bool(_ element: AdXMLElement, _ name: String, path: String) -> Bool? {
    guard let text = element.attribute(name) else { return nil }
    switch text.lowercased() {
    case "true", "1": return true
    case "false", "0": return false
    default:
      warn(path, "\(name)=\"\(text)\" is not a boolean")
      return nil
    }
  }

  /// `<Tracking>` children of the `<TrackingEvents>` children of `element`.
  mutating func tracking(_ element: AdXMLElement, path: String) -> [VASTTracking] {
    element.children(of: "TrackingEvents", named: "Tracking").compactMap { tracking in
      // An empty URL is kept (peers count it); beacons skip it.
      guard let event = tracking.attribute("event") else { return nil }
      var offset: VASTOffset?
      if event == "progress", let text = tracking.attribute("offset") {
        offset = VASTOffset(text)
        if offset == nil { warn(path, "progress offset \"\(text)\" is not a time or a percentage") }
      }
      return VASTTracking(event: event, url: tracking.text, offset: offset)
    }
  }

  /// The resources of a NonLinear, Companion or Icon.
  static func resources(_ element: AdXMLElement) -> [VASTResource] {
    element.children.compactMap { child in
      guard !child.text.isEmpty else { return nil }
      switch child.name {
      case "StaticResource":
        return .staticResource(url: child.text, creativeType: child.attribute("creativeType"))
      case "IFrameResource": return .iframe(url: child.text)
      case "HTMLResource": return .html(child.text)
      default: return nil
      }
    }
  }

  static func adParameters(_ element: AdXMLElement) -> VASTAdParameters? {
    guard let parameters = element.child("AdParameters") else { return nil }
    let encoded = parameters.attribute("xmlEncoded")?.lowercased() == "true"
    return VASTAdParameters(value: parameters.text, xmlEncoded: encoded)
  }
}
