import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadText

/// The text and audio tracks of one player's item: the text options (sidecar WebVTT files
/// and the HLS stream's subtitle renditions), the audio options (its audio renditions, or the
/// file's audio streams), the selections, and the selected text track's cues delivered as
/// they become active and inactive (docs/tracks.md).
///
/// The sidecar-subtitles session provider makes one per session (`session.textTracks`);
/// an application playing a `Player` directly can make its own. Sidecar options exist from
/// the start; rendition and audio options are added when the item becomes ready, and the
/// preferences then choose the text track (sending `selectionChanged` with `isAutomatic`
/// once, even when they choose none) unless the application has selected one by hand; they
/// choose again when the audio rendition changes. Tracks are selected in the engine
/// (`PlayerItem.selectTextTrack`, with sidecar files added as `addSidecarTextTrack`;
/// `selectAudioRendition`), whose text renderer reads the cues and times them; the
/// controller turns its `textCueEntered` / `textCueExited` / `textTrackLoaded` /
/// `textTrackFailed` events into `TextTrackEvent`s. After a seek the cues no longer
/// active exit and the cues active at the new position enter.
///
/// Thread-safe: getters may be called from any thread (observers included); `select(_:)`
/// and `selectAudio(_:)` return at once and their effects follow in order. Observers are
/// called on their queue.
///
/// ```swift
/// let tracks = TextTrackController(player: player, sidecarTracks: video.textTracks,
///   configuration: TextTrackConfiguration(preferences: .init(languages: ["fr"], mode: .always)))
/// tracks.addObserver(queue: .main) { event in
///   if case .cueEntered(let cue, _) = event { show(cue.plainText) }
/// }
/// ```
public final class TextTrackController: Sendable {
  // Mutable state is in `state`, reached through `read` and `write`; the player's events
  // are handled on the serial `work` queue.
  let work = DispatchQueue(label: "playhead.sdk.text-tracks")
  let configuration: TextTrackConfiguration
  weak let player: Player?
  private let state: Locked<State>

  /// The controller's mutable state.
  struct State: Sendable {
    var options: [TextTrackOption] = []
    var audioOptions: [AudioTrackOption] = []
    var selectedAudio: AudioTrackOption?
    /// The audio rendition asked of the engine at ready, until it reports the switch.
    var pendingAudio: RenditionInfo?
    var audioLanguage: String?
    /// The engine's renditions behind the in-manifest text and audio options, by option ID.
    var renditions: [String: RenditionInfo] = [:]
    /// The engine's text track of the selection in place (a rendition or a sidecar
    /// track); the engine's cue events for any other track are not this selection's.
    var engineTrack: RenditionInfo?
    /// Set when the selection could not be handed to the engine yet (no item, or not
    /// ready); it is handed over when the item becomes ready.
    var enginePending = false
    /// The cues of the selection that entered and have not exited, in start order.
    var active: [TextCue] = []
    var preferences = TextTrackPreferences()
    var selected: TextTrackOption?
    /// Increases with every selection; loads of an older selection are dropped.
    var generation = 0
    /// The generation whose timeline is in place.
    var appliedGeneration = -1
    var selectedByHand = false
    var readyHandled = false
    var loadedSent = false
    var playerTokens: [ObserverToken] = []
    var observers: [Int: Observer] = [:]
    var nextObserverID = 0
    var closed = false
    /// In fast mode, holds the player's start until the automatic choice has been handed
    /// to the engine (whose text renderer then holds it until the cues are in).
    var startHold: PlaybackStartHold?
  }

  /// One registered observer.
  struct Observer: Sendable {
    var queue: DispatchQueue
    var handler: @Sendable (TextTrackEvent) -> Void
  }

  /// A controller for `player`'s current (or next) item with the video's `sidecarTracks`.
  ///
  /// `contentURL` is the media the tracks go with; the engine applies the containment
  /// rule by the item's own URL (`file:` track URLs are read only for a local file), so it
  /// is kept for compatibility only.
  public init(
    player: Player, sidecarTracks: [TextTrack] = [],
    configuration: TextTrackConfiguration = TextTrackConfiguration(), contentURL: URL? = nil
  ) {
    self.player = player
    self.configuration = configuration
    var initial = State()
    initial.preferences = configuration.preferences
    // A fast clock could start playing between the item's readiness and the automatic
    // choice made on `work`: the start waits until the choice is in the engine.
    if player.configuration.timing == .fast { initial.startHold = player.holdStart() }
    initial.options = sidecarTracks.enumerated().compactMap { index, track in
      TextTrackOption(sidecar: track, index: index)
    }
    state = Locked(initial)
    observe(player)
  }

  deinit {
    let tokens = read { $0.playerTokens }
    for token in tokens { player?.removeEventObserver(token) }
  }

  /// Every text track: sidecar tracks in the video's order, then the stream's subtitle and
  /// closed-caption renditions (once the item is ready). Only `isSelectable` ones can be
  /// selected.
  public var options: [TextTrackOption] { read { $0.options } }

  /// The stream's audio tracks, once the item is ready: the audio renditions of the variant
  /// being played, else the file's audio streams (selectable when there are two or more,
  /// as the engine lists them in `PlayerItem.audioRenditions`; a single one is listed
  /// only).
  public var audioOptions: [AudioTrackOption] { read { $0.audioOptions } }

  /// The audio track playing: the engine's selected audio rendition or stream (its start
  /// choice, or the one selected since), else the file's only audio stream; nil before
  /// ready.
  public var selectedAudio: AudioTrackOption? { read { $0.selectedAudio } }

  /// The language of the audio playing, which the forced-track rule uses (docs/tracks.md);
  /// nil when unknown.
  public var audioLanguage: String? { read { $0.audioLanguage } }

  /// The selected track; nil when none.
  public var selected: TextTrackOption? { read { $0.selected } }

  /// The cues active now (those that entered and have not exited), in start order.
  public var activeCues: [TextCue] { read { $0.active } }

  /// The cues of the selected track loaded so far, in start order (the engine's
  /// `PlayerItem.textCues`).
  public var cues: [TextCue] {
    let (track, option) = read { ($0.engineTrack, $0.selected) }
    guard let track, let option, let item = player?.currentItem else { return [] }
    return item.textCues.filter { $0.track == track }.map { Self.textCue($0, of: option) }
  }

  /// The preferences; a change is used by the next automatic choice: at ready if the item
  /// is not ready yet, after an audio change, or at once with `applyPreferences()`.
  public var preferences: TextTrackPreferences {
    get { read { $0.preferences } }
    set { write { $0.preferences = newValue } }
  }

  /// Selects `option` (nil turns text off); returns false, changing nothing, for an option
  /// that is not one of `options` or not selectable, or after `close()`.
  ///
  /// The active cues of the previous track exit, `selectionChanged` follows, and the new
  /// track is fetched. Selecting by hand stops the automatic choice at ready.
  @discardableResult
  public func select(_ option: TextTrackOption?) -> Bool {
    let selected = write { state -> Int? in
      guard !state.closed else { return nil }
      if let option {
        guard let known = state.options.first(where: { $0.id == option.id }), known.isSelectable
        else { return nil }
        state.selected = known
      } else {
        state.selected = nil
      }
      state.selectedByHand = true
      state.generation += 1
      return state.generation
    }
    guard let generation = selected else { return false }
    work.async { [self] in applySelection(generation: generation, isAutomatic: false) }
    return true
  }

  /// Plays `option`'s audio rendition, or a file's audio stream (nil: the variant's own
  /// audio, or the file's default stream), from the current position, through the engine
  /// (`PlayerItem.selectAudioRendition`); returns false, changing nothing, for an option
  /// that is not in `audioOptions`, the one stream of a file with a single audio stream,
  /// or before the item is ready.
  ///
  /// `audioChanged` follows when the engine has switched; if no text track was selected by
  /// hand, the preferences then choose again for the new audio language.
  @discardableResult
  public func selectAudio(_ option: AudioTrackOption?) -> Bool {
    let rendition = read { state -> RenditionInfo?? in
      guard !state.closed else { return nil }
      guard let option else { return .some(nil) }
      guard state.audioOptions.contains(where: { $0.id == option.id }),
        let rendition = state.renditions[option.id]
      else { return nil }
      return .some(rendition)
    }
    guard let rendition, let item = player?.currentItem else { return false }
    write { state in state.pendingAudio = nil }
    return item.selectAudioRendition(rendition)
  }

  /// Chooses again by the preferences now (among the options known so far), as if no
  /// track had been selected by hand.
  public func applyPreferences() {
    work.async { [self] in
      write { state in state.selectedByHand = false }
      chooseAutomatically(announcingNoChange: false)
    }
  }

  /// Calls `handler` on `queue` (the main queue when nil) for every event from now on.
  @discardableResult
  public func addObserver(
    queue: DispatchQueue? = nil, _ handler: @escaping @Sendable (TextTrackEvent) -> Void
  ) -> Int {
    write { state in
      let id = state.nextObserverID
      state.nextObserverID += 1
      state.observers[id] = Observer(queue: queue ?? .main, handler: handler)
      return id
    }
  }

  /// Removes an observer by the number `addObserver` returned; calls already queued may
  /// still run.
  public func removeObserver(_ id: Int) {
    write { state in state.observers[id] = nil }
  }

  /// Stops: no more events, and the player's observers are removed (the engine's text
  /// track stays as it is).
  public func close() {
    let tokens = write { state -> [ObserverToken] in
      state.closed = true
      state.observers = [:]
      defer { state.playerTokens = [] }
      return state.playerTokens
    }
    releaseStartHold()
    for token in tokens { player?.removeEventObserver(token) }
  }

  // MARK: State access

  func read<T: Sendable>(_ body: (State) -> T) -> T {
    state.withLock { body($0) }
  }

  @discardableResult
  func write<T: Sendable>(_ body: (inout State) -> T) -> T {
    state.withLock { body(&$0) }
  }

  /// Lets the player start, if this controller holds its start (fast mode).
  func releaseStartHold() {
    write { state -> PlaybackStartHold? in
      defer { state.startHold = nil }
      return state.startHold
    }?.release()
  }

  /// Sends `events` to every observer, in order. Call without holding the lock.
  func deliver(_ events: [TextTrackEvent]) {
    guard !events.isEmpty else { return }
    let observers = read { $0.closed ? [] : Array($0.observers.sorted { $0.key < $1.key }) }
    for (_, observer) in observers {
      let handler = observer.handler
      observer.queue.async {
        for event in events { handler(event) }
      }
    }
  }
}
