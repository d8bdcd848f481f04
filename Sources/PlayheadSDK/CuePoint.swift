import Foundation
import PlayheadCore

/// Where a cue point sits: before the content starts, after it ends, or at a media time.
///
/// Positions order as `.before` < every `.time` (by time) < `.after`.
public enum CuePointPosition: Sendable, Equatable, Hashable, Comparable {
  case before
  case time(MediaTime)
  case after

  public static func < (lhs: CuePointPosition, rhs: CuePointPosition) -> Bool {
    switch (lhs, rhs) {
    case (.before, .before), (.after, _): return false
    case (.before, _): return true
    case (.time, .before): return false
    case (.time(let a), .time(let b)): return a < b
    case (.time, .after): return true
    }
  }

  /// The media time, or `nil` for `.before` and `.after`.
  public var time: MediaTime? {
    if case .time(let time) = self { return time }
    return nil
  }
}

/// A marker on a video's timeline (an ad break, a chapter, a code hook) with a type, a position
/// and the catalog's other fields.
///
/// An immutable value compared by value; `update` returns a changed copy. `properties` holds
/// every catalog field except `type` and `time` (for example `id`, `name`, `metadata`,
/// `force_stop`).
public struct CuePoint: Sendable, Equatable, Hashable {
  /// The fields of a cue point while `update` changes them.
  public struct Mutable: Sendable {
    public var type: String
    public var position: CuePointPosition
    public var properties: [String: JSONValue]
  }

  /// The kind of cue point, such as `AD` or `CODE`.
  public let type: String
  /// Where it sits.
  public let position: CuePointPosition
  /// The catalog's other fields, kept so they can be written back.
  public let properties: [String: JSONValue]

  public init(type: String, position: CuePointPosition, properties: [String: JSONValue] = [:]) {
    self.type = type
    self.position = position
    self.properties = properties
  }

  /// A copy changed by `body`; this value stays as it is.
  public func update<E: Error>(_ body: (inout Mutable) throws(E) -> Void) throws(E) -> CuePoint {
    var mutable = Mutable(type: type, position: position, properties: properties)
    try body(&mutable)
    return CuePoint(type: mutable.type, position: mutable.position, properties: mutable.properties)
  }

  /// The catalog ID (`id`), when present.
  public var id: String? { properties["id"]?.stringValue }
  /// The name (`name`), when present.
  public var name: String? { properties["name"]?.stringValue }
  /// The free-form metadata string (`metadata`), when present.
  public var metadata: String? { properties["metadata"]?.stringValue }
}
