import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine

extension PlaybackController {
  // MARK: Setting up (on the queue)

  /// Gives `runtime` its ads when its session carries the ads plug-in, and starts fetching
  /// the schedule. Call on the queue.
  func attachAds(_ runtime: SessionRuntime) {
    guard let plugin = runtime.session.attachedPlugin(ofType: AdsSessionPlugin.self) else {
      return
    }
    let ads = AdRuntime(plugin: plugin) { [weak self, weak runtime] result in
      guard let self else { return }
      self.queue.async { [weak runtime] in
        guard let runtime, runtime === self.current else { return }
        self.beaconSent(result, runtime)
      }
    }
    runtime.ads = ads
    plugin.fetchSchedule(targeting: adTargeting(plugin)) { [weak self, weak runtime] result in
      guard let self else { return }
      self.queue.async { [weak runtime] in
        guard let runtime, let ads = runtime.ads else { return }
        self.scheduleFetched(result, ads: ads, runtime)
      }
    }
  }

  /// The audience-segment key/values for ad requests: the configuration's, then the
  /// controller's (seed 002), which win.
  func adTargeting(_ plugin: AdsSessionPlugin) -> [String: String] {
    var values = plugin.configuration.audienceSegmentTargetingValues
    for (key, value) in readSettings({ $0.audienceSegmentTargetingValues }) {
      switch value {
      case .string(let text): values[key] = text
      case .number(let number):
        values[key] =
          number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
      case .bool(let flag): values[key] = String(flag)
      case .null, .array, .object: continue
      }
    }
    return values
  }

  private func scheduleFetched(
    _ result: Result<[AdBreak], AdFetchError>, ads: AdRuntime, _ runtime: SessionRuntime
  ) {
    guard !ads.scheduleSettled else { return }
    ads.scheduleSettled = true
    switch result {
    case .success(let breaks):
      let opportunities = runtime.session.video.cuePoints.cuePoints.compactMap { cuePoint in
        cuePoint.type == "ad" ? cuePoint.position.time : nil
      }
      let duration = runtime.player?.currentItem?.duration
      ads.timeline = AdTimeline(
        breaks: breaks, contentDuration: duration?.isNumeric == true ? duration : nil,
        adOpportunities: opportunities)
    case .failure(let failure):
      ads.timeline = AdTimeline(breaks: [])
      if runtime === current {
        reportAdError(failure.code, failure.message, runtime, urls: failure.errorURLs)
      }
    }
    adsTimelineMade(runtime)
    adsMatchStitched(runtime)
    updatePausePoints(runtime)
    if ads.isAwaitingSchedule, runtime === current {
      ads.isAwaitingSchedule = false
      playContent(runtime)
    }
  }

  /// The content is ready: a play that waited for it goes on (pre-roll first).
  func adsContentReady(_ runtime: SessionRuntime) {
    guard let ads = runtime.ads, ads.isAwaitingContent else { return }
    ads.isAwaitingContent = false
    playContent(runtime)
  }

  /// The content's duration became known: breaks placed by share of it find their place.
  func adsContentDurationChanged(_ runtime: SessionRuntime, _ duration: MediaTime) {
    guard let ads = runtime.ads, ads.timeline != nil else { return }
    ads.timeline?.place(contentDuration: duration)
    updatePausePoints(runtime)
  }

  /// Puts the unplayed mid-rolls on the content item as pause points (none while ads are
  /// disabled).
  func updatePausePoints(_ runtime: SessionRuntime) {
    guard let ads = runtime.ads, let item = runtime.player?.currentItem else { return }
    item.pausePoints = readSettings({ $0.adsDisabled }) ? [] : ads.pausePoints
  }

  // MARK: Hooks from the content's playback (on the queue)

  /// Called before the content plays: a pre-roll (or the schedule that may hold one) goes
  /// first. Returns true when the ads took over.
  func adsTakeOverPlay(_ runtime: SessionRuntime) -> Bool {
    guard let ads = runtime.ads, !readSettings({ $0.adsDisabled }) else { return false }
    if ads.active != nil || ads.isAwaitingContent { return true }
    guard runtime.isReady else {
      ads.isAwaitingContent = true
      return true
    }
    guard !runtime.hasStartedContent else {
      // Breaks a seek made while paused jumped over play first.
      guard let first = ads.queuedSlots.first else { return false }
      ads.queuedSlots.removeFirst()
      startBreak(first, of: runtime, resumesContent: true)
      return true
    }
    guard ads.scheduleSettled, let timeline = ads.timeline else {
      // The fetch is bounded by the resolver's per-hop timeout (`adTimeoutMs`).
      ads.isAwaitingSchedule = true
      return true
    }
    // Stitched breaks are in the content: nothing plays before it.
    if ads.isStitched { return false }
    if let preroll = timeline.pendingPreroll {
      startBreak(preroll, of: runtime, resumesContent: true, reachedByPlay: true)
      return true
    }
    guard let first = ads.queuedSlots.first else { return false }
    ads.queuedSlots.removeFirst()
    startBreak(first, of: runtime, resumesContent: true)
    return true
  }

  /// The content stopped at a break's pause point: the break plays.
  func adsPausePointReached(_ runtime: SessionRuntime, at time: MediaTime) {
    guard let ads = runtime.ads, ads.active == nil, let timeline = ads.timeline else { return }
    let due = timeline.slots.indices.filter {
      timeline.slots[$0].position == .midroll(time) && !timeline.slots[$0].isFinished
    }
    guard let first = due.first, !readSettings({ $0.adsDisabled }) else {
      runtime.player?.play()
      return
    }
    ads.queuedSlots = Array(due.dropFirst())
    startBreak(first, of: runtime, resumesContent: true, reachedByPlay: true)
  }

  /// Whether a rate change of the content is the ads' doing (a break's pause, or the
  /// content waiting under one), so that no `pause` / `play` goes out for it.
  func adsHoldContent(_ runtime: SessionRuntime) -> Bool {
    guard let ads = runtime.ads else { return false }
    if ads.active != nil || ads.isAwaitingSchedule || ads.isAwaitingContent { return true }
    guard let time = runtime.player?.currentTime() else { return false }
    return ads.pausePoints.contains(time)
  }

  /// Called when the content ends: the post-roll plays first. Returns true when it does
  /// (the content's `end` follows it).
  func adsTakeOverEnd(_ runtime: SessionRuntime) -> Bool {
    guard let ads = runtime.ads, !readSettings({ $0.adsDisabled }), ads.active == nil,
      !ads.isStitched, let postroll = ads.timeline?.pendingPostroll
    else { return false }
    ads.isEndPending = true
    startBreak(postroll, of: runtime, resumesContent: false)
    return true
  }

  /// Stops the ads of a session that ends.
  func detachAds(_ runtime: SessionRuntime) {
    guard let ads = runtime.ads else { return }
    if let active = ads.active {
      if let ad = active.ad { closeAd(ad) }
    }
    ads.active = nil
    if let prefetched = ads.prefetched { closeAd(prefetched.ad) }
    ads.prefetched = nil
    ads.plugin.cancel()
    ads.beacons.cancel()
  }
}
