import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine

extension PlaybackController {
  /// The content moved: within `prefetchLeadMs` of the next unplayed mid-roll (or of the
  /// end, for a post-roll), fetch its tag and open its first ad ahead. Call on the queue.
  func adsProgressed(_ runtime: SessionRuntime, to time: MediaTime) {
    guard let ads = runtime.ads, ads.active == nil, ads.prefetched == nil, !ads.isStitched,
      ads.fetchingSlot == nil, let timeline = ads.timeline, !isFastClock,
      !readSettings({ $0.adsDisabled })
    else { return }
    let leadMs = ads.plugin.configuration.prefetchLeadMs
    guard leadMs > 0 else { return }
    let horizon = time + .fromMilliseconds(leadMs)
    let duration = runtime.player?.currentItem?.duration
    let next = timeline.slots.indices.first { index in
      let slot = timeline.slots[index]
      guard !slot.isFinished else { return false }
      switch slot.position {
      case .preroll: return false
      case .midroll(let at): return at > time && at <= horizon
      case .postroll: return duration.map { $0.isNumeric && $0 <= horizon } ?? false
      }
    }
    guard let next else { return }
    prefetch(slot: next, of: runtime)
  }

  /// Fetches `slot`'s tag if needed, then opens its first available ad, paused and hidden.
  private func prefetch(slot: Int, of runtime: SessionRuntime) {
    guard let ads = runtime.ads, let entry = ads.timeline?.slots[slot] else { return }
    guard entry.isLoaded else {
      // The slot is found again by id when the answer comes: slots inserted meanwhile (a
      // live interstitial) move indices.
      let id = entry.id
      let started = fetchSlotAds(entry, of: runtime) { [weak self, weak runtime] result in
        guard let self, let runtime, let ads = runtime.ads,
          let slot = ads.timeline?.index(ofSlot: id), ads.fetchingSlot == slot
        else { return }
        ads.fetchingSlot = nil
        self.slotFetched(result, slot: slot, of: runtime)
      }
      if started { ads.fetchingSlot = slot }
      return
    }
    openAhead(slot: slot, of: runtime)
  }

  /// A prefetched tag arrived: the ads join the timeline (or the slot fails); a break that
  /// started meanwhile goes on with them, otherwise its first ad is opened ahead.
  func slotFetched(
    _ result: Result<[LinearAd], AdFetchError>, slot: Int, of runtime: SessionRuntime
  ) {
    guard let ads = runtime.ads else { return }
    if let active = ads.active, active.slot == slot, active.isFetching {
      breakFetched(result, active, of: runtime)
      return
    }
    switch result {
    case .success(let linear): ads.timeline?.setAds(linear, forSlot: slot)
    case .failure(let failure):
      ads.timeline?.failSlot(slot, errorCode: failure.code)
      let breakURLs = ads.timeline?.slots[slot].adBreak.errorURLs ?? []
      reportAdError(
        failure.code, failure.message, runtime, urls: failure.errorURLs + breakURLs, slot: slot)
      updatePausePoints(runtime)
      return
    }
    openAhead(slot: slot, of: runtime)
  }

  private func openAhead(slot: Int, of runtime: SessionRuntime) {
    guard let ads = runtime.ads, let entry = ads.timeline?.slots[slot],
      let index = entry.adStates.firstIndex(of: .available)
    else { return }
    let ad = entry.ads[index]
    let estimate = runtime.player?.currentItem?.accessLog().last?.observedBitrate
    guard
      case .success(let media) = VASTMediaSelection().choose(
        from: ad.mediaFiles, bandwidthBitsPerSecond: estimate),
      let opened = makeAdPlayer(ad, index: index, media: media, of: runtime)
    else { return }
    ads.prefetched = (slot, opened)
  }

  /// The prefetched ad for `index` of `slot`, taken; a prefetch for anything else is closed.
  func takePrefetched(slot: Int, index: Int, of runtime: SessionRuntime) -> ActiveAd? {
    guard let ads = runtime.ads, let prefetched = ads.prefetched else { return nil }
    ads.prefetched = nil
    guard prefetched.slot == slot, prefetched.ad.index == index else {
      closeAd(prefetched.ad)
      return nil
    }
    return prefetched.ad
  }
}
