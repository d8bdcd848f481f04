/// What the controls did with one input.
public struct ControlsResponse: Sendable, Equatable {
  /// What the host should apply to the player, in order.
  public var actions: [ControlsAction]
  /// Whether the controls took the input; when false the host applies its own meaning
  /// (a click on the video toggles pause, a double click toggles full screen).
  public var isConsumed: Bool

  /// A response.
  public init(actions: [ControlsAction] = [], isConsumed: Bool) {
    self.actions = actions
    self.isConsumed = isConsumed
  }
}

extension ControlsModel {
  /// Handles one input at `nowSeconds`.
  ///
  /// Any input shows hidden controls and restarts the hide delay. A press on hidden
  /// controls (not showing, not appearing after a pointer move) only shows them and is
  /// not consumed, so the host's click meaning still applies; a pointer moved onto a
  /// button and pressed acts on it, as the controls appear with the move. Buttons act on
  /// release over the button they were pressed on; the slider seeks on release to where
  /// it was let go (not during a bumper or an ad); a press outside an open menu closes it.
  /// The ad controls (skip, "Learn more") take presses whether the bar shows or not, and
  /// Tab / Shift+Tab / Return (`navigationKey`) move the focus through them and press one.
  public mutating func handle(_ input: ControlsInput, nowSeconds: Double) -> ControlsResponse {
    let visibleBefore = opacity(nowSeconds: nowSeconds)
    let appearing = isAppearing(nowSeconds: nowSeconds)
    noteInput(at: nowSeconds)
    switch input {
    case .key:
      return ControlsResponse(isConsumed: false)
    case .navigationKey(let key):
      return navigate(key)
    case .pointerLeft:
      pointer = nil
      return ControlsResponse(isConsumed: false)
    case .pointerMoved(let x, let y):
      pointer = (x, y)
      if dragFraction != nil, let fraction = sliderFraction(atX: x) {
        dragFraction = fraction
      }
      return ControlsResponse(isConsumed: dragFraction != nil)
    case .pointerPressed(let x, let y):
      pointer = (x, y)
      if let button = adControls()?.buttons.first(where: { $0.box.contains(x: x, y: y) }) {
        pressedID = Self.adPressID(button.kind)
        return ControlsResponse(isConsumed: true)
      }
      guard visibleBefore > 0 || appearing, !isBumperHidden else {
        return ControlsResponse(isConsumed: false)
      }
      return press(x: x, y: y)
    case .pointerReleased(let x, let y):
      pointer = (x, y)
      return release(x: x, y: y)
    }
  }

  private mutating func press(x: Double, y: Double) -> ControlsResponse {
    if openMenu != nil {
      if let menu = menuGeometry(), menu.contains(x: x, y: y) {
        pressedID = Self.menuID
        return ControlsResponse(isConsumed: true)
      }
      openMenu = nil
      pressedID = Self.menuDismissID
      return ControlsResponse(isConsumed: true)
    }
    guard let frame = viewFrames().first(where: { $0.contains(x: x, y: y) }) else {
      return ControlsResponse(isConsumed: isInControlArea(y: y))
    }
    pressedID = frame.id
    if frame.tag == .progressSlider, !state.isSeekingBlocked, state.sliderRange != nil {
      dragFraction = sliderFraction(atX: x)
    }
    return ControlsResponse(isConsumed: true)
  }

  private mutating func release(x: Double, y: Double) -> ControlsResponse {
    let pressed = pressedID
    pressedID = nil
    if let fraction = dragFraction {
      dragFraction = sliderFraction(atX: x) ?? fraction
      let target = dragFraction ?? fraction
      dragFraction = nil
      guard let range = state.sliderRange else { return ControlsResponse(isConsumed: true) }
      let seconds = range.lowerBound + target * (range.upperBound - range.lowerBound)
      return ControlsResponse(actions: [.seek(toSeconds: seconds)], isConsumed: true)
    }
    if pressed == Self.menuDismissID { return ControlsResponse(isConsumed: true) }
    if let kind = AdControlKind.allCases.first(where: { Self.adPressID($0) == pressed }) {
      guard let button = adControls()?.button(kind), button.box.contains(x: x, y: y) else {
        return ControlsResponse(isConsumed: true)
      }
      return ControlsResponse(actions: adActions(button), isConsumed: true)
    }
    if pressed == Self.menuID {
      return ControlsResponse(actions: chooseMenuItem(x: x, y: y), isConsumed: true)
    }
    guard let pressed,
      let frame = viewFrames().first(where: { $0.id == pressed && $0.contains(x: x, y: y) })
    else {
      return ControlsResponse(isConsumed: pressed != nil)
    }
    return ControlsResponse(actions: activate(frame.tag), isConsumed: true)
  }

  /// What pressing a control does.
  private mutating func activate(_ tag: ControlTag) -> [ControlsAction] {
    switch tag {
    case .playback:
      return [state.isPlaying ? .pause : .play]
    case .jumpBack:
      guard let range = state.sliderRange, !state.isSeekingBlocked else { return [] }
      let target = max(range.lowerBound, state.position - options.effectiveJumpBackInterval)
      return [.seek(toSeconds: target)]
    case .screenMode:
      return [.setFullScreen(!state.isFullScreen)]
    case .liveIndicator:
      return state.isAtLiveEdge() || state.isSeekingBlocked ? [] : [.goToLive]
    case .closedCaption:
      openMenu = openMenu == .tracks ? nil : .tracks
      return []
    case .preferredBitrate:
      openMenu = openMenu == .bitrate ? nil : .bitrate
      return []
    case .currentTime, .timeSeparator, .duration, .progressSlider, .empty, .externalRoute,
      .pictureInPicture, .video360:
      return []
    }
  }

  /// The frames of the effective layout in view coordinates (the control area at the
  /// bottom of the view).
  func viewFrames() -> [ControlFrame] {
    let layout = effectiveLayout
    let areaTop = viewHeight - layout.controlAreaHeight(forWidth: viewWidth, scale: scale)
    return layout.frames(forWidth: viewWidth, scale: scale).map { frame in
      var moved = frame
      moved.y += areaTop
      return moved
    }
  }

  func isInControlArea(y: Double) -> Bool {
    y >= viewHeight - effectiveLayout.controlAreaHeight(forWidth: viewWidth, scale: scale)
  }

  /// Where `x` falls along the slider, 0…1; nil without a slider.
  func sliderFraction(atX x: Double) -> Double? {
    guard let slider = viewFrames().first(where: { $0.tag == .progressSlider }) else {
      return nil
    }
    let inset = sliderInset
    let usable = slider.width - 2 * inset
    guard usable > 0 else { return 0 }
    return max(0, min(1, (x - slider.x - inset) / usable))
  }

  /// The press ids of a press inside an open menu and of one that closed it.
  static let menuID = "\u{0}menu"
  static let menuDismissID = "\u{0}menu-dismiss"

  /// The slider track's inset from each end of its frame (room for the knob).
  var sliderInset: Double { 8 * scale }
}
