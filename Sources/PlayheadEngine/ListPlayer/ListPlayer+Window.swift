import Foundation
import PlayheadCore

extension ListPlayer {
  // MARK: Settings

  /// How many items behind and ahead of the current one are preloaded (each at least 0);
  /// the seed's `setPreloadCount:nextCount:`. Default: 1 behind, 1 ahead.
  public func setPreloadCount(previous: Int, next: Int) {
    state.withLock { state in
      state.previousCount = max(0, previous)
      state.nextCount = max(0, next)
      planWindow(&state)
    }
  }

  /// The preload counts behind and ahead.
  public var preloadCount: (previous: Int, next: Int) {
    state.withLock { ($0.previousCount, $0.nextCount) }
  }

  /// The base preload configuration: `durationMs` for the items next to the current one
  /// (1000 ms by default) and the default rendition preference. Setting it plans the
  /// window again. The seed's `updatePreloadConfig`.
  public var preloadConfig: PreloadConfig {
    get { state.withLock { $0.storedPreloadConfig } }
    set {
      state.withLock { state in
        state.storedPreloadConfig = newValue
        planWindow(&state)
      }
    }
  }

  /// Replaces the base preload configuration (the seed's `updatePreloadConfig`).
  public func updatePreloadConfig(_ config: PreloadConfig) {
    preloadConfig = config
  }

  /// Switches a strategy on or off (the seed's `enableStrategy:enable:`); the dynamic
  /// preload is off by default.
  public func enableStrategy(_ strategy: Strategy, _ enabled: Bool) {
    state.withLock { state in
      switch strategy {
      case .dynamicPreload: state.dynamicEnabled = enabled
      }
      planWindow(&state)
    }
  }

  /// Tunes a strategy with the seed's JSON parameter, e.g.
  /// `{"algorithm": "sub","offset": "200"}` for the dynamic preload. Throws
  /// `.invalidArgument` for a parameter `DynamicPreload(json:)` refuses.
  public func setStrategyParam(_ strategy: Strategy, json: String) throws(PlayheadError) {
    let parsed = try DynamicPreload(json: json)
    state.withLock { state in
      switch strategy {
      case .dynamicPreload: state.storedDynamic = parsed
      }
      planWindow(&state)
    }
  }

  /// The dynamic preload rule in force, or nil while the strategy is off. Setting a
  /// value switches it on; nil switches it off.
  public var dynamicPreload: DynamicPreload? {
    get { state.withLock { $0.dynamicEnabled ? $0.storedDynamic : nil } }
    set {
      state.withLock { state in
        if let newValue { state.storedDynamic = newValue }
        state.dynamicEnabled = newValue != nil
        planWindow(&state)
      }
    }
  }

  /// Which bitrate items are preloaded at and start on (seed 003's multi-bitrate modes).
  public var multiBitrateMode: MultiBitrateMode {
    get { state.withLock { $0.storedMode } }
    set {
      state.withLock { state in
        state.storedMode = newValue
        planWindow(&state)
      }
    }
  }

  /// The default start bitrate in bits per second (the seed's `setDefaultBandWidth`): the
  /// highest rendition at most this fast; nil uses the preload configuration's preference,
  /// else the player's.
  public var defaultBandwidth: Int? {
    get { state.withLock { $0.storedDefaultBandwidth } }
    set {
      state.withLock { state in
        state.storedDefaultBandwidth = newValue.map { max(0, $0) }
        planWindow(&state)
      }
    }
  }

  /// Whether moving to an item starts playing it (true by default).
  public var autoPlay: Bool {
    get { state.withLock { $0.storedAutoPlay } }
    set { state.withLock { $0.storedAutoPlay = newValue } }
  }

  // MARK: The window

  /// The preload window as planned after the last change, nearest items first (ahead
  /// before behind at the same distance), with each preload's state now.
  public var preloadWindow: [PreloadEntry] {
    let (plan, known) = state.withLock { ($0.planned, $0.records) }
    return plan.compactMap { entry in
      guard let record = known[entry.uid] else { return nil }
      return PreloadEntry(
        uid: entry.uid, offset: entry.offset, durationMs: entry.durationMs,
        startPreference: entry.preference, taskID: record.taskID,
        state: loader.state(ofTask: record.taskID) ?? .waiting)
    }
  }

  /// The preference the player starts an item on, by the multi-bitrate mode.
  func startPreference(for uid: String, _ state: State) -> ABRStartPreference {
    let fallback = defaultPreference(state)
    let preloaded =
      state.records[uid].flatMap(completedBandwidth) ?? state.preloadedBandwidths[uid]
    switch state.storedMode {
    case .default:
      return fallback
    case .firstFramePriority:
      return preloaded.map { .bandwidth($0) } ?? fallback
    case .balanced:
      return (preloaded ?? state.lastPlayedBandwidth).map { .bandwidth($0) } ?? fallback
    case .smoothPriority:
      return state.lastPlayedBandwidth.map { .bandwidth($0) } ?? fallback
    }
  }

  /// The default bitrate's preference: `defaultBandwidth`, else the preload
  /// configuration's, else the player's.
  func defaultPreference(_ state: State) -> ABRStartPreference {
    if let bandwidth = state.storedDefaultBandwidth { return .bandwidth(bandwidth) }
    if state.storedPreloadConfig.startPreference != .automatic {
      return state.storedPreloadConfig.startPreference
    }
    return player.configuration.hls.startPreference
  }

  /// The preference preloads use now: the default bitrate, or in the balanced and
  /// smooth modes the bitrate playing (once known).
  private func preloadPreference(_ state: State) -> ABRStartPreference {
    switch state.storedMode {
    case .default, .firstFramePriority:
      return defaultPreference(state)
    case .balanced, .smoothPriority:
      let playing = state.current == nil ? nil : player.currentItem?.currentVariant?.bandwidth
      return (playing ?? state.lastPlayedBandwidth).map { .bandwidth($0) }
        ?? defaultPreference(state)
    }
  }

  /// Plans the window around the current item: starts the preloads it lacks (or that
  /// cover too little, or another bitrate) and cancels those of items that left it
  /// (inside `state.withLock`).
  func planWindow(_ state: inout State) {
    let items = state.items
    var plan: [(uid: String, offset: Int, durationMs: Int, preference: ABRStartPreference)] = []
    if let current = state.current, let index = items.firstIndex(where: { $0.uid == current }) {
      let base = state.storedPreloadConfig.durationMs
      let preference = preloadPreference(state)
      let (previousCount, nextCount) = (state.previousCount, state.nextCount)
      // No item lies further than the list is long: huge counts neither hang nor overflow.
      for distance in 1...max(1, min(max(previousCount, nextCount), items.count)) {
        let duration =
          state.dynamicEnabled
          ? state.storedDynamic.durationMs(baseMs: base, distance: distance) : base
        guard duration > 0 else { break }
        if distance <= nextCount, items.indices.contains(index + distance) {
          plan.append((items[index + distance].uid, distance, duration, preference))
        }
        if distance <= previousCount, items.indices.contains(index - distance) {
          plan.append((items[index - distance].uid, -distance, duration, preference))
        }
      }
    }
    state.planned = plan
    let wanted = Set(plan.map(\.uid))
    for (uid, record) in state.records where !wanted.contains(uid) {
      let task = loader.state(ofTask: record.taskID)
      if task?.isFinished == false { loader.cancelTask(record.taskID) }
      if task.map({ if case .completed = $0 { return false } else { return true } }) ?? true {
        state.records[uid] = nil
      }
    }
    // A completed preload outside the window is kept: its bytes are cached, and the first
    // frame priority mode starts the item on its bitrate.
    for entry in plan {
      guard let url = items.first(where: { $0.uid == entry.uid })?.url else { continue }
      if let record = state.records[entry.uid],
        covers(record, entry.durationMs, entry.preference)
      {
        continue
      }
      if let record = state.records[entry.uid] {
        if loader.state(ofTask: record.taskID)?.isFinished == false {
          loader.cancelTask(record.taskID)
        } else if let bandwidth = completedBandwidth(record) {
          state.preloadedBandwidths[entry.uid] = bandwidth
        }
      }
      var config = state.storedPreloadConfig
      config.durationMs = entry.durationMs
      config.startPreference = entry.preference
      let id = loader.addTask(PreloadTask(url: url, config: config))
      state.records[entry.uid] = Record(
        taskID: id, durationMs: entry.durationMs, preference: entry.preference)
    }
  }

  /// The bitrate `record`'s preload completed with (nil while it runs, when it failed, or
  /// for a single-bitrate source).
  private func completedBandwidth(_ record: Record) -> Int? {
    guard case .completed(let report)? = loader.state(ofTask: record.taskID) else { return nil }
    return report.variant?.bandwidth
  }

  /// Whether `record`'s preload (running or completed) already gives what the window
  /// wants: at least the duration, at the same preference.
  private func covers(_ record: Record, _ durationMs: Int, _ preference: ABRStartPreference)
    -> Bool
  {
    guard record.durationMs >= durationMs, record.preference == preference else { return false }
    switch loader.state(ofTask: record.taskID) {
    case .failed?, .canceled?, nil: return false
    default: return true
    }
  }
}
