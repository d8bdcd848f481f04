import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadHLS

extension PlaybackController {
  // MARK: Interstitials onto the timeline (on the queue)

  /// The content's interstitial schedule was read (at ready, and after every reload of a
  /// live playlist): interstitials not seen before become breaks on the ad timeline. Call
  /// on the queue.
  ///
  /// `CUE=PRE` is a pre-roll (when the content has not started yet), `CUE=POST` a
  /// post-roll, any other a mid-roll at its start (moved to the nearest segment boundary
  /// with `X-SNAP=OUT`). A live interstitial whose start has passed is joined late while
  /// the content is still within its duration, and left out after that.
  func adsInterstitialsChanged(_ runtime: SessionRuntime, _ schedule: InterstitialSchedule?) {
    guard let ads = runtime.ads, ads.plugin.configuration.playsInterstitials, let schedule
    else { return }
    guard !ads.isStitched else {
      // The stitched mode plays no break of its own (its slots follow the stream's periods).
      if ads.interstitialSchedule == nil, !schedule.interstitials.isEmpty {
        manager.log("interstitials not played: the schedule's ads are stitched (adsAreStitched)")
      }
      ads.interstitialSchedule = schedule
      return
    }
    ads.interstitialSchedule = schedule
    for issue in schedule.issues where !ads.loggedInterstitialIssues.contains(issue) {
      ads.loggedInterstitialIssues.insert(issue)
      manager.log(issue.description)
    }
    guard ads.timeline != nil else {
      // The schedule's breaks come first; these join them when the timeline is made.
      ads.isInterstitialScheduleWaiting = true
      return
    }
    ads.isInterstitialScheduleWaiting = false
    var added = false
    for interstitial in schedule.interstitials {
      guard ads.interstitials[interstitial.id] == nil,
        !ads.declinedInterstitials.contains(interstitial.id)
      else { continue }
      if addInterstitial(interstitial, schedule: schedule, to: runtime) { added = true }
    }
    if added { updatePausePoints(runtime) }
  }

  /// The timeline was made: a schedule that waited for it is read now. Call on the queue.
  func adsTimelineMade(_ runtime: SessionRuntime) {
    guard let ads = runtime.ads, ads.isInterstitialScheduleWaiting else { return }
    adsInterstitialsChanged(runtime, ads.interstitialSchedule)
  }

  /// Puts one interstitial on the timeline; false when it is declined (logged).
  private func addInterstitial(
    _ interstitial: Interstitial, schedule: InterstitialSchedule, to runtime: SessionRuntime
  ) -> Bool {
    guard let ads = runtime.ads else { return false }
    let position = runtime.player?.currentTime() ?? .zero
    let leave: MediaTime?
    var joinOffset = MediaTime.zero
    var joinsNow = false
    if interstitial.cue.contains(.pre) {
      guard !runtime.hasStartedContent else {
        return decline(interstitial, "CUE=PRE, and the content has started", runtime)
      }
      leave = .zero
    } else if interstitial.cue.contains(.post) {
      leave = nil
    } else {
      guard let start = interstitial.start else {
        return decline(interstitial, "its place on the timeline is unknown", runtime)
      }
      let snapped =
        interstitial.snap.contains(.out) ? schedule.nearestSegmentBoundary(to: start) : start
      // Live: one at or before the position is under way (a pause point there would
      // never be crossed).
      if schedule.isLive, snapped <= position {
        let late = position - snapped
        guard late == .zero || late < (interstitial.duration ?? .zero) else {
          return decline(
            interstitial, "its start passed \(late.seconds) s ago, more than its duration",
            runtime)
        }
        joinOffset = late
        joinsNow = true
      }
      leave = snapped
    }
    let entry = InterstitialBreak(
      interstitial: interstitial, leaveTime: leave, isLive: schedule.isLive,
      joinOffset: joinOffset)
    let adBreak = entry.adBreak()
    let place: AdBreakPosition
    switch leave {
    case nil: place = .postroll
    case _ where interstitial.cue.contains(.pre): place = .preroll
    case let time? where time <= .zero && !schedule.isLive: place = .preroll
    case let time?: place = .midroll(time)
    }
    guard let index = ads.timeline?.insert(adBreak, at: place) else {
      return decline(interstitial, "a break with its id is already on the timeline", runtime)
    }
    ads.slotInserted(at: index)
    ads.interstitials[adBreak.id] = entry
    manager.log("interstitial '\(interstitial.id)' scheduled: \(place)")
    if joinsNow { joinLiveInterstitial(index, of: runtime) }
    return true
  }

  private func decline(
    _ interstitial: Interstitial, _ reason: String, _ runtime: SessionRuntime
  ) -> Bool {
    runtime.ads?.declinedInterstitials.insert(interstitial.id)
    manager.log("interstitial '\(interstitial.id)' not played: \(reason)")
    return false
  }

  /// A live interstitial already under way: it plays now (or at the first play, before
  /// the content), joined part-way.
  private func joinLiveInterstitial(_ slot: Int, of runtime: SessionRuntime) {
    guard let ads = runtime.ads, !readSettings({ $0.adsDisabled }) else { return }
    guard ads.active == nil, runtime.hasStartedContent, runtime.isPlaying else {
      ads.queuedSlots.append(slot)
      return
    }
    startBreak(slot, of: runtime, resumesContent: true, reachedByPlay: true)
  }

  /// The interstitial of timeline slot `slot`, if it is one.
  func interstitial(ofSlot slot: Int, in runtime: SessionRuntime) -> InterstitialBreak? {
    guard let ads = runtime.ads, let entry = ads.timeline?.slots[safe: slot] else { return nil }
    return ads.interstitials[entry.id]
  }
}

extension Array {
  /// The element at `index`, or nil outside the array.
  subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
