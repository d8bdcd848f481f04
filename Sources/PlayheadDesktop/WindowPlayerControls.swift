import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadOverlay
import PlayheadSDK
import PlayheadUI

/// The player UI's control bar in a window: a `ControlsModel` fed from a `Player` and the
/// window's pointer, drawn with `ControlsOverlayRenderer` on the window's controls layer,
/// its actions applied to the player (SPEC U; seed 000's `BCOVPUIPlayerView`).
///
/// Give it every `WindowEvent` first (`handle(_:)`); an event it does not take (a click on
/// the video, keys) is the application's, as in `playhead play` where a click toggles
/// pause. A thread of its own redraws while the controls show, waiting on the player's
/// clock: every quarter second while shown (the time label and slider), every 1/30 s while
/// fading, not at all while hidden. Hiding, the animations and all timing read the
/// player's clock.
///
/// ```swift
/// let window = try WindowVideoSink(options: WindowOptions(title: "Movie")) { event in
///   if controls?.handle(event) == false { /* the application's meaning */ }
/// }
/// let controls = try WindowPlayerControls(window: window, player: player)
/// ```
public final class WindowPlayerControls: Sendable {
  /// The window drawn on.
  public let window: WindowVideoSink
  /// The clock hiding, animations and redraws read (the players').
  public let clock: any Clock
  private let currentPlayer: @Sendable () -> Player?
  /// Performs an action instead of the controls (returns true when it did).
  let performer: (@Sendable (ControlsAction) -> Bool)?
  private let renderer: ControlsOverlayRenderer
  private let wake = WakeSignal()
  /// Signalled when the drawing thread has ended.
  private let loopEnded = DispatchSemaphore(value: 0)
  let state: Locked<State>
  let onAction: (@Sendable (ControlsAction) -> Void)?

  struct State: Sendable {
    var model: ControlsModel
    var lastScene: ControlsScene?
    var markerTimes: [Double] = []
    var isBumper = false
    var textTracks: TextTrackController?
    var itemID: ObjectIdentifier?
    var sessionID = 0
    var closed = false
    var scale = WindowPlayerControls.desktopScale(
      environment: ProcessInfo.processInfo.environment)
    var thumbnails: (@Sendable (MediaTime) async -> RGBAImage?)?
    var ads: (@Sendable () -> ControlsAds)?
    var onControlsChange: (@Sendable ([ControlTag]) -> Void)?
    /// Pictures the application put in layout views (a logo), by view id.
    var viewImages: [String: RGBAImage] = [:]
    /// Set when something the scene does not show changed (a view's image).
    var needsDraw = false
    /// The options' poster as loaded (nil image when it could not be read), by path.
    var poster: (path: String, image: RGBAImage?)?
    var announcedControls: [ControlTag]?
    /// The thumbnail last loaded, for the time it was asked for.
    var thumbnail: (seconds: Double, image: RGBAImage?)?
    /// The time whose thumbnail is being loaded.
    var pendingThumbnail: Double?
    /// Bumped when a thumbnail arrives, so the scene is drawn again with it.
    var thumbnailVersion = 0
    var drawnThumbnailVersion = -1
  }

  /// Controls for `player` on `window`, shown at once. `onAction` hears every action after
  /// it is applied (to refresh subtitles or say what changed). Throws when libass cannot
  /// start.
  public convenience init(
    window: WindowVideoSink, player: Player, options: PlayerViewOptions = PlayerViewOptions(),
    layout: ControlLayout? = nil, localization: Localization = .shared,
    onAction: (@Sendable (ControlsAction) -> Void)? = nil
  ) throws(PlayheadError) {
    try self.init(
      window: window, clock: player.clock, options: options, layout: layout,
      localization: localization, currentPlayer: { player }, performer: nil, onAction: onAction)
  }

  /// Controls for whichever player `currentPlayer` returns at each draw and input (the
  /// current session's, for a playback controller), timed by `clock`. `performer` may
  /// carry out an action itself (returning true), as a controller's play, pause and seek
  /// must go through the controller.
  public init(
    window: WindowVideoSink, clock: any Clock, options: PlayerViewOptions = PlayerViewOptions(),
    layout: ControlLayout? = nil, localization: Localization = .shared,
    currentPlayer: @escaping @Sendable () -> Player?,
    performer: (@Sendable (ControlsAction) -> Bool)? = nil,
    onAction: (@Sendable (ControlsAction) -> Void)? = nil
  ) throws(PlayheadError) {
    self.window = window
    self.clock = clock
    self.currentPlayer = currentPlayer
    self.performer = performer
    self.onAction = onAction
    renderer = try ControlsOverlayRenderer()
    var initial = State(
      model: ControlsModel(
        options: options, layout: layout, localization: localization,
        nowSeconds: clock.now.seconds))
    Self.follow(window.windowSize, scale: initial.scale, in: &initial.model)
    state = Locked(initial)
    clock.startThread(named: "playhead.controls") { [self] in redrawLoop(clock: clock) }
  }

  /// The player the controls act on now (nil between sessions).
  public var player: Player? { currentPlayer() }

  /// Stops redrawing and removes the controls from the window.
  public func close() {
    let wasClosed = state.withLock { state in
      defer { state.closed = true }
      return state.closed
    }
    guard !wasClosed else { return }
    wake.raise()
    // The drawing thread may be inside a draw that reads the window: let it finish, so
    // nothing touches the window (or SDL) once this returns. Bounded, in case this runs
    // on the window's own thread, which the drawing thread may be waiting for.
    _ = loopEnded.wait(timeout: .now() + 2)
    window.setOverlay(nil, layer: .controls)
  }

  /// Takes a window event: pointer events over the controls act on them (returns true);
  /// others, and any key, show hidden controls and return false for the application.
  @discardableResult
  public func handle(_ event: WindowEvent) -> Bool {
    let now = clock.now.seconds
    let input: ControlsInput
    switch event {
    case .click(let x, let y), .doubleClick(let x, let y):
      input = .pointerPressed(x: Double(x), y: Double(y))
    case .buttonReleased(let x, let y): input = .pointerReleased(x: Double(x), y: Double(y))
    case .pointerMoved(let x, let y): input = .pointerMoved(x: Double(x), y: Double(y))
    case .pointerLeft: input = .pointerLeft
    case .key(.tab): input = .navigationKey(.next)
    case .key(.backTab): input = .navigationKey(.previous)
    case .key(.enter): input = .navigationKey(.activate)
    case .key: input = .key
    case .resized(let width, let height):
      state.withLock { state in
        Self.follow(WindowSize(width: width, height: height), scale: state.scale, in: &state.model)
      }
      wake.raise()
      return false
    case .closeRequested:
      return false
    }
    let size = window.windowSize
    let response = state.withLock { state in
      Self.follow(size, scale: state.scale, in: &state.model)
      return state.model.handle(input, nowSeconds: now)
    }
    for action in response.actions { apply(action) }
    wake.raise()
    return response.isConsumed
  }

  /// Installs a layout now (see `ControlsModel.install(_:)`).
  public func install(_ layout: ControlLayout) {
    state.withLock { $0.model.install(layout) }
    wake.raise()
  }

  /// The times of cue points or ad breaks to mark on the slider, in seconds.
  public var markerTimes: [Double] {
    get { state.withLock { $0.markerTimes } }
    set {
      state.withLock { $0.markerTimes = newValue }
      wake.raise()
    }
  }

  /// Whether a bumper plays (no seeking; the bar hides unless `showBumperControls`).
  public var isBumper: Bool {
    get { state.withLock { $0.isBumper } }
    set {
      state.withLock { $0.isBumper = newValue }
      wake.raise()
    }
  }

  /// The SDK's text-track controller to list and choose subtitles through (its options,
  /// its selection, so its cue events follow the choice); nil lists the item's text
  /// tracks and selects them on the item.
  public var textTrackController: TextTrackController? {
    get { state.withLock { $0.textTracks } }
    set {
      state.withLock { $0.textTracks = newValue }
      wake.raise()
    }
  }

  /// Device pixels per layout pixel: the bar's height, widths, spacing and text grow with
  /// it (default: the desktop's, `desktopScale(environment:)`). Values that are not
  /// positive count as 1.
  public var scale: Double {
    get { state.withLock { $0.scale } }
    set {
      state.withLock { $0.scale = newValue.isFinite && newValue > 0 ? newValue : 1 }
      wake.raise()
    }
  }

  /// Hears which controls the bar lays out (in layout order) whenever that changes: a new
  /// layout, a track or bitrate menu that became available, a resize to the compact rows.
  /// Called on the drawing thread, whether the bar shows or not.
  public var onControlsChange: (@Sendable ([ControlTag]) -> Void)? {
    get { state.withLock { $0.onControlsChange } }
    set {
      state.withLock { state in
        state.onControlsChange = newValue
        state.announcedControls = nil
      }
      wake.raise()
    }
  }

  /// Puts `image` in the layout view with `id` (fitted, centred), as the seed adds an image
  /// view to an empty layout view for a logo; nil removes it.
  public func setImage(_ image: RGBAImage?, forViewID id: String) {
    state.withLock { state in
      state.viewImages[id] = image
      state.needsDraw = true
    }
    wake.raise()
  }

  /// Where slider previews come from: the picture for a time (nil for none), loaded off
  /// the drawing thread. While one loads, the last one stays up. Nil (the default) shows
  /// no previews.
  public var thumbnailProvider: (@Sendable (MediaTime) async -> RGBAImage?)? {
    get { state.withLock { $0.thumbnails } }
    set {
      state.withLock { state in
        state.thumbnails = newValue
        state.thumbnail = nil
        state.pendingThumbnail = nil
      }
      wake.raise()
    }
  }

  /// Where the ad controls come from: the ad on screen and the breaks to mark, read at
  /// every draw (a `PlayerView` reads its controller's). Nil (the default) shows no ads.
  public var adsProvider: (@Sendable () -> ControlsAds)? {
    get { state.withLock { $0.ads } }
    set {
      state.withLock { $0.ads = newValue }
      wake.raise()
    }
  }

  /// The scene last drawn (nil before the first draw), for tests and accessibility.
  public var currentScene: ControlsScene? { state.withLock { $0.lastScene } }

  /// The layout in use.
  public var layout: ControlLayout { state.withLock { $0.model.layout } }

  // MARK: Redrawing

  private func redrawLoop(clock: any Clock) {
    defer { loopEnded.signal() }
    while true {
      let next = redraw()
      guard let next else { return }
      clock.wait(until: MediaTime(seconds: next, preferredTimescale: 1_000_000_000), orUntil: wake)
    }
  }

  /// Brings the model up to date, draws the scene if it changed, and returns when to draw
  /// next (nil once closed).
  private func redraw() -> Double? {
    var playback = readPlayback()
    if let ads = state.withLock({ $0.ads })?() {
      playback.state.ad = ads.current
      playback.state.adBreakTimes = ads.breakTimes
      // While an ad plays the content's player is paused: the button follows the ad.
      if let ad = ads.current { playback.state.isPlaying = !ad.isPaused }
    }
    let now = clock.now.seconds
    let (scene, changed, closed, next, thumbnail, request, announce, images) = state.withLock {
      state in
      var snapshot = playback
      snapshot.state.hasThumbnails = state.thumbnails != nil
      snapshot.markerTimes = state.markerTimes
      snapshot.isBumper = state.isBumper
      if let id = playback.itemID, id != state.itemID {
        state.itemID = id
        state.sessionID += 1
      }
      snapshot.state.sessionID = state.sessionID
      Self.follow(playback.windowSize, scale: state.scale, in: &state.model)
      state.model.update(snapshot.state, nowSeconds: now)
      let scene = state.model.scene(nowSeconds: now)
      var request: (Double, @Sendable (MediaTime) async -> RGBAImage?)?
      if let wanted = scene.thumbnail?.timeSeconds, let provider = state.thumbnails,
        state.thumbnail?.seconds != wanted, state.pendingThumbnail != wanted
      {
        state.pendingThumbnail = wanted
        request = (wanted, provider)
      }
      let changed =
        scene != state.lastScene || state.thumbnailVersion != state.drawnThumbnailVersion
        || state.needsDraw
      state.needsDraw = false
      state.lastScene = scene
      state.drawnThumbnailVersion = state.thumbnailVersion
      var announce: (@Sendable () -> Void)?
      let tags = scene.controls.map(\.frame.tag)
      if let listener = state.onControlsChange, tags != state.announcedControls,
        scene.viewWidth > 0
      {
        state.announcedControls = tags
        announce = { listener(tags) }
      }
      return (
        scene, changed, state.closed, Self.nextDraw(model: state.model, now: now),
        state.thumbnail?.image, request, announce, state.viewImages
      )
    }
    if closed { return nil }
    announce?()
    let poster = scene.showsPoster ? loadPoster() : nil
    if let (seconds, provider) = request { load(seconds, with: provider) }
    if changed {
      draw(
        scene, thumbnail: scene.thumbnail == nil ? nil : thumbnail, poster: poster,
        images: images)
    }
    return next
  }

  /// Loads the thumbnail for `seconds` and redraws with it, unless another time was asked
  /// for meanwhile.
  private func load(
    _ seconds: Double, with provider: @escaping @Sendable (MediaTime) async -> RGBAImage?
  ) {
    Task { [weak self] in
      let image = await provider(MediaTime(seconds: seconds, preferredTimescale: 1000))
      guard let self else { return }
      self.state.withLock { state in
        guard state.pendingThumbnail == seconds else { return }
        state.pendingThumbnail = nil
        state.thumbnail = (seconds, image)
        state.thumbnailVersion += 1
      }
      self.wake.raise()
    }
  }

  /// The options' poster, read (PNG or JPEG) the first time it is needed; nil when it
  /// cannot be read.
  private func loadPoster() -> RGBAImage? {
    let path = state.withLock { $0.model.options.posterPath }
    guard let path else { return nil }
    if let loaded = state.withLock({ $0.poster }), loaded.path == path { return loaded.image }
    let image = (try? Data(contentsOf: URL(fileURLWithPath: path))).flatMap { data in
      try? ImageCodec.decode(data)
    }
    state.withLock { $0.poster = (path, image) }
    return image
  }

  private func draw(
    _ scene: ControlsScene, thumbnail: RGBAImage?, poster: RGBAImage?,
    images: [String: RGBAImage]
  ) {
    guard scene.isVisible || (scene.showsPoster && poster != nil) else {
      return window.setOverlay(nil, layer: .controls)
    }
    do {
      // Only the band with anything drawn is made and goes to the window (a texture of the
      // bar's size at its place), not a window-sized image.
      guard
        let band = try renderer.band(
          for: scene, thumbnail: thumbnail, poster: poster, viewImages: images),
        let box = band.bounds
      else { return window.setOverlay(nil, layer: .controls) }
      let part = try band.image.cropped(x: box.x, y: box.y, width: box.width, height: box.height)
      window.setOverlay(part, layer: .controls, x: box.x, y: band.y + box.y)
    } catch {
      window.setOverlay(nil, layer: .controls)
    }
  }

  /// Lays the model out at the window's drawable size read now. The window reports its
  /// size with an event the application may not have routed here yet (one that came
  /// before it made the controls), so the size read from the window is the truth.
  static func follow(_ size: WindowSize?, scale: Double, in model: inout ControlsModel) {
    guard let size, size.width > 0, size.height > 0,
      Double(size.width) != model.viewWidth || Double(size.height) != model.viewHeight
        || scale != model.scale
    else { return }
    model.resize(width: Double(size.width), height: Double(size.height), scale: scale)
  }

  /// The desktop's scale for user interfaces, as GTK and Qt applications read it:
  /// `GDK_SCALE` (a whole factor) times `GDK_DPI_SCALE`, else `QT_SCALE_FACTOR`; 1 when
  /// none is set or valid.
  public static func desktopScale(environment: [String: String]) -> Double {
    func positive(_ name: String) -> Double? {
      guard let text = environment[name], let value = Double(text), value.isFinite, value > 0
      else { return nil }
      return value
    }
    if let gdk = positive("GDK_SCALE") {
      return max(1, gdk.rounded(.down)) * (positive("GDK_DPI_SCALE") ?? 1)
    }
    if let dpi = positive("GDK_DPI_SCALE") { return dpi }
    return positive("QT_SCALE_FACTOR") ?? 1
  }

  static func nextDraw(model: ControlsModel, now: Double) -> Double {
    let opacity = model.opacity(nowSeconds: now)
    let change = model.nextVisibilityChange(nowSeconds: now)
    let frame = 1.0 / 30
    if (opacity > 0 && opacity < 1) || model.opacity(nowSeconds: now + frame) != opacity {
      return now + frame
    }
    // The ad controls count down by the second: drawn every quarter second while up.
    let shown = opacity > 0 || model.state.ad != nil ? now + 0.25 : now + 0.5
    return min(shown, change ?? .infinity)
  }
}
