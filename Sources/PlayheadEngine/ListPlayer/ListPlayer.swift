import Foundation
import PlayheadCore
import PlayheadNet

/// Plays a feed of short videos with one `Player`, preloading the items around the
/// current one into the disk cache (the seed's `AliListPlayer`).
///
/// Items are added with unique IDs (`uid`); `moveTo(uid:)`, `moveToNext()` and
/// `moveToPrevious()` make one current: its `PlayerItem` replaces the player's item and,
/// with `autoPlay`, plays. After every change the preload window is planned again: the
/// `previous` items behind and `next` items ahead (`setPreloadCount(previous:next:)`) are
/// preloaded through the list player's `MediaLoader` for the base duration
/// (`preloadConfig.durationMs`), shortened with distance when the dynamic preload
/// strategy is on. Preloads of items that leave the window are cancelled; a completed
/// preload that still covers what the window wants is kept. The bitrate each item is
/// preloaded at and starts on follows `multiBitrateMode`.
///
/// The player is built from the configuration with the scene's buffer preset
/// (`PlayerScene.short` by default) unless the configuration already has one or explicit
/// buffer settings. Preloading needs `configuration.cache` (see `MediaLoader`); without
/// it every preload fails and the window shows the error.
///
/// Thread-safe: every method may be called from any thread and returns at once.
///
/// ```swift
/// let list = ListPlayer(configuration: configuration)
/// try list.add(url: first, uid: "a")
/// try list.add(url: second, uid: "b")
/// list.setPreloadCount(previous: 1, next: 3)
/// try list.setStrategyParam(.dynamicPreload, json: #"{"algorithm": "sub","offset": "200"}"#)
/// list.enableStrategy(.dynamicPreload, true)
/// try list.moveTo(uid: "a")
/// ```
public final class ListPlayer: Sendable {

  /// The one player the items play in.
  public let player: Player
  /// The loader the preloads run on (this list player's own).
  public let loader: MediaLoader
  /// The scene whose buffer preset the player uses.
  public let scene: PlayerScene

  struct Item: Sendable {
    var uid: String
    var url: URL
  }

  /// A preload the list player started for an item.
  struct Record: Sendable {
    var taskID: String
    var durationMs: Int
    var preference: ABRStartPreference
  }

  /// The list, the settings and the preloads started; reached only inside `withLock`.
  struct State: Sendable {
    var items: [Item] = []
    var current: String?
    var currentPlayerItem: PlayerItem?
    var previousCount = 1
    var nextCount = 1
    var storedPreloadConfig = PreloadConfig(durationMs: 1000)
    var dynamicEnabled = false
    var storedDynamic = DynamicPreload()
    var storedMode = MultiBitrateMode.default
    var storedDefaultBandwidth: Int?
    var storedAutoPlay = true
    /// The bandwidth of the rendition the last current item was playing when it was left.
    var lastPlayedBandwidth: Int?
    var records: [String: Record] = [:]
    /// The bitrate of each item's last completed preload whose record was replaced since.
    var preloadedBandwidths: [String: Int] = [:]
    /// The window as last planned: uid, offset, wanted duration, preference.
    var planned: [(uid: String, offset: Int, durationMs: Int, preference: ABRStartPreference)] =
      []
  }

  let state = Locked(State())

  /// Creates a list player over `configuration` (its cache, HLS settings, clock, sinks)
  /// with `scene`'s buffer preset; `maximumConcurrentPreloads` preloads run at once.
  public init(
    configuration: PlayerConfiguration = PlayerConfiguration(), scene: PlayerScene = .short,
    maximumConcurrentPreloads: Int = 2
  ) {
    var configuration = configuration
    if configuration.hls.scene == nil && configuration.hls.bufferSettings == nil {
      configuration.hls.scene = scene
    }
    self.scene = configuration.hls.scene ?? scene
    player = Player(configuration: configuration)
    loader = MediaLoader(
      configuration: MediaLoader.Configuration(
        player: configuration, maximumConcurrentTasks: maximumConcurrentPreloads))
  }

  deinit {
    loader.cancelAll()
  }

  // MARK: The list

  /// Adds an item at the end of the list.
  ///
  /// Throws `.invalidArgument` when `uid` is empty or already in the list. The window is
  /// planned again (a new item may fall into it).
  public func add(url: URL, uid: String) throws(PlayheadError) {
    try state.withLock { (state) throws(PlayheadError) in
      guard !uid.isEmpty else {
        throw PlayheadError(.invalidArgument, "a list item needs a non-empty uid", url: url)
      }
      guard !state.items.contains(where: { $0.uid == uid }) else {
        throw PlayheadError(
          .invalidArgument, "the list already has an item with uid '\(uid)'", url: url)
      }
      state.items.append(Item(uid: uid, url: url))
      planWindow(&state)
    }
  }

  /// Removes an item; its preload is cancelled. Removing the current item stops it: the
  /// player has no item and `currentUID` is nil until the next `moveTo(uid:)`.
  ///
  /// Throws `.invalidArgument` for an unknown uid.
  public func remove(uid: String) throws(PlayheadError) {
    try state.withLock { (state) throws(PlayheadError) in
      guard let index = state.items.firstIndex(where: { $0.uid == uid }) else {
        throw unknown(uid)
      }
      state.items.remove(at: index)
      state.preloadedBandwidths[uid] = nil
      if let record = state.records.removeValue(forKey: uid) { loader.cancelTask(record.taskID) }
      if state.current == uid {
        noteLeaving(&state)
        state.current = nil
        state.currentPlayerItem = nil
        player.replaceCurrentItem(with: nil)
      }
      planWindow(&state)
    }
  }

  /// Removes every item, stops the player and cancels every preload.
  public func clear() {
    state.withLock { state in
      state.items.removeAll()
      state.preloadedBandwidths.removeAll()
      for record in state.records.values { loader.cancelTask(record.taskID) }
      state.records.removeAll()
      if state.current != nil {
        noteLeaving(&state)
        state.current = nil
        state.currentPlayerItem = nil
        player.replaceCurrentItem(with: nil)
      }
      planWindow(&state)
    }
  }

  /// The item IDs, in list order.
  public var uids: [String] {
    state.withLock { $0.items.map(\.uid) }
  }

  /// The current item's ID, if any.
  public var currentUID: String? {
    state.withLock { $0.current }
  }

  /// The player item made for the current item (the player's `currentItem` once it has
  /// taken it), or nil without a current item.
  public var currentItem: PlayerItem? {
    state.withLock { $0.currentPlayerItem }
  }

  /// The URL of an item, or nil for an unknown uid.
  public func url(of uid: String) -> URL? {
    state.withLock { state in state.items.first { $0.uid == uid }?.url }
  }

  // MARK: Moving

  /// Makes `uid` the current item: the player plays it (with `autoPlay`), starting on the
  /// bitrate `multiBitrateMode` chooses; the window is planned around it. Moving to the
  /// current item restarts it. Throws `.invalidArgument` for an unknown uid.
  public func moveTo(uid: String) throws(PlayheadError) {
    try state.withLock { (state) throws(PlayheadError) in
      guard let item = state.items.first(where: { $0.uid == uid }) else { throw unknown(uid) }
      activate(item, &state)
    }
  }

  /// Moves to the item after the current one and returns its uid. Throws `.invalidState`
  /// when there is no current item or it is the last.
  @discardableResult
  public func moveToNext() throws(PlayheadError) -> String {
    try move(by: 1)
  }

  /// Moves to the item before the current one and returns its uid. Throws `.invalidState`
  /// when there is no current item or it is the first.
  @discardableResult
  public func moveToPrevious() throws(PlayheadError) -> String {
    try move(by: -1)
  }

  private func move(by step: Int) throws(PlayheadError) -> String {
    try state.withLock { (state) throws(PlayheadError) in
      guard let current = state.current,
        let index = state.items.firstIndex(where: { $0.uid == current })
      else {
        throw PlayheadError(
          .invalidState, "the list has no current item: call moveTo(uid:) first")
      }
      let target = index + step
      guard state.items.indices.contains(target) else {
        throw PlayheadError(
          .invalidState, "'\(current)' is the \(step > 0 ? "last" : "first") item of the list")
      }
      let item = state.items[target]
      activate(item, &state)
      return item.uid
    }
  }

  /// Plays `item` and plans the window around it (inside `state.withLock`).
  private func activate(_ item: Item, _ state: inout State) {
    noteLeaving(&state)
    let preference = startPreference(for: item.uid, state)
    if let record = state.records[item.uid], let task = loader.state(ofTask: record.taskID),
      !task.isFinished
    {
      // The player fetches from here on; what the preload got is in the cache.
      loader.cancelTask(record.taskID)
      state.records[item.uid] = nil
    }
    state.current = item.uid
    let playerItem = PlayerItem(url: item.url)
    playerItem.startPreference = preference
    state.currentPlayerItem = playerItem
    player.replaceCurrentItem(with: playerItem)
    if state.storedAutoPlay { player.play() }
    planWindow(&state)
  }

  /// Remembers the bitrate the current item plays before it is left.
  private func noteLeaving(_ state: inout State) {
    if state.current != nil, let bandwidth = player.currentItem?.currentVariant?.bandwidth {
      state.lastPlayedBandwidth = bandwidth
    }
  }

  private func unknown(_ uid: String) -> PlayheadError {
    PlayheadError(.invalidArgument, "the list has no item with uid '\(uid)'")
  }

  /// Stops playback and every preload; the list player cannot be used afterwards.
  public func close() {
    loader.cancelAll()
    player.close()
  }
}
