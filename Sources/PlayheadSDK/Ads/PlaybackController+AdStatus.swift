import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadHLS

extension PlaybackController {
  /// The ad on screen in the current session, for a player UI; nil while the content (or
  /// nothing) plays, and while a break is still fetching its ads.
  public var adPlaybackStatus: AdPlaybackStatus? {
    queue.sync {
      guard let runtime = current, let ads = runtime.ads else { return nil }
      if let active = ads.active, let ad = active.ad {
        let slot = ads.timeline?.slots[safe: active.slot]
        let duration = ad.duration
        let link = ad.ad.clickThroughURL.flatMap {
          URL(string: $0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return AdPlaybackStatus(
          breakPosition: slot?.position ?? .preroll, adNumber: ad.index + 1,
          adCount: slot?.ads.count ?? ad.index + 1, adID: ad.ad.id, time: ad.player.currentTime(),
          duration: duration, skippableFrom: ad.ad.skippableFrom(duration: duration),
          clickThroughURL: link, isPaused: ad.isPaused)
      }
      guard let period = ads.activePeriod, let player = runtime.player else { return nil }
      if let stitched = stitchedAd(runtime), let play = ads.stitched {
        let span = play.spans[stitched.index]
        return AdPlaybackStatus(
          breakPosition: ads.timeline?.slots[play.slot].position ?? .midroll(period.start),
          adNumber: stitched.index + 1, adCount: play.spans.count, adID: stitched.ad.id,
          time: stitched.time, duration: span.upperBound - span.lowerBound,
          isPaused: player.rate == 0, isServerSide: true)
      }
      let position = player.currentTime()
      return AdPlaybackStatus(
        breakPosition: .midroll(period.start), adNumber: 1, adCount: 1, adID: period.id,
        time: position.isNumeric ? max(.zero, position - period.start) : .zero,
        duration: period.duration, isPaused: player.rate == 0, isServerSide: true)
    }
  }

  /// The content times of the current session's ad breaks still to play, for markers on a
  /// slider: mid-rolls at their time, the post-roll at the content's end (when known), and
  /// unwatched server-side periods at their start. Empty without ads.
  public var upcomingAdBreakTimes: [MediaTime] {
    queue.sync {
      guard let ads = current?.ads else { return [] }
      var times: [MediaTime] = []
      // Stitched breaks are marked by their periods, below.
      for slot in ads.isStitched ? [] : ads.timeline?.slots ?? [] where !slot.isFinished {
        switch slot.position {
        case .preroll: continue
        case .midroll(let time): times.append(time)
        case .postroll:
          if let end = ads.timeline?.contentDuration { times.append(end) }
        }
      }
      for period in ads.serverSidePeriods where !ads.watchedPeriods.contains(period.id) {
        times.append(period.start)
      }
      return times.sorted()
    }
  }
}
