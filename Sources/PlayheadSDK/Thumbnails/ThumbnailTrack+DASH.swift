import Foundation
import PlayheadCore
import PlayheadDASH

extension ThumbnailTrack {
  /// The most cues a track made from an MPD holds (100,000: a day of thumbnails every
  /// second is 86,400).
  public static let maximumDASHCues = 100_000

  /// The thumbnails of an MPD's DASH-IF thumbnail tile sets (IOP 6.2.6: an `image`
  /// AdaptationSet with an `EssentialProperty` of `http://dashif.org/thumbnail_tile` or
  /// `http://dashif.org/guidelines/thumbnail_tile` whose `@value` is `COLSxROWS`, on the set
  /// or the Representation).
  ///
  /// In each Period, one Representation is used: the one whose id is `representationID`
  /// when given, else the one with the widest tiles (`@width / COLS`; then the tallest, then
  /// the first). Each of its segments is one image of COLS x ROWS tiles of
  /// `@width / COLS` x `@height / ROWS` pixels covering the segment's duration in equal
  /// parts, row-major; each tile becomes a cue of `duration / (COLS * ROWS)` whose reference
  /// is the segment's URL with that region. Segment times are on the presentation timeline,
  /// so later Periods are offset by their start; a tile past its Period's end is cut there.
  ///
  /// A static MPD gives all its segments. A dynamic MPD gives the segments available at
  /// `now` (its wall clock, corrected as the player's is; a snapshot: rebuild the track after
  /// reloading the MPD); without `now` it gives none.
  ///
  /// Edge cases: a set whose `@value` is not a grid, has no tiles or more than
  /// `MPDThumbnailTiling.maximumTiles`, whose Representation has no `@width`/`@height`, or
  /// whose addressing cannot list segments is left out, with a warning in `warnings` (the
  /// element path and why); segments addressed by byte range, with no duration, or with a
  /// URL scheme not allowed for the MPD's URL are left out too. At most `maximumCues` cues
  /// are made (the rest is left out with a warning); the work is linear in them.
  ///
  /// Throws `.invalidArgument` when `representationID` names no Representation of a
  /// thumbnail set, and `.unsupportedFormat` when the MPD gives no thumbnail at all (no
  /// thumbnail set, or none usable: the message says why).
  ///
  /// ```swift
  /// let mpd = try MPDParser.parse(data, url: mpdURL)
  /// let track = try ThumbnailTrack(mpd: mpd)
  /// track.thumbnail(at: time)   // tile-3.jpg#xywh=128,36,64,36
  /// ```
  public init(
    mpd: MPD, representationID: String? = nil, at now: Date? = nil,
    maximumCues: Int = ThumbnailTrack.maximumDASHCues
  ) throws(PlayheadError) {
    let listed = DASHThumbnailCues(
      mpd: mpd, representationID: representationID, now: now, maximumCues: max(0, maximumCues))
    if let representationID, !listed.foundRequestedRepresentation {
      throw PlayheadError(
        .invalidArgument,
        "\(mpd.url.absoluteString) has no thumbnail Representation '\(representationID)'",
        url: mpd.url)
    }
    guard !listed.cues.isEmpty else {
      let why =
        listed.hasThumbnailSets
        ? "no usable thumbnail set (\(listed.warnings.joined(separator: "; ")))"
        : "no thumbnail set"
      throw PlayheadError(
        .unsupportedFormat, "\(mpd.url.absoluteString) has \(why)", url: mpd.url)
    }
    self.init(cues: listed.cues, url: mpd.url, warnings: listed.warnings)
  }

  /// The thumbnails of `mpd` as `init(mpd:representationID:at:maximumCues:)` makes them
  /// (widest tiles), or nil when the MPD gives none; `warnings` receives why sets were left
  /// out, in that case too.
  static func dashThumbnails(of mpd: MPD, at now: Date?, warnings: inout [String])
    -> ThumbnailTrack?
  {
    let listed = DASHThumbnailCues(
      mpd: mpd, representationID: nil, now: now, maximumCues: maximumDASHCues)
    warnings = listed.warnings
    guard !listed.cues.isEmpty else { return nil }
    return ThumbnailTrack(cues: listed.cues, url: mpd.url, warnings: listed.warnings)
  }
}
