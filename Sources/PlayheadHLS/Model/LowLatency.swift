import Foundation
import PlayheadCore

/// `EXT-X-SERVER-CONTROL`: what the server supports for low-latency and delta updates.
public struct ServerControl: Sendable, Equatable {
  /// `CAN-SKIP-UNTIL`: how far back from the end a delta update may skip, in seconds.
  public var canSkipUntil: MediaTime?
  /// `CAN-SKIP-DATERANGES=YES`.
  public var canSkipDateRanges: Bool
  /// `HOLD-BACK`: the minimum distance from the live edge, in seconds.
  public var holdBack: MediaTime?
  /// `PART-HOLD-BACK`: the minimum distance from the live edge in low-latency mode.
  public var partHoldBack: MediaTime?
  /// `CAN-BLOCK-RELOAD=YES`: blocking playlist reloads are supported.
  public var canBlockReload: Bool

  public init(
    canSkipUntil: MediaTime? = nil, canSkipDateRanges: Bool = false, holdBack: MediaTime? = nil,
    partHoldBack: MediaTime? = nil, canBlockReload: Bool = false
  ) {
    self.canSkipUntil = canSkipUntil
    self.canSkipDateRanges = canSkipDateRanges
    self.holdBack = holdBack
    self.partHoldBack = partHoldBack
    self.canBlockReload = canBlockReload
  }
}

/// The `TYPE` of an `EXT-X-PRELOAD-HINT`.
public enum PreloadHintType: String, Sendable, CaseIterable {
  case part = "PART"
  case map = "MAP"
}

/// `EXT-X-PRELOAD-HINT`: a resource the client may request before it is listed.
public struct PreloadHint: Sendable, Equatable {
  /// `TYPE`.
  public var type: PreloadHintType
  /// `URI` as written.
  public var uriString: String
  /// The URL `uriString` is relative to.
  public var baseURL: URL
  /// `BYTERANGE-START` (0 when absent).
  public var byteRangeStart: Int64?
  /// `BYTERANGE-LENGTH` (to the end of the resource when absent).
  public var byteRangeLength: Int64?

  public init(
    type: PreloadHintType, uriString: String, baseURL: URL, byteRangeStart: Int64? = nil,
    byteRangeLength: Int64? = nil
  ) {
    self.type = type
    self.uriString = uriString
    self.baseURL = baseURL
    self.byteRangeStart = byteRangeStart
    self.byteRangeLength = byteRangeLength
  }

  /// The resource's absolute URL.
  public var uri: URL { URIResolution.resolve(uriString, against: baseURL) ?? baseURL }
}

/// `EXT-X-RENDITION-REPORT`: the state of another rendition's playlist.
public struct RenditionReport: Sendable, Equatable {
  /// `URI` as written (relative to this playlist).
  public var uriString: String?
  /// The URL `uriString` is relative to.
  public var baseURL: URL
  /// `LAST-MSN`: the last media sequence number of that playlist.
  public var lastMediaSequence: Int?
  /// `LAST-PART`: the last part index of that playlist.
  public var lastPart: Int?

  public init(
    uriString: String?, baseURL: URL, lastMediaSequence: Int? = nil, lastPart: Int? = nil
  ) {
    self.uriString = uriString
    self.baseURL = baseURL
    self.lastMediaSequence = lastMediaSequence
    self.lastPart = lastPart
  }

  /// The reported playlist's absolute URL, or nil.
  public var uri: URL? { uriString.flatMap { URIResolution.resolve($0, against: baseURL) } }
}

/// `EXT-X-SKIP`: the segments a delta update leaves out.
public struct SkipInfo: Sendable, Equatable {
  /// `SKIPPED-SEGMENTS`.
  public var skippedSegments: Int
  /// `RECENTLY-REMOVED-DATERANGES`: ids of date ranges removed since the last update.
  public var recentlyRemovedDateRanges: [String]

  public init(skippedSegments: Int, recentlyRemovedDateRanges: [String] = []) {
    self.skippedSegments = skippedSegments
    self.recentlyRemovedDateRanges = recentlyRemovedDateRanges
  }
}
