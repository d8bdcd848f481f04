import Foundation
import PlayheadCore
import PlayheadHLS

extension HLSDriver {
  /// The current level's interstitials on the item timeline; nil when its playlist has
  /// none (and never had). Read again after every load of the level's playlist.
  var interstitialSchedule: InterstitialSchedule? {
    lock.lock()
    defer { lock.unlock() }
    if let cached = interstitialCache, cached.level == currentLevel,
      cached.revision == interstitialRevision
    {
      return cached.schedule
    }
    guard let media = playlists[currentLevel] else { return nil }
    let hadSome = interstitialCache?.schedule != nil
    // A playlist without date ranges has no interstitial: no need to read it.
    let found =
      media.dateRanges.isEmpty ? InterstitialList(interstitials: []) : media.interstitials()
    var schedule: InterstitialSchedule?
    if !found.interstitials.isEmpty || !found.issues.isEmpty || hadSome {
      // Once a stream had some, an empty reading is news too (they left the window).
      schedule = Self.placed(
        found, of: media, live: liveTimeline, segmentEnds: timelines[currentLevel]?.ends ?? [],
        revision: interstitialRevision)
    }
    interstitialCache = (currentLevel, interstitialRevision, schedule)
    return schedule
  }

  /// `found` with its times moved from the playlist's own (0 at its first segment) to the
  /// item timeline: unchanged for VOD, from the live timeline's place of the playlist's
  /// first segment for live streams.
  static func placed(
    _ found: InterstitialList, of media: MediaPlaylist, live: HLSLiveTimeline?,
    segmentEnds: [MediaTime], revision: Int
  ) -> InterstitialSchedule {
    guard let live else {
      return InterstitialSchedule(
        interstitials: found.interstitials, issues: found.issues,
        segmentBoundaries: [.zero] + segmentEnds, isLive: false, revision: revision)
    }
    let first = media.segments.first?.mediaSequence ?? media.mediaSequence
    let origin = live.start(ofSequence: first) ?? live.range.start
    let moved = found.interstitials.map { interstitial -> Interstitial in
      var copy = interstitial
      copy.start = interstitial.start.map { origin + $0 }
      return copy
    }
    return InterstitialSchedule(
      interstitials: moved, issues: found.issues, segmentBoundaries: live.boundaries,
      isLive: true, revision: revision)
  }
}
