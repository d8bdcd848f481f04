import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadHLS

extension PlaybackController {
  // MARK: Lining the schedule up with the periods (on the queue)

  /// With stitched ads, once both the schedule and the content's server-side periods are
  /// known (and again as a live stream's periods appear): each period not lined up yet
  /// takes the first free break whose time offset is within the tolerance of its start (a
  /// post-roll: a period ending at the content's end), and breaks given by a tag are
  /// fetched now. On demand, breaks left without a period are logged.
  func adsMatchStitched(_ runtime: SessionRuntime) {
    guard let ads = runtime.ads, ads.isStitched, ads.scheduleSettled,
      let timeline = ads.timeline, !ads.serverSidePeriods.isEmpty
    else { return }
    let tolerance = MediaTime(
      milliseconds: Int64(ads.plugin.configuration.stitchAlignmentToleranceMs))
    let contentEnd = runtime.player?.currentItem?.duration
    var taken = Set(ads.stitchedSlots.values)
    let wasMatched = !ads.stitchedSlots.isEmpty
    for period in ads.serverSidePeriods where ads.stitchedSlots[period.id] == nil {
      let match = timeline.slots.indices.first { index in
        guard !taken.contains(index) else { return false }
        let at: MediaTime?
        switch timeline.slots[index].position {
        case .preroll: at = .zero
        case .midroll(let time): at = time
        case .postroll:
          guard let end = period.end, let contentEnd, contentEnd.isNumeric else { return false }
          return Self.isClose(end, contentEnd, within: tolerance)
        }
        return at.map { Self.isClose($0, period.start, within: tolerance) } ?? false
      }
      guard let match else { continue }
      taken.insert(match)
      ads.stitchedSlots[period.id] = match
      fetchStitched(slot: match, of: runtime)
    }
    guard !wasMatched, runtime.player?.currentItem?.streamKind == .vod else { return }
    for index in timeline.slots.indices where !taken.contains(index) {
      manager.log(
        "stitched break \(timeline.slots[index].id) lines up with no ad marker: not tracked")
    }
  }

  private static func isClose(_ a: MediaTime, _ b: MediaTime, within tolerance: MediaTime) -> Bool {
    (a > b ? a - b : b - a) <= tolerance
  }

  /// Fetches the ads of a stitched break given by a tag (its tracking is needed when its
  /// period plays); a failure is an `adError` for the break.
  private func fetchStitched(slot: Int, of runtime: SessionRuntime) {
    guard let ads = runtime.ads, let entry = ads.timeline?.slots[slot], !entry.isLoaded,
      case .tag(let url) = entry.adBreak.source
    else { return }
    ads.plugin.fetchAds(url, idPrefix: entry.id, targeting: adTargeting(ads.plugin)) {
      [weak self, weak runtime] pod in
      guard let self else { return }
      self.queue.async { [weak runtime] in
        guard let runtime, let ads = runtime.ads, runtime === self.current else { return }
        switch Self.result(of: pod) {
        case .success(let linear): ads.timeline?.setAds(linear, forSlot: slot)
        case .failure(let failure):
          ads.timeline?.failSlot(slot, errorCode: failure.code)
          self.reportAdError(
            failure.code, failure.message, runtime,
            urls: failure.errorURLs + (ads.timeline?.slots[slot].adBreak.errorURLs ?? []),
            slot: slot)
        }
      }
    }
  }

  // MARK: Playing a stitched break through (on the queue)

  /// The content entered `period`: when a break lines up with it and has ads,
  /// `adSequenceEnter`, `breakStart` and its first ad start; returns false otherwise (the
  /// period plays as one unnamed ad).
  func beginStitched(_ period: AdPeriod, _ runtime: SessionRuntime, at time: MediaTime) -> Bool {
    guard let ads = runtime.ads, let index = ads.stitchedSlots[period.id],
      let entry = ads.timeline?.slots[index], !entry.ads.isEmpty
    else { return false }
    let spans = StitchedBreakPlay.spans(of: entry.ads, in: period)
    guard !spans.isEmpty else { return false }
    let play = StitchedBreakPlay(slot: index, period: period, spans: spans)
    ads.stitched = play
    var properties = breakProperties(entry)
    properties["serverSide"] = .bool(true)
    properties["marker"] = .string(period.source.rawValue)
    sendAdLifecycle(.adSequenceEnter, runtime, time: period.start, properties: properties)
    sendBeacons(
      entry.adBreak.breakStartURLs, event: .breakStart, runtime, contentTime: period.start)
    if let player = runtime.player {
      play.token = player.addBoundaryTimeObserver(forTimes: play.marks, queue: queue) {
        [weak self, weak runtime] in
        guard let self, let runtime, runtime === self.current, let player = runtime.player
        else { return }
        self.stitchedMoved(runtime, to: player.currentTime())
      }
    }
    stitchedMoved(runtime, to: max(time, period.start))
    return true
  }

  /// The content is at `time` inside the stitched break: the ads it reached start (the one
  /// before completes), and the quartiles it passed of the ad on screen go out, each once.
  func stitchedMoved(_ runtime: SessionRuntime, to time: MediaTime) {
    guard let ads = runtime.ads, let play = ads.stitched, time.isNumeric else { return }
    let reached = play.spans.lastIndex { time >= $0.lowerBound } ?? 0
    while play.current < reached {
      if play.current >= 0 { finishStitchedAd(play, runtime, completed: true) }
      play.current += 1
      startStitchedAd(play, runtime)
    }
    let span = play.spans[play.current]
    let length = span.upperBound - span.lowerBound
    for (event, quarter) in [
      (AdTrackingEvent.firstQuartile, 1), (.midpoint, 2), (.thirdQuartile, 3),
    ]
    where time >= span.lowerBound + length.multiplied(byRatio: Int64(quarter), denominator: 4) {
      sendStitchedTracking(event, play, runtime)
    }
  }

  /// The content left the stitched break at `time`: the ad on screen ends (completed when
  /// the break's end was reached), `breakEnd` and `adSequenceExit`. Returns false without a
  /// stitched break.
  func endStitched(_ runtime: SessionRuntime, at time: MediaTime, reachedEnd: Bool) -> Bool {
    guard let ads = runtime.ads, let play = ads.stitched else { return false }
    if reachedEnd {
      stitchedMoved(runtime, to: play.spans[play.spans.count - 1].lowerBound)
      for event in [AdTrackingEvent.firstQuartile, .midpoint, .thirdQuartile] {
        sendStitchedTracking(event, play, runtime)
      }
    }
    if play.current >= 0 { finishStitchedAd(play, runtime, completed: reachedEnd) }
    if let token = play.token { runtime.player?.removeTimeObserver(token) }
    defer { ads.stitched = nil }
    guard let entry = ads.timeline?.slots[play.slot] else { return true }
    var properties = breakProperties(entry)
    properties["serverSide"] = .bool(true)
    sendBeacons(
      entry.adBreak.breakEndURLs, event: .breakEnd, runtime, contentTime: play.period.end)
    sendAdLifecycle(.adSequenceExit, runtime, time: time, properties: properties)
    return true
  }

  /// The content's pause or play during a stitched ad: its `pause` / `resume` tracking and
  /// `adPaused` / `adResumed`.
  func adsStitchedRateChanged(_ runtime: SessionRuntime, playing: Bool) {
    guard let ads = runtime.ads, let play = ads.stitched, play.current >= 0,
      play.isPaused == playing, let entry = ads.timeline?.slots[play.slot]
    else { return }
    play.isPaused = !playing
    let event: AdTrackingEvent = playing ? .resume : .pause
    let ad = entry.ads[play.current]
    sendBeacons(
      ad.trackingURLs[event] ?? [], event: event, runtime,
      adTime: stitchedAdTime(play, runtime))
    sendAdLifecycle(
      playing ? .adResumed : .adPaused, runtime, time: stitchedAdTime(play, runtime),
      properties: ["adId": .string(ad.id), "serverSide": .bool(true)])
  }

  /// The stitched ad on screen and its own time, for `mute` / `unmute` and the ad status.
  func stitchedAd(_ runtime: SessionRuntime) -> (ad: LinearAd, index: Int, time: MediaTime)? {
    guard let ads = runtime.ads, let play = ads.stitched, play.current >= 0,
      let entry = ads.timeline?.slots[play.slot], entry.ads.indices.contains(play.current)
    else { return nil }
    return (entry.ads[play.current], play.current, stitchedAdTime(play, runtime))
  }

  private func stitchedAdTime(_ play: StitchedBreakPlay, _ runtime: SessionRuntime) -> MediaTime {
    guard play.current >= 0, let time = runtime.player?.currentTime(), time.isNumeric else {
      return .zero
    }
    let span = play.spans[play.current]
    return max(.zero, min(time, span.upperBound) - span.lowerBound)
  }

  private func startStitchedAd(_ play: StitchedBreakPlay, _ runtime: SessionRuntime) {
    guard let ads = runtime.ads, let entry = ads.timeline?.slots[play.slot] else { return }
    let ad = entry.ads[play.current]
    ads.summary.adsStarted += 1
    var properties = breakProperties(entry)
    properties.merge(adProperties(ad, index: play.current, of: entry)) { $1 }
    properties["serverSide"] = .bool(true)
    sendAdLifecycle(
      .adEnter, runtime, time: play.spans[play.current].lowerBound, properties: properties)
    sendBeacons(
      ad.impressionURLs, event: .impression, runtime, adTime: .zero,
      contentTime: play.spans[play.current].lowerBound)
    sendStitchedTracking(.creativeView, play, runtime)
    sendStitchedTracking(.start, play, runtime)
  }

  private func finishStitchedAd(
    _ play: StitchedBreakPlay, _ runtime: SessionRuntime, completed: Bool
  ) {
    guard let ads = runtime.ads, let entry = ads.timeline?.slots[play.slot] else { return }
    let ad = entry.ads[play.current]
    if completed {
      sendStitchedTracking(.complete, play, runtime)
      ads.summary.adsCompleted += 1
    }
    ads.timeline?.setState(.played, ofAd: play.current, inSlot: play.slot)
    var properties = breakProperties(entry)
    properties.merge(adProperties(ad, index: play.current, of: entry)) { $1 }
    properties["serverSide"] = .bool(true)
    properties["outcome"] = .string(AdState.played.rawValue)
    properties["started"] = .bool(true)
    sendAdLifecycle(
      .adExit, runtime,
      time: min(runtime.player?.currentTime() ?? .zero, play.spans[play.current].upperBound),
      properties: properties)
  }

  private func sendStitchedTracking(
    _ event: AdTrackingEvent, _ play: StitchedBreakPlay, _ runtime: SessionRuntime
  ) {
    guard play.current >= 0, !play.sent[play.current].contains(event),
      let entry = runtime.ads?.timeline?.slots[play.slot]
    else { return }
    play.sent[play.current].insert(event)
    let ad = entry.ads[play.current]
    let span = play.spans[play.current]
    let length = span.upperBound - span.lowerBound
    let adTime: MediaTime
    switch event {
    case .firstQuartile: adTime = length.multiplied(byRatio: 1, denominator: 4)
    case .midpoint: adTime = length.multiplied(byRatio: 1, denominator: 2)
    case .thirdQuartile: adTime = length.multiplied(byRatio: 3, denominator: 4)
    case .complete: adTime = length
    default: adTime = .zero
    }
    sendBeacons(
      ad.trackingURLs[event] ?? [], event: event, runtime, adTime: adTime,
      contentTime: span.lowerBound + adTime)
  }
}
