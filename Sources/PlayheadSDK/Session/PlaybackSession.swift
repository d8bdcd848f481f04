import Foundation
import PlayheadCore
import PlayheadEngine

/// One video's playback: its video, the source chosen for it, and the player that plays it.
///
/// Sessions are made by the controller's session-provider chain and handed to the delegate
/// and consumers in `didAdvanceTo`. Control playback through the controller, not the
/// player directly (plug-ins may change what play, pause and seek do). When the controller
/// advances, the session is terminated: its player is closed and it cannot be used again.
public final class PlaybackSession: Sendable, Identifiable, Hashable {
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

  private let state = Locked(State())

  private struct State: Sendable {
    var terminated = false
    var plugins: [any PlaybackSessionConsumer] = []
    var latestQoE = SessionQoE()
    var latestMediaType: SourceMediaType?
    var eventSink: (@Sendable (LifecycleEvent) -> Void)?
    var heldEvents: [LifecycleEvent] = []
  }

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
  public var isTerminated: Bool { state.withLock { $0.terminated } }

  /// The quality-of-experience figures so far (time to first frame, stalls, bitrate, …).
  public var qoe: SessionQoE { state.withLock { $0.latestQoE } }

  /// Audio only or audio and video, once the media is open; nil before.
  public var mediaType: SourceMediaType? { state.withLock { $0.latestMediaType } }

  /// Attaches a consumer that receives this session's events only (providers use it to add
  /// behaviour to the sessions they pass on). Ignored once the session is terminated.
  public func attach(_ plugin: any PlaybackSessionConsumer) {
    state.withLock { state in
      guard !state.terminated else { return }
      state.plugins.append(plugin)
    }
  }

  /// The first attached plug-in of type `type`, if any (how a plug-in's API is reached
  /// from the session, such as `textTracks`).
  public func attachedPlugin<T: PlaybackSessionConsumer>(ofType type: T.Type) -> T? {
    attachedPlugins.lazy.compactMap { $0 as? T }.first
  }

  /// Sends a plug-in's lifecycle event of this session to the controller's delegate, its
  /// consumers and the attached plug-ins, like the controller's own events.
  ///
  /// Events sent before the controller has delivered the session (`didAdvanceTo`) are held
  /// and sent right after it, in order; after the session is terminated they are dropped.
  public func send(_ event: LifecycleEvent) {
    let sink = state.withLock { state -> (@Sendable (LifecycleEvent) -> Void)? in
      guard !state.terminated else { return nil }
      guard let sink = state.eventSink else {
        state.heldEvents.append(event)
        return nil
      }
      return sink
    }
    sink?(event)
  }

  /// Routes `send(_:)` to the controller from now on, first passing on the held events.
  func connectEvents(to sink: @escaping @Sendable (LifecycleEvent) -> Void) {
    let held = state.withLock { state in
      defer {
        state.heldEvents = []
        state.eventSink = sink
      }
      return state.heldEvents
    }
    for event in held { sink(event) }
  }

  var attachedPlugins: [any PlaybackSessionConsumer] { state.withLock { $0.plugins } }

  func updateQoE(_ qoe: SessionQoE) {
    state.withLock { $0.latestQoE = qoe }
  }

  func setMediaType(_ type: SourceMediaType) {
    state.withLock { $0.latestMediaType = type }
  }

  /// Marks the session terminated and closes its player; returns false if it already was.
  func terminate() -> Bool {
    let wasTerminated = state.withLock { state in
      defer { state.terminated = true }
      return state.terminated
    }
    guard !wasTerminated else { return false }
    state.withLock { state in
      state.eventSink = nil
      state.heldEvents = []
    }
    player?.close()
    return true
  }

  private static func nextID() -> UInt64 { ProcessUniqueID.next() }
}
