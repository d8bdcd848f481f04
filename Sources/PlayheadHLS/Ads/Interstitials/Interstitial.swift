import Foundation
import PlayheadCore

/// An HLS Interstitial (RFC 8216bis, Appendix D): an `EXT-X-DATERANGE` with
/// `CLASS="com.apple.hls.interstitial"` that schedules other content into the primary
/// playlist.
///
/// Find them with `MediaPlaylist.interstitials()`; URIs are resolved against the playlist's
/// URL. An interstitial must name exactly one of `X-ASSET-URI` and `X-ASSET-LIST`; one that
/// does not is left out and reported, never fatal.
public struct Interstitial: Sendable, Hashable {
  /// The `CLASS` that marks a date range as an interstitial.
  public static let classValue = "com.apple.hls.interstitial"

  /// What the interstitial plays.
  public enum Asset: Sendable, Hashable {
    /// `X-ASSET-URI`: one asset, a playlist.
    case uri(URL)
    /// `X-ASSET-LIST`: a JSON asset list to fetch (see `AssetList`).
    case list(URL)
  }

  /// `CUE`: when the interstitial plays regardless of `START-DATE`.
  public struct Cue: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `PRE`: before the primary content starts.
    public static let pre = Cue(rawValue: 1 << 0)
    /// `POST`: after the primary content ends.
    public static let post = Cue(rawValue: 1 << 1)
    /// `ONCE`: at most once per playback session.
    public static let once = Cue(rawValue: 1 << 2)
  }

  /// `X-SNAP`: where the interstitial's edges may move to the nearest segment boundary.
  public struct Snap: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `OUT`: leave the primary content at a segment boundary.
    public static let out = Snap(rawValue: 1 << 0)
    /// `IN`: return to the primary content at a segment boundary.
    public static let `in` = Snap(rawValue: 1 << 1)
  }

  /// `X-RESTRICT`: what the viewer may not do during the interstitial.
  public struct Restrictions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `SKIP`: no seeking or skipping within the interstitial.
    public static let skip = Restrictions(rawValue: 1 << 0)
    /// `JUMP`: no seeking past it in the primary content without playing it.
    public static let jump = Restrictions(rawValue: 1 << 1)
  }

  /// `X-TIMELINE-OCCUPIES`.
  public enum TimelineOccupation: String, Sendable, Hashable {
    /// `POINT` (the default): the interstitial takes no time on the primary timeline.
    case point = "POINT"
    /// `RANGE`: it covers the date range's duration on the primary timeline.
    case range = "RANGE"
  }

  /// The date range's `ID`.
  public var id: String
  /// What to play.
  public var asset: Asset
  /// `START-DATE`.
  public var startDate: Date?
  /// Where the interstitial stands on the playlist timeline: 0 for `CUE=PRE`, the end for
  /// `CUE=POST`, else `START-DATE` through the segments' program date-times; nil when
  /// none of these gives it.
  public var start: MediaTime?
  /// `DURATION`, else `END-DATE` minus `START-DATE`.
  public var duration: MediaTime?
  /// `PLANNED-DURATION`.
  public var plannedDuration: MediaTime?
  /// `X-RESUME-OFFSET`: where the primary content resumes, from `start`; nil when absent.
  public var resumeOffset: MediaTime?
  /// `X-PLAYOUT-LIMIT`: the most time the interstitial may play.
  public var playoutLimit: MediaTime?
  /// `X-SNAP`.
  public var snap: Snap
  /// `X-RESTRICT`.
  public var restrictions: Restrictions
  /// `CUE`.
  public var cue: Cue
  /// `X-TIMELINE-OCCUPIES` (default `.point`).
  public var timelineOccupies: TimelineOccupation
  /// `X-CONTENT-MAY-VARY` (default true).
  public var contentMayVary: Bool
  /// Every `X-` attribute as written, the ones above included.
  public var clientAttributes: [String: String]

  public init(
    id: String, asset: Asset, startDate: Date? = nil, start: MediaTime? = nil,
    duration: MediaTime? = nil, plannedDuration: MediaTime? = nil,
    resumeOffset: MediaTime? = nil, playoutLimit: MediaTime? = nil, snap: Snap = [],
    restrictions: Restrictions = [], cue: Cue = [], timelineOccupies: TimelineOccupation = .point,
    contentMayVary: Bool = true, clientAttributes: [String: String] = [:]
  ) {
    self.id = id
    self.asset = asset
    self.startDate = startDate
    self.start = start
    self.duration = duration
    self.plannedDuration = plannedDuration
    self.resumeOffset = resumeOffset
    self.playoutLimit = playoutLimit
    self.snap = snap
    self.restrictions = restrictions
    self.cue = cue
    self.timelineOccupies = timelineOccupies
    self.contentMayVary = contentMayVary
    self.clientAttributes = clientAttributes
  }

  /// Where the primary content resumes, from `start`: `resumeOffset`, else the
  /// interstitial's `duration`, else its `plannedDuration`; nil when none is known (the
  /// duration of the assets played then decides).
  public var effectiveResumeOffset: MediaTime? { resumeOffset ?? duration ?? plannedDuration }
}

/// An interstitial date range left out, or an attribute of one ignored, and why.
public struct InterstitialIssue: Sendable, Hashable, CustomStringConvertible {
  /// The date range's `ID`.
  public var id: String
  /// A one-line description.
  public var message: String
  /// Whether the interstitial was left out (false: only an attribute was ignored).
  public var isFatal: Bool

  public init(id: String, message: String, isFatal: Bool) {
    self.id = id
    self.message = message
    self.isFatal = isFatal
  }

  /// `interstitial 'id': message`.
  public var description: String { "interstitial '\(id)': \(message)" }
}

/// The interstitials of a playlist and the issues found reading them.
public struct InterstitialList: Sendable, Hashable {
  /// The valid interstitials, in playlist order.
  public var interstitials: [Interstitial]
  /// What was left out or ignored.
  public var issues: [InterstitialIssue]

  public init(interstitials: [Interstitial], issues: [InterstitialIssue] = []) {
    self.interstitials = interstitials
    self.issues = issues
  }
}
