import PlayheadEngine
import PlayheadSDK

/// The player UI's controls as a value: layout, playback state and viewer input in;
/// actions, visibility and a scene to draw out (SPEC U; seed 000's
/// `BCOVPUIBasicControlView`).
///
/// The model has no window, thread or clock of its own: its host (the desktop window, or a
/// test) passes the time in seconds from the player's clock with every call, so hiding
/// and its animation are deterministic. Clicks that no control takes are left to the
/// host (`ControlsResponse.isConsumed` false), which toggles pause as `playhead play` does.
///
/// ```swift
/// var controls = ControlsModel(options: PlayerViewOptions(), nowSeconds: clock.seconds)
/// controls.resize(width: 1280, height: 720, scale: 1)
/// controls.update(state, nowSeconds: clock.seconds)
/// let response = controls.handle(.pointerPressed(x: 20, y: 700), nowSeconds: clock.seconds)
/// for action in response.actions { apply(action) }
/// draw(controls.scene(nowSeconds: clock.seconds))
/// ```
public struct ControlsModel: Sendable {
  /// The options; changes apply from the next call.
  public var options: PlayerViewOptions
  /// The strings of labels, menus and accessible names.
  public let localization: Localization
  /// The layout installed (provided or custom).
  public private(set) var layout: ControlLayout
  /// The provided layout kind `automaticControlTypeSelection` last picked; nil for a
  /// custom layout or before the first state.
  public private(set) var automaticKind: ControlLayout.Kind?
  /// The latest playback state.
  public private(set) var state = ControlsPlaybackState()
  /// The view's size in pixels and its scale (device pixels per layout pixel).
  public private(set) var viewWidth: Double = 0
  public private(set) var viewHeight: Double = 0
  public private(set) var scale: Double = 1

  var lastInputSeconds: Double
  var showStartSeconds: Double?
  var showStartOpacity: Double = 1
  var pointer: (x: Double, y: Double)?
  var dragFraction: Double?
  var pressedID: String?
  var openMenu: MenuKind?
  /// The ad control with the keyboard focus, if any.
  var focusedAdControl: AdControlKind?
  var selectedBitrateIndex: Int?
  var lastSessionID: Int?

  /// Which menu is open.
  enum MenuKind: Equatable, Sendable {
    case tracks
    case bitrate
  }

  /// Controls shown at `nowSeconds`, with `layout` installed (default: the VOD layout
  /// until the first state picks one, when automatic selection is on).
  public init(
    options: PlayerViewOptions = PlayerViewOptions(), layout: ControlLayout? = nil,
    localization: Localization = .shared, nowSeconds: Double
  ) {
    self.options = options
    self.localization = localization
    self.layout = layout ?? .basicVOD()
    self.lastInputSeconds = nowSeconds
    self.selectedBitrateIndex = options.preferredBitrateMenu?.selectedIndex
  }

  /// Installs a layout at once (the seed's `controlsView.layout = …`). With automatic
  /// selection on it stays until the next session picks a provided one.
  public mutating func install(_ layout: ControlLayout) {
    self.layout = layout
    automaticKind = nil
    openMenu = nil
  }

  /// Sets the view's size (pixels) and scale; non-positive or non-finite values count as 0
  /// (size) and 1 (scale).
  public mutating func resize(width: Double, height: Double, scale: Double) {
    viewWidth = width.isFinite ? max(0, width) : 0
    viewHeight = height.isFinite ? max(0, height) : 0
    self.scale = ControlLayout.validScale(scale)
  }

  /// Takes the playback state at `nowSeconds`. A new session closes menus and, with
  /// automatic selection on, installs the provided layout for its media; a change that
  /// lets the controls hide (playback resuming, a menu closing) restarts the hide delay.
  public mutating func update(_ newState: ControlsPlaybackState, nowSeconds: Double) {
    let wasPinned = isPinnedVisible
    let wasShowing = opacity(nowSeconds: nowSeconds)
    if newState.sessionID != lastSessionID {
      lastSessionID = newState.sessionID
      openMenu = nil
      dragFraction = nil
      pressedID = nil
      if options.automaticControlTypeSelection {
        let kind = ControlLayout.Kind.automatic(
          isAudioOnly: newState.isAudioOnly, streamKind: newState.streamKind)
        layout = .provided(kind)
        automaticKind = kind
      }
    }
    if newState.ad == nil { focusedAdControl = nil }
    state = newState
    if wasPinned && !isPinnedVisible {
      lastInputSeconds = nowSeconds
    } else if !wasPinned && isPinnedVisible && wasShowing < 1 {
      beginShowing(from: wasShowing, at: nowSeconds)
    }
  }

  /// The layout with what this session cannot use removed (and compact at every width
  /// with `alwaysCompact`): the controls Linux never
  /// shows; the bitrate button without a menu of two or more choices; the tracks button
  /// without a text track or a second audio track; jump back during a bumper or an ad.
  public var effectiveLayout: ControlLayout {
    var effective = layout
    if options.alwaysCompact { effective.compactLayoutMaximumWidth = .infinity }
    for tag in ControlTag.allCases where !isAvailable(tag) {
      effective.setRemoved(true, tag: tag)
    }
    return effective
  }

  func isAvailable(_ tag: ControlTag) -> Bool {
    switch tag {
    case .externalRoute, .pictureInPicture, .video360: return false
    case .preferredBitrate: return (activeBitrateMenu?.options.count ?? 0) >= 2
    case .closedCaption: return !state.textTracks.isEmpty || state.audioTracks.count >= 2
    case .jumpBack: return !state.isSeekingBlocked && state.sliderRange != nil
    default: return true
    }
  }

  /// The bitrate menu in use: the options' menu, else the stream's (nil with neither).
  public var activeBitrateMenu: BitrateMenu? {
    options.preferredBitrateMenu ?? state.bitrateMenu
  }
}
