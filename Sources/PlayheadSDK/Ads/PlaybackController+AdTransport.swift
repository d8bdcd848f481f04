import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine

extension PlaybackController {
  /// Whether an ad break is playing (or fetching its ads) in the current session.
  public var isPlayingAd: Bool {
    queue.sync { current?.ads?.active != nil }
  }

  /// The current session's ad timeline: its breaks, where they play and each ad's state;
  /// nil without ads or before the schedule arrived.
  public var adTimeline: AdTimeline? {
    queue.sync { current?.ads?.timeline }
  }

  /// What the current session's ads came to so far (breaks, ads started, completed,
  /// skipped, errors); nil without ads.
  public var adSummary: AdSummary? {
    queue.sync { current?.ads?.summary }
  }

  /// Skips the playing ad when it is skippable and its skip offset has passed: the `skip`
  /// beacon, `adSkipped`, `adExit`, then the next ad or the content. Otherwise nothing
  /// happens (logged).
  public func skipAd() {
    queue.async { [self] in
      guard let runtime = current, let active = runtime.ads?.active, let ad = active.ad,
        ad.hasStarted
      else { return }
      let time = ad.player.currentTime()
      guard !interstitialForbidsSkip(active, of: runtime) else {
        manager.log("skipAd refused: the interstitial's X-RESTRICT has SKIP")
        return
      }
      guard let from = ad.ad.skippableFrom(duration: ad.duration), time >= from else {
        manager.log("skipAd refused: the ad is not skippable yet")
        return
      }
      sendTracking(.skip, ad, runtime)
      runtime.ads?.summary.adsSkipped += 1
      sendAdLifecycle(.adSkipped, runtime, time: time, properties: ["adId": .string(ad.ad.id)])
      endAd(ad, state: .skipped, active: active, of: runtime)
    }
  }

  /// Follows the playing ad's click-through: its click-tracking URLs, `adClickThrough`,
  /// and the configuration's handler with the URL (or only the event without one). The ad
  /// pauses, as a viewer leaving for the advertiser's page expects. No effect without one.
  public func openAdClickThrough() {
    queue.async { [self] in
      guard let runtime = current, let ads = runtime.ads, let ad = ads.active?.ad,
        let text = ad.ad.clickThroughURL,
        let url = URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines))
      else { return }
      sendBeacons(
        ad.ad.clickTrackingURLs, event: .clickTracking, runtime,
        adTime: ad.player.currentTime(), assetURI: ad.media.url)
      sendAdLifecycle(
        .adClickThrough, runtime, time: ad.player.currentTime(),
        properties: ["url": .string(url.absoluteString), "adId": .string(ad.ad.id)])
      pauseActiveAd(runtime)
      if let handler = ads.plugin.configuration.clickThroughHandler {
        callbackQueue.async { handler(url) }
      }
    }
  }

  /// The viewer muted or unmuted: the ad on screen sends its `mute` or `unmute` tracking.
  /// Call on the queue.
  func adsMuteChanged(_ runtime: SessionRuntime, muted: Bool) {
    let event: AdTrackingEvent = muted ? .mute : .unmute
    if let stitched = stitchedAd(runtime) {
      sendBeacons(
        stitched.ad.trackingURLs[event] ?? [], event: event, runtime, adTime: stitched.time)
      return
    }
    guard let ad = runtime.ads?.active?.ad, ad.hasStarted else { return }
    sendAdBeacons(ad.ad.trackingURLs[event] ?? [], event: event.rawValue, ad, runtime)
  }

  /// Pauses the ad on screen; `adPaused` and the `pause` beacon. Call on the queue.
  func pauseActiveAd(_ runtime: SessionRuntime) {
    guard let ad = runtime.ads?.active?.ad, !ad.isPaused else { return }
    ad.isPaused = true
    ad.player.pause()
    guard ad.hasStarted else { return }
    sendAdBeacons(ad.ad.trackingURLs[.pause] ?? [], event: "pause", ad, runtime)
    sendAdLifecycle(.adPaused, runtime, time: ad.player.currentTime(), properties: [:])
  }

  /// Resumes the ad on screen; `adResumed` and the `resume` beacon. Call on the queue.
  func resumeActiveAd(_ runtime: SessionRuntime) {
    guard let ad = runtime.ads?.active?.ad, ad.isPaused else { return }
    ad.isPaused = false
    ad.player.play()
    guard ad.hasStarted else { return }
    sendAdBeacons(ad.ad.trackingURLs[.resume] ?? [], event: "resume", ad, runtime)
    sendAdLifecycle(.adResumed, runtime, time: ad.player.currentTime(), properties: [:])
  }

  /// Plans a seek of the content past unplayed mid-rolls (snapback): returns true when a
  /// break plays first (the content seeks meanwhile and plays from the target after it).
  /// Call on the queue.
  func adsTakeOverSeek(_ runtime: SessionRuntime, from: MediaTime, to target: MediaTime) -> Bool {
    guard let ads = runtime.ads, ads.timeline != nil, !ads.isStitched else { return false }
    // A new seek replaces what an earlier one queued.
    ads.queuedSlots = []
    guard !readSettings({ $0.adsDisabled }) else { return false }
    if target < from { rearmInterstitials(runtime, before: target) }
    let slots = slotsToPlay(ads, seekingFrom: from, to: target)
    guard let first = slots.first else { return false }
    guard runtime.isPlaying || runtime.player?.rate ?? 0 > 0 else {
      // Paused: the breaks play when the viewer presses play, before the content.
      ads.queuedSlots = slots
      return true
    }
    ads.queuedSlots = Array(slots.dropFirst())
    startBreak(first, of: runtime, resumesContent: true)
    return true
  }

  /// The post-roll is over: the content's end goes out now.
  func adsFinishedPostroll(_ runtime: SessionRuntime) {
    runtime.hasEnded = false
    finishContent(runtime, at: runtime.player?.currentTime() ?? .invalid)
  }
}
