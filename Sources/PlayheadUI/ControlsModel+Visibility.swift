extension ControlsModel {
  /// Whether the controls stay up whatever the time: `keepControlsVisible`, an audio-only
  /// layout, a paused player, an open menu or a slider drag. A bumper without
  /// `showBumperControls` hides them instead.
  public var isPinnedVisible: Bool {
    if isBumperHidden { return false }
    return options.keepControlsVisible || state.isAudioOnly || (automaticKind?.isAudioOnly ?? false)
      || !state.isPlaying || openMenu != nil || dragFraction != nil
  }

  /// Whether a bumper hides the whole bar.
  var isBumperHidden: Bool { state.isBumper && !options.showBumperControls }

  /// The controls' opacity at `nowSeconds`: 1 until `hideControlsInterval` has passed
  /// since the last input, then falling linearly to 0 over the hide animation; rising
  /// again over the show animation after input.
  public func opacity(nowSeconds: Double) -> Double {
    if isBumperHidden { return 0 }
    let shown = showingOpacity(nowSeconds: nowSeconds)
    if isPinnedVisible { return shown }
    let hideStart = lastInputSeconds + options.effectiveHideControlsInterval
    guard nowSeconds >= hideStart else { return shown }
    let duration = options.effectiveHideAnimationDuration
    let atStart = showingOpacity(nowSeconds: hideStart)
    let progress = (nowSeconds - hideStart) / duration
    guard duration > 0, progress < 1 - Self.timeTolerance else { return 0 }
    return atStart * (1 - progress)
  }

  /// The next time after `nowSeconds` at which the opacity starts or stops changing, so a
  /// host can wait on its clock until then; nil when nothing is due.
  public func nextVisibilityChange(nowSeconds: Double) -> Double? {
    if isBumperHidden { return nil }
    if let start = showStartSeconds {
      let end = start + options.effectiveShowAnimationDuration * (1 - showStartOpacity)
      if nowSeconds < end { return end }
    }
    if isPinnedVisible { return nil }
    let hideStart = lastInputSeconds + options.effectiveHideControlsInterval
    if nowSeconds < hideStart { return hideStart }
    let hideEnd = hideStart + options.effectiveHideAnimationDuration
    return nowSeconds < hideEnd ? hideEnd : nil
  }

  /// Whether a show animation is under way at `nowSeconds` (started, not finished).
  func isAppearing(nowSeconds: Double) -> Bool {
    guard let start = showStartSeconds, nowSeconds >= start else { return false }
    let end = start + options.effectiveShowAnimationDuration * (1 - showStartOpacity)
    return nowSeconds < end
  }

  /// Notes input at `nowSeconds`: the hide delay restarts and hidden controls fade in.
  mutating func noteInput(at nowSeconds: Double) {
    let current = opacity(nowSeconds: nowSeconds)
    lastInputSeconds = nowSeconds
    if current < 1 { beginShowing(from: current, at: nowSeconds) }
  }

  mutating func beginShowing(from opacity: Double, at nowSeconds: Double) {
    showStartSeconds = nowSeconds
    showStartOpacity = max(0, min(1, opacity))
  }

  /// The opacity of the show animation alone (1 once it has finished).
  private func showingOpacity(nowSeconds: Double) -> Double {
    guard let start = showStartSeconds, nowSeconds >= start else { return 1 }
    let duration = options.effectiveShowAnimationDuration * (1 - showStartOpacity)
    let progress = (nowSeconds - start) / duration
    guard duration > 0, progress < 1 - Self.timeTolerance else { return 1 }
    return showStartOpacity + (1 - showStartOpacity) * progress
  }

  /// Animations count as finished this close to their end, so that sums of seconds in
  /// binary floating point (10 + 0.2) end them exactly.
  static var timeTolerance: Double { 1e-9 }
}
