import Foundation
import PlayheadCore
import PlayheadMedia

/// Plays one item at a time: rate, seeking, time observers and events.
///
/// All methods are thread-safe and return at once; the work happens on the player's
/// playback thread, in the order the calls were made. Getters return the state as of
/// the last change the playback thread published. Call `close()` when done (deinit
/// closes too): it stops loading, interrupts blocking I/O and finishes the sinks.
///
/// ```swift
/// let player = Player(url: URL(fileURLWithPath: "movie.mp4"))
/// let token = player.addPeriodicTimeObserver(forInterval: MediaTime(value: 1, timescale: 2)) { time in
///   print(time.seconds)
/// }
/// player.play()
/// ```
public class Player: @unchecked Sendable {
  // Unchecked Sendable: an open class, which the compiler cannot check; its one stored
  // property, `loop`, is Sendable.
  let loop: PlaybackLoop

  /// Creates a player with no item.
  public init(configuration: PlayerConfiguration = PlayerConfiguration()) {
    if configuration.mapsLargeAllocations { ProcessHeap.mapLargeAllocations() }
    loop = PlaybackLoop(configuration: configuration, actionAtItemEnd: .pause)
    loop.start()
  }

  init(configuration: PlayerConfiguration, actionAtItemEnd: ActionAtItemEnd, items: [PlayerItem]) {
    if configuration.mapsLargeAllocations { ProcessHeap.mapLargeAllocations() }
    loop = PlaybackLoop(configuration: configuration, actionAtItemEnd: actionAtItemEnd)
    loop.start()
    if !items.isEmpty {
      loop.post { loop in
        loop.queue = items
        loop.activateHead()
      }
    }
  }

  /// Creates a player for `item`.
  public convenience init(
    playerItem item: PlayerItem?, configuration: PlayerConfiguration = PlayerConfiguration()
  ) {
    self.init(configuration: configuration, actionAtItemEnd: .pause, items: item.map { [$0] } ?? [])
  }

  /// Creates a player for the media at `url`, requested with `configuration.http` (its
  /// timeout, retries and headers; an item made with `PlayerItem(url:)` or
  /// `Asset(url:http:)` keeps its asset's own settings).
  public convenience init(url: URL, configuration: PlayerConfiguration = PlayerConfiguration()) {
    self.init(
      playerItem: PlayerItem(asset: Asset(url: url)),
      configuration: configuration)
  }

  deinit {
    loop.close()
  }

  /// The configuration the player was built with.
  public var configuration: PlayerConfiguration { loop.configuration }
  /// The player's clock.
  public var clock: any Clock { loop.clock }

  // MARK: Transport

  /// The playback rate: 0 is paused, 1 is normal speed, other positive values play
  /// faster or slower (audio keeps its pitch unless the item asks for varispeed).
  /// Negative rates are not supported and are ignored.
  public var rate: Float {
    get { loop.read { $0.rate } }
    set { loop.post { $0.setRate(newValue) } }
  }

  /// The rate `play()` uses (1 by default; must be > 0).
  public var defaultRate: Float {
    get { loop.read { $0.defaultRate } }
    set {
      guard newValue > 0, newValue.isFinite else { return }
      loop.post { loop in loop.defaultRate = newValue }
    }
  }

  /// Starts playback at `defaultRate`.
  public func play() {
    loop.post { loop in loop.setRate(loop.defaultRate) }
  }

  /// Pauses playback (rate 0).
  public func pause() {
    loop.post { $0.setRate(0) }
  }

  /// The player's status: ready once an item has opened.
  public var status: PlayerStatus { loop.read { $0.status } }
  /// The player's error, when `status` is `.failed`.
  public var error: PlayheadError? {
    if case .failed(let error) = status { return error }
    return nil
  }
  /// Whether playback is paused, waiting or playing.
  public var timeControlStatus: TimeControlStatus { loop.read { $0.timeControl } }
  /// Why the player waits, when `timeControlStatus` is waiting.
  public var reasonForWaitingToPlay: WaitingReason? {
    if case .waitingToPlayAtSpecifiedRate(let reason) = timeControlStatus { return reason }
    return nil
  }

  /// What happens when the current item ends.
  public var actionAtItemEnd: ActionAtItemEnd {
    get { loop.read { $0.actionAtItemEnd } }
    set {
      loop.post { loop in loop.actionAtItemEnd = newValue }
    }
  }

  /// Output volume from 0 to 1; values outside are clamped (not a number gives 1).
  ///
  /// Reading it back gives the value just set; the playback thread applies it to the
  /// audio it writes next.
  public var volume: Float {
    get { loop.settings.value.volume }
    set {
      let clamped = max(0, min(1, newValue.isFinite ? newValue : 1))
      loop.changeSettings { $0.volume = clamped }
    }
  }

  /// Whether the audio is muted (the audio clock keeps running; `volume` is kept).
  public var isMuted: Bool {
    get { loop.settings.value.isMuted }
    set { loop.changeSettings { $0.isMuted = newValue } }
  }

  // MARK: Items

  /// The item being played, if any.
  public var currentItem: PlayerItem? { loop.read { $0.currentItem } }

  /// Replaces the current item (nil removes it). The new item starts loading at once.
  public func replaceCurrentItem(with item: PlayerItem?) {
    loop.post { loop in
      if loop.queue.isEmpty {
        if let item { loop.queue = [item] }
      } else if let item {
        loop.queue[0] = item
      } else {
        loop.queue.removeFirst()
      }
      loop.activateHead()
    }
  }

  /// Makes `item` the current item and starts it at `time`: the source opens at the
  /// segment (or byte) that holds `time`, so nothing before it is fetched, as a seek made
  /// before opening would do with no race against the opening.
  ///
  /// Exact, like `seek(to:)`; a time past the end lands at the end; a preloaded loader of
  /// `item` is not reused (it started at its own position).
  public func replaceCurrentItem(with item: PlayerItem, startingAt time: MediaTime) {
    loop.post { loop in
      if loop.queue.isEmpty { loop.queue = [item] } else { loop.queue[0] = item }
      loop.activateHead(startingAt: time)
    }
  }

  /// The current item's time (`.zero` without an item).
  public func currentTime() -> MediaTime {
    currentItem?.currentTime() ?? .zero
  }

  // MARK: Seeking

  /// Seeks the current item to `time` exactly; see `seek(to:toleranceBefore:toleranceAfter:completionHandler:)`.
  public func seek(to time: MediaTime, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
    seek(
      to: time, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: completionHandler)
  }

  /// Seeks the current item to `time`, landing anywhere in
  /// `[time - toleranceBefore, time + toleranceAfter]`.
  ///
  /// With zero tolerances the first frame shown is the one with the greatest time ≤
  /// `time`; wider tolerances let the seek land on a nearby keyframe without decoding up
  /// to the target. Times are clamped to the item's range. The completion receives
  /// `true` when the seek finished and `false` when a later seek (or a change of item)
  /// interrupted it; it runs on a global queue. A seek before the item is ready is
  /// carried out once it is.
  public func seek(
    to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime,
    completionHandler: (@Sendable (Bool) -> Void)? = nil
  ) {
    loop.post { loop in
      guard let item = loop.current?.item else {
        completionHandler.map { handler in DispatchQueue.global().async { handler(false) } }
        return
      }
      loop.performSeek(
        item: item, to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter,
        completion: completionHandler)
    }
  }

  /// Seeks and waits for the result; returns whether the seek finished.
  @discardableResult
  public func seek(
    to time: MediaTime, toleranceBefore: MediaTime = .zero, toleranceAfter: MediaTime = .zero
  ) async -> Bool {
    await withCheckedContinuation { continuation in
      seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter) { finished in
        continuation.resume(returning: finished)
      }
    }
  }

  /// Rebuilds the current item's source and continues at `time`: the recovery call after
  /// a network failure (the SDK's `resumeVideo(at:autoPlay:)` sits on it).
  ///
  /// Emits `resumeStarted`, then `resumeCompleted` once the new source is open and the
  /// frame at `time` is ready, or `resumeFailed` if it cannot be opened. The rate is
  /// left as it is. A second call while one is in progress is refused (`false`).
  public func resume(at time: MediaTime, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
    loop.post { $0.resume(at: time, completion: completionHandler) }
  }

  // MARK: Observers

  /// Calls `block` with the current time every `interval` of item time while playing.
  ///
  /// The block runs on `queue` (the main queue when nil) at each multiple of `interval`
  /// that playback passes, starting with the position where playback starts; after a
  /// seek it restarts from the new position. An interval ≤ 0 is raised to 1 ms.
  @discardableResult
  public func addPeriodicTimeObserver(
    forInterval interval: MediaTime, queue: DispatchQueue? = nil,
    using block: @escaping @Sendable (MediaTime) -> Void
  ) -> ObserverToken {
    let token = ObserverToken(id: IdentifierSource.next())
    let safeInterval =
      interval.isNumeric && interval > .zero ? interval : MediaTime(value: 1, timescale: 1000)
    let observer = PeriodicObserver(interval: safeInterval, queue: queue ?? .main, handler: block)
    loop.post { $0.periodicObservers[token.id] = observer }
    return token
  }

  /// Calls `block` each time normal playback crosses one of `times` (not when a seek
  /// jumps over it). The block runs on `queue` (the main queue when nil).
  @discardableResult
  public func addBoundaryTimeObserver(
    forTimes times: [MediaTime], queue: DispatchQueue? = nil,
    using block: @escaping @Sendable () -> Void
  ) -> ObserverToken {
    let token = ObserverToken(id: IdentifierSource.next())
    let observer = BoundaryObserver(
      times: times.filter(\.isNumeric).sorted(), queue: queue ?? .main, handler: block)
    loop.post { $0.boundaryObservers[token.id] = observer }
    return token
  }

  /// Removes a periodic or boundary time observer; blocks already queued may still run.
  public func removeTimeObserver(_ token: ObserverToken) {
    loop.post { loop in
      loop.periodicObservers[token.id] = nil
      loop.boundaryObservers[token.id] = nil
    }
  }

  /// Calls `handler` on `queue` (the main queue when nil) for every player event, in order.
  ///
  /// Like KVO's `.initial` option, the observer first receives the current state: the
  /// current item, its status once known, and its buffer state, so an observer added
  /// after the item became ready still learns that it is.
  @discardableResult
  public func addEventObserver(
    queue: DispatchQueue? = nil, _ handler: @escaping @Sendable (PlayerEvent) -> Void
  ) -> ObserverToken {
    let token = ObserverToken(id: IdentifierSource.next())
    let observer = EventObserver(queue: queue ?? .main, handler: handler)
    loop.post { loop in
      loop.eventObservers[token.id] = observer
      loop.sendInitialState(to: token.id)
    }
    return token
  }

  /// Removes an event observer.
  public func removeEventObserver(_ token: ObserverToken) {
    loop.post { $0.eventObservers[token.id] = nil }
  }

  // MARK: Output

  /// The current frame as PNG bytes, scaled to `width`×`height` (nil keeps the frame's size).
  ///
  /// Throws `.invalidState` when no frame has been presented yet (play, or seek while
  /// paused, first).
  public func snapshot(
    width: Int? = nil, height: Int? = nil, gravity: VideoGravity = .fit,
    alphaMode: AlphaRenderMode = .none
  ) throws(PlayheadError) -> Data {
    loop.snapshotLock.lock()
    let frame = loop.lastPresentedFrame
    loop.snapshotLock.unlock()
    guard let frame else {
      throw PlayheadError(.invalidState, "no video frame has been presented yet")
    }
    let image = try VideoConverter().convert(
      frame, width: width, height: height, gravity: gravity, alphaMode: alphaMode)
    return try PNGCodec.encode(image)
  }

  /// Clears the video output (the sink's `clear()`).
  public func clearVideoOutput() {
    loop.post { loop in
      loop.configuration.videoSink?.clear()
      loop.snapshotLock.lock()
      loop.lastPresentedFrame = nil
      loop.snapshotLock.unlock()
    }
  }

  /// Stops playback and releases everything; the player cannot be used afterwards.
  /// Returns promptly even while a source blocks on the network.
  public func close() {
    loop.close()
  }
}
