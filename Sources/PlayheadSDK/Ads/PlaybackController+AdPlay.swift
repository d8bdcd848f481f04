import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine

extension PlaybackController {
  // MARK: One ad (on the queue)

  /// A paused, hidden player for `ad`, made like the session's (clock, outputs, stack);
  /// nil when the media file's URL is not one.
  func makeAdPlayer(
    _ ad: LinearAd, index: Int, media: VASTMediaFile, of runtime: SessionRuntime
  ) -> ActiveAd? {
    guard let ads = runtime.ads,
      let url = URL(string: media.url.trimmingCharacters(in: .whitespacesAndNewlines))
    else { return nil }
    var configuration = ads.plugin.playerConfiguration
    let gate = AdVideoGate(target: configuration.videoSink)
    configuration.videoSink = gate
    configuration.urlSourceExpiredHandler = nil
    configuration.noProgressTimeoutMs = ads.plugin.configuration.adTimeoutMs
    let item = PlayerItem(url: url)
    let player = Player(playerItem: item, configuration: configuration)
    player.isMuted = readSettings { $0.isMuted }
    return ActiveAd(index: index, ad: ad, media: media, player: player, item: item, gate: gate)
  }

  /// Plays `ad` (opened ahead when it was prefetched), its frames shown while it is on
  /// screen.
  func startAd(
    _ ad: LinearAd, index: Int, media: VASTMediaFile, active: ActiveAdBreak,
    of runtime: SessionRuntime
  ) {
    guard runtime.ads != nil,
      let current = takePrefetched(slot: active.slot, index: index, of: runtime)
        ?? makeAdPlayer(ad, index: index, media: media, of: runtime)
    else {
      failAd(
        index: index, ad: ad, code: 401, message: "the media file URL is not a URL",
        active: active, of: runtime, adTime: .zero)
      return
    }
    let player = current.player
    active.ad = current
    current.gate.isOpen = true
    let interval = readSettings { $0.progressInterval }
    current.tokens.append(
      player.addEventObserver(queue: queue) { [weak self, weak runtime, weak current] event in
        guard let self, let runtime, let current, runtime.ads?.active?.ad === current else {
          return
        }
        self.handleAdEvent(event, current, active: active, of: runtime)
      })
    current.tokens.append(
      player.addPeriodicTimeObserver(forInterval: interval, queue: queue) {
        [weak self, weak runtime, weak current] time in
        guard let self, let runtime, let current, runtime.ads?.active?.ad === current,
          current.hasStarted
        else { return }
        self.sendAdLifecycle(
          .adProgress, runtime, time: time,
          properties: current.duration.map { ["duration": .number($0.seconds)] } ?? [:])
      })
    // Real-time and test-driven clocks bound the start (402); in fast mode the engine's own
    // no-progress watchdog does, as time there moves only with the players' work.
    if !isFastClock {
      current.startTimer = makeStartTimer(current, active: active, of: runtime)
    }
    applyPlayoutLimit(current, active: active, of: runtime)
    current.player.play()
    // Opened ahead, it may be ready already: its quartiles are set now.
    if player.currentItem?.status == .readyToPlay {
      if let item = player.currentItem, item.duration.isNumeric, item.duration > .zero {
        current.duration = item.duration
      }
      watchQuartiles(current, active: active, of: runtime)
    }
  }

  private func makeStartTimer(
    _ current: ActiveAd, active: ActiveAdBreak, of runtime: SessionRuntime
  ) -> ClockTimer? {
    guard let ads = runtime.ads else { return nil }
    return ClockTimer(
      clock: clock, afterMs: ads.plugin.configuration.adTimeoutMs, queue: queue
    ) { [weak self, weak runtime, weak current] in
      guard let self, let runtime, let current, runtime.ads?.active?.ad === current,
        !current.hasStarted
      else { return }
      self.failAd(
        index: current.index, ad: current.ad, code: 402,
        message: "the ad did not start within \(ads.plugin.configuration.adTimeoutMs) ms",
        active: active, of: runtime, adTime: .zero)
    }
  }

  private func handleAdEvent(
    _ event: PlayerEvent, _ current: ActiveAd, active: ActiveAdBreak, of runtime: SessionRuntime
  ) {
    switch event.kind {
    case .itemStatusChanged(let item, .readyToPlay):
      if item.duration.isNumeric, item.duration > .zero { current.duration = item.duration }
      watchQuartiles(current, active: active, of: runtime)
    case .timeControlStatusChanged(.playing):
      guard !current.hasStarted else { return }
      adStarted(current, of: runtime)
    case .didPlayToEnd:
      completeAd(current, active: active, of: runtime)
    case .itemStatusChanged(_, .failed(let error)), .failedToPlayToEnd(_, let error):
      let code: Int
      switch error.code {
      case .fileNotFound: code = 401
      case .timedOut, .noProgress: code = 402
      default: code = error.httpStatusCode == 404 ? 401 : 405
      }
      failAd(
        index: current.index, ad: current.ad, code: code, message: error.message, active: active,
        of: runtime, adTime: current.player.currentTime())
    default:
      return
    }
  }

  /// The first frame is out: impression, creativeView and start.
  private func adStarted(_ current: ActiveAd, of runtime: SessionRuntime) {
    current.hasStarted = true
    current.startTimer?.cancel()
    runtime.ads?.summary.adsStarted += 1
    sendAdBeacons(current.ad.impressionURLs, event: "impression", current, runtime)
    sendTracking(.creativeView, current, runtime)
    sendTracking(.start, current, runtime)
  }

  /// Boundary observers at the quartiles and progress offsets of the ad's own time.
  private func watchQuartiles(
    _ current: ActiveAd, active: ActiveAdBreak, of runtime: SessionRuntime
  ) {
    guard let duration = current.duration, duration > .zero else { return }
    var marks: [(MediaTime, @Sendable () -> Void)] = []
    for (event, quarter) in [
      (AdTrackingEvent.firstQuartile, 1), (.midpoint, 2), (.thirdQuartile, 3),
    ] {
      let time = duration.multiplied(byRatio: Int64(quarter), denominator: 4)
      marks.append(
        (
          time,
          { [weak self, weak runtime, weak current] in
            guard let self, let runtime, let current, runtime.ads?.active?.ad === current else {
              return
            }
            self.sendTracking(event, current, runtime)
          }
        ))
    }
    for beacon in current.ad.progressBeacons {
      guard let time = beacon.offset.time(inAdOf: duration) else { continue }
      marks.append(
        (
          time,
          { [weak self, weak runtime, weak current] in
            guard let self, let runtime, let current, runtime.ads?.active?.ad === current else {
              return
            }
            self.sendAdBeacons([beacon.url], event: "progress", current, runtime)
          }
        ))
    }
    for (time, body) in marks {
      current.tokens.append(
        current.player.addBoundaryTimeObserver(forTimes: [time], queue: queue, using: body))
    }
  }

  private func completeAd(_ current: ActiveAd, active: ActiveAdBreak, of runtime: SessionRuntime) {
    if !current.hasStarted { adStarted(current, of: runtime) }
    sendTracking(.complete, current, runtime)
    runtime.ads?.summary.adsCompleted += 1
    endAd(current, state: .played, active: active, of: runtime)
  }

  /// The ad could not play: its error URLs with `code`, `adError`, `adExit`, then the next
  /// ad of the pod.
  func failAd(
    index: Int, ad: LinearAd, code: Int, message: String, active: ActiveAdBreak,
    of runtime: SessionRuntime, adTime: MediaTime
  ) {
    guard let ads = runtime.ads, let entry = ads.timeline?.slots[active.slot] else { return }
    ads.summary.errors += 1
    var properties = breakProperties(entry)
    properties.merge(adProperties(ad, index: index, of: entry)) { $1 }
    properties["code"] = .number(Double(code))
    manager.log("ad \(ad.id) failed (\(code)): \(message)")
    sendAdLifecycle(
      .adError, runtime, error: PlayheadError(.adFailed, "ad error \(code): \(message)"),
      time: adTime, properties: properties)
    sendBeacons(
      ad.errorURLs, event: .error, runtime, errorCode: code, adTime: adTime,
      assetURI: active.ad?.media.url)
    if let current = active.ad, current.index == index {
      endAd(current, state: .failed, active: active, of: runtime)
    } else {
      ads.timeline?.setState(.failed, ofAd: index, inSlot: active.slot)
      properties["code"] = nil
      properties["outcome"] = .string(AdState.failed.rawValue)
      properties["started"] = .bool(false)
      sendAdLifecycle(.adExit, runtime, time: adTime, properties: properties)
      playNextAd(active, of: runtime)
    }
  }

  /// Ends the current ad with `state`: `adExit`, its player closed, then the next ad.
  func endAd(
    _ current: ActiveAd, state: AdState, active: ActiveAdBreak, of runtime: SessionRuntime
  ) {
    guard let ads = runtime.ads, let entry = ads.timeline?.slots[active.slot] else { return }
    let time = current.player.currentTime()
    if current.hasStarted, time.isNumeric, time > .zero {
      active.playedTime = active.playedTime + time
    }
    ads.timeline?.setState(state, ofAd: current.index, inSlot: active.slot)
    var properties = breakProperties(entry)
    properties.merge(adProperties(current.ad, index: current.index, of: entry)) { $1 }
    properties["outcome"] = .string(state.rawValue)
    properties["started"] = .bool(current.hasStarted)
    sendAdLifecycle(.adExit, runtime, time: time, properties: properties)
    closeAd(current)
    active.ad = nil
    playNextAd(active, of: runtime)
  }

  /// Stops an ad's player and its observers.
  func closeAd(_ current: ActiveAd) {
    current.gate.isOpen = false
    current.startTimer?.cancel()
    for token in current.tokens {
      current.player.removeEventObserver(token)
      current.player.removeTimeObserver(token)
    }
    current.tokens.removeAll()
    current.player.close()
  }

  // MARK: Beacons

  /// Sends the ad's tracking URLs of `event` once per ad play.
  func sendTracking(_ event: AdTrackingEvent, _ current: ActiveAd, _ runtime: SessionRuntime) {
    guard !current.sent.contains(event) else { return }
    current.sent.insert(event)
    sendAdBeacons(current.ad.trackingURLs[event] ?? [], event: event.rawValue, current, runtime)
  }

  func sendAdBeacons(
    _ urls: [String], event: String, _ current: ActiveAd, _ runtime: SessionRuntime
  ) {
    sendBeacons(
      urls, eventName: event, runtime, adTime: current.player.currentTime(),
      assetURI: current.media.url)
  }

  /// Sends `urls` for a tracking event with the VAST 4 macros expanded; `contentTime` is
  /// `[CONTENTPLAYHEAD]` when given (a stitched ad's exact time), else the content's
  /// position now.
  func sendBeacons(
    _ urls: [String], event: AdTrackingEvent, _ runtime: SessionRuntime, errorCode: Int? = nil,
    adTime: MediaTime? = nil, assetURI: String? = nil, contentTime: MediaTime? = nil
  ) {
    sendBeacons(
      urls, eventName: event.rawValue, runtime, errorCode: errorCode, adTime: adTime,
      assetURI: assetURI, contentTime: contentTime)
  }

  private func sendBeacons(
    _ urls: [String], eventName: String, _ runtime: SessionRuntime, errorCode: Int? = nil,
    adTime: MediaTime? = nil, assetURI: String? = nil, contentTime: MediaTime? = nil
  ) {
    guard !urls.isEmpty, let ads = runtime.ads else { return }
    let slot = (ads.active?.slot ?? ads.stitched?.slot).flatMap { ads.timeline?.slots[$0] }
    let position: VASTBreakPosition? = slot.map {
      switch $0.position {
      case .preroll: return .preRoll
      case .midroll: return .midRoll
      case .postroll: return .postRoll
      }
    }
    let context = VASTMacroContext(
      errorCode: errorCode.map(VASTErrorCode.init(rawValue:)), timestamp: Date(),
      contentPlayhead: contentTime ?? runtime.player?.currentTime(), mediaPlayhead: adTime,
      adPlayhead: adTime, assetURI: assetURI, breakPosition: position,
      adCount: slot?.ads.count)
    var generator = SystemRandomNumberGenerator()
    let expanded = urls.compactMap { text -> URL? in
      let line = VASTMacros.expand(text, context: context, using: &generator)
      return URL(string: line.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    ads.beacons.send(expanded, event: eventName)
  }

  /// A beacon's outcome reaches the application as `adBeacon`, and the log.
  func beaconSent(_ result: AdBeaconResult, _ runtime: SessionRuntime) {
    var properties: [String: JSONValue] = [
      "event": .string(result.event), "url": .string(result.url.absoluteString),
    ]
    if let status = result.statusCode { properties["status"] = .number(Double(status)) }
    if let message = result.errorMessage {
      properties["error"] = .string(message)
      manager.log("ad beacon \(result.event) failed: \(message)")
    }
    sendAdLifecycle(.adBeacon, runtime, properties: properties)
  }
}
