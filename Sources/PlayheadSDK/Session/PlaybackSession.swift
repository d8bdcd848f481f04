import Foundation
import PlayheadCore
import PlayheadEngine

/// One video's playback: its video, the source chosen for it, and the player that plays it.
///
/// Sessions are made by the controller's session-provider chain and handed to the delegate
/// and consumers in `didAdvanceTo`. Control playback through the controller, not the
/// player directly (plug-ins may change what play, pause and seek do). When the controller
/// advances, the session is terminated: its player is closed and it cannot be used again.
public final class PlaybackSession: @unchecked Sendable, Identifiable, Hashable {
  /// Unique in the process, in the order sessions were made.
  public let id: UInt64
  /// The video this session plays.
  public let video: Video
  /// The source the selection policy chose; nil when it chose none.
  public let source: Source?
  /// The player; nil when the session has no playable source.
  public let player: Player?
  /// Why the session cannot play (no playable source); nil otherwise.
  public let setupError: PlayheadSDKError?

  private let lock = NSLock()
  private var terminated = false
  private var plugins: [any PlaybackSessionConsumer] = []
  private var latestQoE = SessionQoE()
  private var latestMediaType: SourceMediaType?
  private var eventSink: (@Sendable (LifecycleEvent) -> Void)?
  private var heldEvents: [LifecycleEvent] = []

  /// A session that plays `source` of `video` with `player` (session providers call this).
  public init(video: Video, source: Source, player: Player) {
    self.id = PlaybackSession.nextID()
    self.video = video
    self.source = source
    self.player = player
    self.setupError = nil
  }

  /// A session that cannot play `video`, with the reason.
  public init(video: Video, failure: PlayheadSDKError) {
    self.id = PlaybackSession.nextID()
    self.video = video
    self.source = nil
    self.player = nil
    self.setupError = failure
  }

  public static func == (lhs: PlaybackSession, rhs: PlaybackSession) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }

  /// The player item, when the session has a player.
  public var playerItem: PlayerItem? { player?.currentItem }

  /// Whether the controller has discarded this session.
  public var isTerminated: Bool {
    lock.lock()
    defer { lock.unlock() }
    return terminated
  }

  /// The quality-of-experience figures so far (time to first frame, stalls, bitrate, …).
  public var qoe: SessionQoE {
    lock.lock()
    defer { lock.unlock() }
    return latestQoE
  }

  /// Audio only or audio and video, once the media is open; nil before.
  public var mediaType: SourceMediaType? {
    lock.lock()
    defer { lock.unlock() }
    return latestMediaType
  }

  /// Attaches a consumer that receives this session's events only (providers use it to add
  /// behaviour to the sessions they pass on). Ignored once the session is terminated.
  public func attach(_ plugin: any PlaybackSessionConsumer) {
    lock.lock()
    defer { lock.unlock() }
    guard !terminated else { return }
    plugins.append(plugin)
  }

  /// The first attached plug-in of type `type`, if any (how a plug-in's API is reached
  /// from the session, such as `textTracks`).
  public func attachedPlugin<T: PlaybackSessionConsumer>(ofType type: T.Type) -> T? {
    lock.lock()
    defer { lock.unlock() }
    return plugins.lazy.compactMap { $0 as? T }.first
  }

  /// Sends a plug-in's lifecycle event of this session to the controller's delegate, its
  /// consumers and the attached plug-ins, like the controller's own events.
  ///
  /// Events sent before the controller has delivered the session (`didAdvanceTo`) are held
  /// and sent right after it, in order; after the session is terminated they are dropped.
  public func send(_ event: LifecycleEvent) {
    lock.lock()
    guard !terminated else {
      lock.unlock()
      return
    }
    guard let sink = eventSink else {
      heldEvents.append(event)
      lock.unlock()
      return
    }
    lock.unlock()
    sink(event)
  }

  /// Routes `send(_:)` to the controller from now on, first passing on the held events.
  func connectEvents(to sink: @escaping @Sendable (LifecycleEvent) -> Void) {
    lock.lock()
    let held = heldEvents
    heldEvents = []
    eventSink = sink
    lock.unlock()
    for event in held { sink(event) }
  }

  var attachedPlugins: [any PlaybackSessionConsumer] {
    lock.lock()
    defer { lock.unlock() }
    return plugins
  }

  func updateQoE(_ qoe: SessionQoE) {
    lock.lock()
    latestQoE = qoe
    lock.unlock()
  }

  func setMediaType(_ type: SourceMediaType) {
    lock.lock()
    latestMediaType = type
    lock.unlock()
  }

  /// Marks the session terminated and closes its player; returns false if it already was.
  func terminate() -> Bool {
    lock.lock()
    let wasTerminated = terminated
    terminated = true
    lock.unlock()
    guard !wasTerminated else { return false }
    lock.lock()
    eventSink = nil
    heldEvents = []
    lock.unlock()
    player?.close()
    return true
  }

  private static func nextID() -> UInt64 { ProcessUniqueID.next() }
}
