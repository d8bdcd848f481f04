import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadHLS

extension PlaybackController {
  // MARK: Fetching a break's ads (on the queue)

  /// Fetches the ads of `entry` (a VAST tag, or an interstitial's asset list) off the
  /// queue; `completion` runs on the queue with them. False when the slot has nothing to
  /// fetch.
  func fetchSlotAds(
    _ entry: AdTimeline.Slot, of runtime: SessionRuntime,
    completion: @escaping @Sendable (Result<[LinearAd], AdFetchError>) -> Void
  ) -> Bool {
    guard let ads = runtime.ads else { return false }
    let plugin = ads.plugin
    let deliver: @Sendable (Result<[LinearAd], AdFetchError>) -> Void = { [weak self] result in
      self?.queue.async { completion(result) }
    }
    switch entry.adBreak.source {
    case .ads:
      return false
    case .tag(let url):
      plugin.fetchAds(url, idPrefix: entry.id, targeting: adTargeting(plugin)) { pod in
        deliver(Self.result(of: pod))
      }
      return true
    case .assetList:
      guard let scheduled = ads.interstitials[entry.id],
        let url = scheduled.interstitial.assetListRequestURL(
          primaryID: ads.primaryID,
          startOffset: scheduled.joinOffset > .zero ? scheduled.joinOffset : nil)
      else { return false }
      manager.log("interstitial '\(entry.id)': fetching the asset list \(url.absoluteString)")
      plugin.fetchAssetList(url, for: scheduled.interstitial, completion: deliver)
      return true
    }
  }

  // MARK: Playout limit and restrictions (on the queue)

  /// Stops the ad at the interstitial's `X-PLAYOUT-LIMIT`: its item ends where the break's
  /// played time reaches the limit.
  func applyPlayoutLimit(_ current: ActiveAd, active: ActiveAdBreak, of runtime: SessionRuntime) {
    guard let limit = interstitial(ofSlot: active.slot, in: runtime)?.interstitial.playoutLimit
    else { return }
    let left = limit - active.playedTime
    current.item.forwardPlaybackEndTime = max(left, .zero)
  }

  /// Whether the break reached its interstitial's `X-PLAYOUT-LIMIT`: then the ads not
  /// played yet are marked skipped (they will not play) and true comes back.
  func reachedPlayoutLimit(_ active: ActiveAdBreak, of runtime: SessionRuntime) -> Bool {
    guard let ads = runtime.ads,
      let limit = interstitial(ofSlot: active.slot, in: runtime)?.interstitial.playoutLimit,
      active.playedTime >= limit, let entry = ads.timeline?.slots[safe: active.slot]
    else { return false }
    for index in entry.adStates.indices where entry.adStates[index] == .available {
      ads.timeline?.setState(.skipped, ofAd: index, inSlot: active.slot)
    }
    manager.log("interstitial '\(entry.id)': X-PLAYOUT-LIMIT reached; the break ends")
    return true
  }

  /// Whether the playing break is an interstitial whose `X-RESTRICT` forbids skipping.
  func interstitialForbidsSkip(_ active: ActiveAdBreak, of runtime: SessionRuntime) -> Bool {
    interstitial(ofSlot: active.slot, in: runtime)?.interstitial.restrictions.contains(.skip)
      ?? false
  }

  // MARK: Leaving the break (on the queue)

  /// The break is over and the content goes on: where an interstitial reached by play (or
  /// any live one, which keeps its distance to the live edge) says with its resume offset,
  /// else where it is (a seek's target). Call on the queue.
  func resumeContent(after active: ActiveAdBreak, of runtime: SessionRuntime) {
    guard let scheduled = interstitial(ofSlot: active.slot, in: runtime),
      active.reachedByPlay || scheduled.isLive,
      let player = runtime.player,
      let target = scheduled.resumeTime(
        played: active.playedTime,
        snap: { runtime.ads?.interstitialSchedule?.nearestSegmentBoundary(to: $0) ?? $0 })
    else {
      playContent(runtime)
      return
    }
    var landing = target
    if let duration = player.currentItem?.duration, duration.isNumeric, !scheduled.isLive {
      landing = min(landing, duration)
    }
    guard landing != player.currentTime() else {
      playContent(runtime)
      return
    }
    manager.log(
      "interstitial '\(scheduled.interstitial.id)': the content resumes at \(landing.seconds) s")
    player.seek(to: landing, toleranceBefore: .zero, toleranceAfter: .zero) {
      [weak self, weak runtime] _ in
      guard let self else { return }
      self.queue.async { [weak runtime] in
        guard let runtime, runtime === self.current, let player = runtime.player,
          runtime.ads?.active == nil
        else { return }
        let landed = player.currentTime()
        runtime.qoe.jumped(to: landed)
        _ = runtime.cues.seek(to: landed, firesPassedCuePoints: false)
        self.notify(.progress(runtime.session, landed))
        self.playContent(runtime)
      }
    }
  }

  // MARK: Seeking (on the queue)

  /// The slots a seek from `from` to `target` plays first: the schedule's breaks by the
  /// seek mode, and every unplayed interstitial with `X-RESTRICT=JUMP` it crosses (the
  /// content owner's rule, whatever the mode); other interstitials are never forced.
  func slotsToPlay(
    _ ads: AdRuntime, seekingFrom from: MediaTime, to target: MediaTime
  ) -> [Int] {
    guard let timeline = ads.timeline, target > from else { return [] }
    let crossed = timeline.unplayedMidrolls(after: from, upTo: target)
    let scheduled = crossed.filter { ads.interstitials[timeline.slots[$0].id] == nil }
    let jumps = crossed.filter {
      ads.interstitials[timeline.slots[$0].id]?.interstitial.restrictions.contains(.jump)
        ?? false
    }
    let chosen: [Int]
    switch ads.plugin.configuration.seekMode {
    case .none: chosen = []
    case .all: chosen = scheduled
    case .last: chosen = scheduled.last.map { [$0] } ?? []
    }
    return (chosen + jumps).sorted {
      (timeline.slots[$0].position, $0) < (timeline.slots[$1].position, $1)
    }
  }

  /// A seek back to `target`: VOD interstitials after it that played (or failed) and lack
  /// `CUE=ONCE` play again when the content crosses them again.
  func rearmInterstitials(_ runtime: SessionRuntime, before target: MediaTime) {
    guard let ads = runtime.ads, let timeline = ads.timeline else { return }
    var changed = false
    for index in timeline.slots.indices {
      let slot = timeline.slots[index]
      guard slot.isFinished, let scheduled = ads.interstitials[slot.id], !scheduled.isLive,
        !scheduled.interstitial.cue.contains(.once), case .midroll(let time) = slot.position,
        time > target
      else { continue }
      ads.timeline?.rearm(index)
      changed = true
    }
    if changed { updatePausePoints(runtime) }
  }
}
