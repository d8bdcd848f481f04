import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine

extension PlaybackController {
  // MARK: Breaks (on the queue)

  /// Starts the break of timeline slot `slot`: fetches its ads if they are not known yet,
  /// then `adSequenceEnter` and its first ad. `reachedByPlay`: the content played into it
  /// (not a seek past it), so an interstitial's resume offset applies after it.
  func startBreak(
    _ slot: Int, of runtime: SessionRuntime, resumesContent: Bool, reachedByPlay: Bool = false
  ) {
    guard let ads = runtime.ads, let timeline = ads.timeline, timeline.slots.indices.contains(slot)
    else { return }
    let active = ActiveAdBreak(
      slot: slot, resumesContent: resumesContent, reachedByPlay: reachedByPlay)
    ads.active = active
    runtime.player?.pause()
    let entry = timeline.slots[slot]
    guard !entry.isLoaded else {
      enterBreak(active, of: runtime)
      return
    }
    // A prefetch already asked for the ads: its answer goes on with this break.
    if ads.fetchingSlot == slot {
      active.isFetching = true
      return
    }
    // The resolver bounds every hop by `adTimeoutMs` on the player's clock (301), as the
    // asset-list fetch bounds its request.
    active.isFetching = true
    let started = fetchSlotAds(entry, of: runtime) { [weak self, weak runtime] result in
      guard let self, let runtime, runtime.ads?.active === active else { return }
      self.breakFetched(result, active, of: runtime)
    }
    if !started {
      active.isFetching = false
      enterBreak(active, of: runtime)
    }
  }

  /// A break's pod as a result: its ads, or the first failure's code when it has none
  /// (303 when nothing says why). Failures beside ads are pinged with the ads' play.
  static func result(of pod: AdPodResolution) -> Result<[LinearAd], AdFetchError> {
    guard pod.ads.isEmpty else { return .success(pod.ads) }
    let first = pod.failures.first
    return .failure(
      AdFetchError(
        code: first?.code.rawValue ?? 303, message: first?.message ?? "the ad response has no ad",
        errorURLs: pod.failures.flatMap(\.errorURLs)))
  }

  func breakFetched(
    _ result: Result<[LinearAd], AdFetchError>, _ active: ActiveAdBreak,
    of runtime: SessionRuntime
  ) {
    guard let ads = runtime.ads, active.isFetching else { return }
    active.isFetching = false
    switch result {
    case .success(let linear):
      ads.timeline?.setAds(linear, forSlot: active.slot)
      enterBreak(active, of: runtime)
    case .failure(let failure):
      ads.timeline?.failSlot(active.slot, errorCode: failure.code)
      let breakURLs = ads.timeline?.slots[active.slot].adBreak.errorURLs ?? []
      reportAdError(
        failure.code, failure.message, runtime, urls: failure.errorURLs + breakURLs,
        slot: active.slot)
      finishBreak(active, of: runtime, entered: false)
    }
  }

  /// `adSequenceEnter`, `breakStart`, and the first ad; an empty pod ends at once with 303.
  private func enterBreak(_ active: ActiveAdBreak, of runtime: SessionRuntime) {
    guard let ads = runtime.ads, let entry = ads.timeline?.slots[active.slot] else { return }
    if entry.ads.isEmpty {
      ads.timeline?.failSlot(active.slot, errorCode: 303)
      reportAdError(
        303, "the ad response has no ad", runtime, urls: entry.adBreak.errorURLs,
        slot: active.slot)
      finishBreak(active, of: runtime, entered: false)
      return
    }
    active.hasEntered = true
    ads.summary.breaks += 1
    sendAdLifecycle(.adSequenceEnter, runtime, properties: breakProperties(entry))
    sendBeacons(entry.adBreak.breakStartURLs, event: .breakStart, runtime)
    playNextAd(active, of: runtime)
  }

  /// Plays the pod's next available ad, or ends the break.
  func playNextAd(_ active: ActiveAdBreak, of runtime: SessionRuntime) {
    guard let ads = runtime.ads, let entry = ads.timeline?.slots[active.slot] else { return }
    if reachedPlayoutLimit(active, of: runtime) {
      finishBreak(active, of: runtime, entered: true)
      return
    }
    var next = active.adIndex + 1
    while next < entry.ads.count, entry.adStates[next] != .available { next += 1 }
    active.adIndex = next
    guard next < entry.ads.count else {
      finishBreak(active, of: runtime, entered: true)
      return
    }
    let ad = entry.ads[next]
    var properties = breakProperties(entry)
    properties.merge(adProperties(ad, index: next, of: entry)) { $1 }
    sendAdLifecycle(.adEnter, runtime, time: .zero, properties: properties)
    let estimate = runtime.player?.currentItem?.accessLog().last?.observedBitrate
    let choice = VASTMediaSelection().choose(
      from: ad.mediaFiles, bandwidthBitsPerSecond: estimate)
    guard case .success(let media) = choice else {
      if case .failure(let failure) = choice {
        failAd(
          index: next, ad: ad, code: failure.code.rawValue, message: failure.message,
          active: active, of: runtime, adTime: .zero)
      }
      return
    }
    startAd(ad, index: next, media: media, active: active, of: runtime)
  }

  /// The break is over: `breakEnd` and `adSequenceExit` (when it was entered), then the
  /// next queued break, or the content.
  func finishBreak(_ active: ActiveAdBreak, of runtime: SessionRuntime, entered: Bool) {
    guard let ads = runtime.ads, ads.active === active else { return }
    ads.active = nil
    if entered, let entry = ads.timeline?.slots[active.slot] {
      sendBeacons(entry.adBreak.breakEndURLs, event: .breakEnd, runtime)
      sendAdLifecycle(.adSequenceExit, runtime, properties: breakProperties(entry))
    }
    updatePausePoints(runtime)
    if let next = ads.queuedSlots.first {
      ads.queuedSlots.removeFirst()
      startBreak(
        next, of: runtime, resumesContent: active.resumesContent,
        reachedByPlay: active.reachedByPlay)
      return
    }
    if ads.isEndPending {
      ads.isEndPending = false
      adsFinishedPostroll(runtime)
      return
    }
    if active.resumesContent { resumeContent(after: active, of: runtime) }
  }

  // MARK: Event payloads

  func breakProperties(_ entry: AdTimeline.Slot) -> [String: JSONValue] {
    let time = entry.position.contentTime.map { JSONValue.number($0.seconds) } ?? .number(-1)
    return [
      "breakId": .string(entry.id), "breakTime": time,
      "position": .string(positionName(entry.position)),
      "adCount": .number(Double(entry.ads.count)),
    ]
  }

  func adProperties(_ ad: LinearAd, index: Int, of entry: AdTimeline.Slot) -> [String: JSONValue] {
    var properties: [String: JSONValue] = [
      "adId": .string(ad.id), "sequence": .number(Double(index + 1)),
    ]
    if let duration = ad.duration { properties["duration"] = .number(duration.seconds) }
    if let title = ad.title { properties["title"] = .string(title) }
    return properties
  }

  private func positionName(_ position: AdBreakPosition) -> String {
    switch position {
    case .preroll: return "preroll"
    case .midroll: return "midroll"
    case .postroll: return "postroll"
    }
  }

  /// Sends an ad lifecycle event: `time` is the ad's own time where one applies, else the
  /// content's.
  func sendAdLifecycle(
    _ type: LifecycleEventType, _ runtime: SessionRuntime, error: PlayheadError? = nil,
    time: MediaTime? = nil, properties: [String: JSONValue]
  ) {
    let event = LifecycleEvent(
      type: type, error: error,
      currentTime: time ?? runtime.player?.currentTime() ?? .invalid, clockTime: clock.now,
      properties: properties)
    notify(.lifecycle(runtime.session, event))
  }

  /// `adError` for a failure outside one ad (the schedule, a break's tag), with its error
  /// URLs pinged.
  func reportAdError(
    _ code: Int, _ message: String, _ runtime: SessionRuntime, urls: [String], slot: Int? = nil
  ) {
    runtime.ads?.summary.errors += 1
    var properties: [String: JSONValue] = ["code": .number(Double(code))]
    if let slot, let entry = runtime.ads?.timeline?.slots[slot] {
      properties.merge(breakProperties(entry)) { $1 }
    }
    manager.log("ad error \(code): \(message)")
    sendAdLifecycle(
      .adError, runtime, error: PlayheadError(.adFailed, "ad error \(code): \(message)"),
      properties: properties)
    sendBeacons(urls, event: .error, runtime, errorCode: code)
  }
}
