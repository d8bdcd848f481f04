import Foundation
import PlayheadCore

/// A parsed VMAP 1.0 playlist: the ad breaks of a piece of content, in document order.
///
/// Breaks are kept as written: several may share a `timeOffset` or a `breakId` (both
/// happen in the wild) and none is dropped for it.
public struct VMAPDocument: Sendable, Equatable {
  /// The `version` attribute (`"1.0"`).
  public var version: String?
  public var adBreaks: [VMAPAdBreak]
  /// Every `<Extension>` of the root `<Extensions>`, re-serialized as XML.
  public var extensions: [String]
  /// Recoverable oddities met while parsing, each `PATH: message`.
  public var warnings: [String]

  public init(
    version: String? = nil, adBreaks: [VMAPAdBreak] = [], extensions: [String] = [],
    warnings: [String] = []
  ) {
    self.version = version
    self.adBreaks = adBreaks
    self.extensions = extensions
    self.warnings = warnings
  }
}

/// One `<AdBreak>`: when it plays, what kind of ads it takes, and where they come from.
public struct VMAPAdBreak: Sendable, Equatable {
  public var timeOffset: VMAPTimeOffset
  /// `breakType` (`linear`, `nonlinear`, `display`, comma-separated).
  public var breakType: VMAPBreakType
  /// `breakId`; not unique in the wild.
  public var breakID: String?
  /// `repeatAfter`: the break repeats every so long of content after its first play.
  public var repeatAfter: MediaTime?
  /// The ads; nil when the break has no `<AdSource>` (nothing to play; its tracking still
  /// stands).
  public var adSource: VMAPAdSource?
  /// `<TrackingEvents><Tracking>` (`breakStart`, `breakEnd`, `error`), every one kept (one
  /// event may have several URLs).
  public var trackingEvents: [VASTTracking]
  /// `<Extensions><Extension>` re-serialized as XML.
  public var extensions: [String]

  public init(
    timeOffset: VMAPTimeOffset, breakType: VMAPBreakType = .linear, breakID: String? = nil,
    repeatAfter: MediaTime? = nil, adSource: VMAPAdSource? = nil,
    trackingEvents: [VASTTracking] = [], extensions: [String] = []
  ) {
    self.timeOffset = timeOffset
    self.breakType = breakType
    self.breakID = breakID
    self.repeatAfter = repeatAfter
    self.adSource = adSource
    self.trackingEvents = trackingEvents
    self.extensions = extensions
  }

  /// The tracking URLs of `event`, in document order.
  public func trackingURLs(for event: String) -> [String] {
    trackingEvents.filter { $0.event == event }.map(\.url)
  }
}

/// When an ad break plays: VMAP's `timeOffset`.
public enum VMAPTimeOffset: Sendable, Hashable, CustomStringConvertible {
  /// `start`: a pre-roll.
  case start
  /// `end`: a post-roll.
  case end
  /// `HH:MM:SS(.mmm)`: at this content time (a time of zero is a pre-roll too).
  case time(MediaTime)
  /// `n%`: at this share of the content's duration (0 to 100).
  case percent(Double)
  /// `#n`: at the n-th cue point (position) of the content, from 1.
  case position(Int)

  /// Parses a `timeOffset`; nil when it is none of the forms.
  public init?(_ text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    switch trimmed.lowercased() {
    case "start": self = .start
    case "end": self = .end
    default:
      if trimmed.hasPrefix("#") {
        guard let position = Int(trimmed.dropFirst()), position >= 1 else { return nil }
        self = .position(position)
      } else if trimmed.hasSuffix("%") {
        guard case .percent(let value)? = VASTOffset(trimmed) else { return nil }
        self = .percent(value)
      } else if let time = VASTTime.parse(trimmed) {
        self = .time(time)
      } else {
        return nil
      }
    }
  }

  /// The content time of the break in content of `duration`: `start` is zero, `end` the
  /// duration, a percentage its share; nil for a position, or for `end` and percentages
  /// when the duration is unknown.
  public func contentTime(duration: MediaTime?) -> MediaTime? {
    switch self {
    case .start: return .zero
    case .time(let time): return time
    case .end: return duration
    case .percent(let value): return VASTOffset.percent(value).time(inAdOf: duration)
    case .position: return nil
    }
  }

  /// `start`, `end`, `HH:MM:SS.mmm`, `n%` or `#n`.
  public var description: String {
    switch self {
    case .start: return "start"
    case .end: return "end"
    case .time(let time): return VASTTime.format(time)
    case .percent(let value): return VASTOffset.percent(value).description
    case .position(let position): return "#\(position)"
    }
  }
}

/// VMAP's `breakType`: which kinds of ads a break takes.
public struct VMAPBreakType: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  public static let linear = VMAPBreakType(rawValue: 1 << 0)
  public static let nonlinear = VMAPBreakType(rawValue: 1 << 1)
  public static let display = VMAPBreakType(rawValue: 1 << 2)

  /// Reads `linear,nonlinear` (any case, spaces allowed); unknown words are ignored.
  public init(parsing text: String) {
    var type: VMAPBreakType = []
    for word in text.split(separator: ",") {
      switch word.trimmingCharacters(in: .whitespaces).lowercased() {
      case "linear": type.insert(.linear)
      case "nonlinear": type.insert(.nonlinear)
      case "display": type.insert(.display)
      default: break
      }
    }
    self = type
  }

  /// The names, comma-separated, in the order linear, nonlinear, display.
  public var names: String {
    [(VMAPBreakType.linear, "linear"), (.nonlinear, "nonlinear"), (.display, "display")]
      .filter { contains($0.0) }.map(\.1).joined(separator: ",")
  }
}

/// `<AdSource>`: where a break's ads come from.
public struct VMAPAdSource: Sendable, Equatable {
  /// What the source holds.
  public enum Content: Sendable, Equatable {
    /// `<VASTAdData>` (or the non-standard `<VASTData>`): a VAST response inline.
    case vastAdData(VASTDocument)
    /// Inline VAST that could not be used (not VAST, unsupported version).
    case invalidVASTAdData(VASTError)
    /// `<AdTagURI templateType="vast3">`: a URL to request the ads from.
    case adTagURI(uri: String, templateType: String?)
    /// `<CustomAdData templateType="…">`, kept as XML.
    case customAdData(templateType: String?, xml: String)
    /// None of these.
    case none
  }

  public var id: String?
  /// `allowMultipleAds`: whether the source may give a pod (VMAP default true).
  public var allowMultipleAds: Bool
  /// `followRedirects`: whether wrappers may be followed (VMAP default true).
  public var followRedirects: Bool
  public var content: Content
  /// The element name the inline VAST came in (`VASTAdData`, or `VASTData` as some
  /// servers write it); nil for other contents.
  public var inlineElementName: String?

  public init(
    id: String? = nil, allowMultipleAds: Bool = true, followRedirects: Bool = true,
    content: Content, inlineElementName: String? = nil
  ) {
    self.id = id
    self.allowMultipleAds = allowMultipleAds
    self.followRedirects = followRedirects
    self.content = content
    self.inlineElementName = inlineElementName
  }
}
