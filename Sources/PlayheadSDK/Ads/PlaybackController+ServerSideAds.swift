import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadHLS

extension PlaybackController {
  /// The current session's content timeline with its server-side ad periods taken out
  /// (seed 000's SSAI plug-in: the content's own position and duration for a slider); nil
  /// without the ads plug-in, before the content is ready, or when it marks no ad.
  public var contentTimeMap: ContentTimeMap? {
    queue.sync {
      guard let runtime = current, let ads = runtime.ads, !ads.serverSidePeriods.isEmpty,
        let duration = runtime.player?.currentItem?.duration, duration.isNumeric
      else { return nil }
      return ContentTimeMap(periods: ads.serverSidePeriods, playlistDuration: duration)
    }
  }

  /// The content is ready: its server-side ad periods (complete ones, with an end) are
  /// followed from here on. Call on the queue.
  func adsServerSideReady(_ runtime: SessionRuntime) {
    guard let ads = runtime.ads, let player = runtime.player, let item = player.currentItem,
      ads.serverSidePeriods.isEmpty
    else { return }
    ads.serverSidePeriods = item.serverSideAdPeriods.filter { $0.end != nil }
    adsMatchStitched(runtime)
    observeEdges(runtime)
    adsServerSideMoved(runtime, to: player.currentTime())
  }

  /// A live stream's periods follow its playlist: breaks that appeared on a reload (with
  /// an end: a declared duration or their `CUE-IN`) are followed from here on, once each;
  /// those that ended before the window's start are let go (a long live session keeps
  /// only the breaks it can still reach). Call on the queue.
  func adsServerSideRefresh(_ runtime: SessionRuntime) {
    guard let ads = runtime.ads, let item = runtime.player?.currentItem, item.streamKind != .vod
    else { return }
    let known = Set(ads.serverSidePeriods.map(\.id))
    let added = item.serverSideAdPeriods.filter { $0.end != nil && !known.contains($0.id) }
    let windowStart = item.seekableTimeRanges.first?.start
    let gone = ads.serverSidePeriods.filter { period in
      guard let windowStart, let end = period.end, period.id != ads.activePeriod?.id else {
        return false
      }
      return end < windowStart
    }
    guard !added.isEmpty || !gone.isEmpty else { return }
    let goneIDs = Set(gone.map(\.id))
    ads.serverSidePeriods = (ads.serverSidePeriods.filter { !goneIDs.contains($0.id) } + added)
      .sorted { $0.start < $1.start }
    ads.watchedPeriods.subtract(goneIDs)
    adsMatchStitched(runtime)
    observeEdges(runtime)
  }

  /// One boundary observer at every followed period's start and end on the content's
  /// player (replacing the one before).
  private func observeEdges(_ runtime: SessionRuntime) {
    guard let ads = runtime.ads, let player = runtime.player else { return }
    if let old = ads.periodEdgesToken {
      player.removeTimeObserver(old)
      runtime.observerTokens.removeAll { $0 == old }
      ads.periodEdgesToken = nil
    }
    let edges = ads.serverSidePeriods.flatMap { [$0.start, $0.end ?? $0.start] }
    guard !edges.isEmpty else { return }
    let token = player.addBoundaryTimeObserver(forTimes: edges, queue: queue) {
        [weak self, weak runtime] in
        guard let self, let runtime, runtime === self.current, let player = runtime.player
        else { return }
        self.adsServerSideMoved(runtime, to: player.currentTime())
      }
    ads.periodEdgesToken = token
    runtime.observerTokens.append(token)
  }

  /// The content is at `time`: entering an unwatched period sends `adSequenceEnter` and
  /// `adEnter`; leaving the one playing sends `adExit` and `adSequenceExit` (then the
  /// content goes where a seek meant to land). Call on the queue.
  func adsServerSideMoved(_ runtime: SessionRuntime, to time: MediaTime) {
    adsServerSideRefresh(runtime)
    guard let ads = runtime.ads, !ads.serverSidePeriods.isEmpty else { return }
    if let period = ads.activePeriod {
      guard let end = period.end, time >= end || time < period.start else {
        stitchedMoved(runtime, to: time)
        return
      }
      ads.activePeriod = nil
      ads.watchedPeriods.insert(period.id)
      if !endStitched(runtime, at: min(time, end), reachedEnd: time >= end) {
        var properties = periodProperties(period)
        properties["outcome"] = .string(AdState.played.rawValue)
        properties["started"] = .bool(true)
        sendAdLifecycle(.adExit, runtime, time: min(time, end), properties: properties)
        sendAdLifecycle(.adSequenceExit, runtime, time: min(time, end), properties: properties)
      }
      if let landing = ads.periodLanding {
        ads.periodLanding = nil
        seekContent(runtime, to: landing)
      }
    }
    guard ads.activePeriod == nil,
      let period = ads.serverSidePeriods.first(where: { period in
        !ads.watchedPeriods.contains(period.id) && time >= period.start
          && time < (period.end ?? period.start)
      })
    else { return }
    ads.activePeriod = period
    ads.summary.breaks += 1
    if beginStitched(period, runtime, at: time) { return }
    ads.summary.adsStarted += 1
    let properties = periodProperties(period)
    sendAdLifecycle(.adSequenceEnter, runtime, time: period.start, properties: properties)
    sendAdLifecycle(.adEnter, runtime, time: period.start, properties: properties)
  }

  /// Where a seek from `from` to `target` goes with server-side periods: into an unwatched
  /// period, its start; past unwatched ones (unless the seek mode is `.none`), the start of
  /// the last of them, the content landing at `target` once it is over (snapback).
  func adsServerSideSeekTarget(
    _ runtime: SessionRuntime, from: MediaTime, to target: MediaTime
  ) -> MediaTime {
    guard let ads = runtime.ads, !ads.serverSidePeriods.isEmpty, ads.activePeriod == nil,
      !readSettings({ $0.adsDisabled }), ads.plugin.configuration.seekMode != .none
    else { return target }
    ads.periodLanding = nil
    let unwatched = ads.serverSidePeriods.filter { !ads.watchedPeriods.contains($0.id) }
    if let inside = unwatched.first(where: {
      target >= $0.start && target < ($0.end ?? $0.start)
    }) {
      return inside.start
    }
    guard target > from,
      let last = unwatched.last(where: { $0.start > from && $0.start <= target })
    else { return target }
    ads.periodLanding = target
    return last.start
  }

  /// Seeks the content exactly, playing no break (the landing after a snapback).
  private func seekContent(_ runtime: SessionRuntime, to time: MediaTime) {
    guard let player = runtime.player else { return }
    player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero) {
      [weak self, weak runtime] finished in
      guard let self else { return }
      self.queue.async { [weak runtime] in
        guard let runtime, runtime === self.current, finished, let player = runtime.player
        else { return }
        let landed = player.currentTime()
        runtime.qoe.jumped(to: landed)
        _ = runtime.cues.seek(to: landed, firesPassedCuePoints: false)
        self.notify(.progress(runtime.session, landed))
      }
    }
  }

  private func periodProperties(_ period: AdPeriod) -> [String: JSONValue] {
    var properties: [String: JSONValue] = [
      "breakId": .string(period.id), "breakTime": .number(period.start.seconds),
      "position": .string(period.start <= .zero ? "preroll" : "midroll"),
      "adCount": .number(1), "adId": .string(period.id), "sequence": .number(1),
      "serverSide": .bool(true), "marker": .string(period.source.rawValue),
    ]
    if let duration = period.duration { properties["duration"] = .number(duration.seconds) }
    return properties
  }
}
