/// What the viewer asked for through the controls; the host applies it to the player.
public enum ControlsAction: Sendable, Equatable {
  /// Resume playback.
  case play
  /// Pause playback.
  case pause
  /// Seek to a time in seconds on the item's timeline.
  case seek(toSeconds: Double)
  /// Seek to the live edge.
  case goToLive
  /// Enter (true) or leave (false) full screen.
  case setFullScreen(Bool)
  /// Show the text track with this id; nil turns subtitles off.
  case selectTextTrack(id: String?)
  /// Play the audio track with this id.
  case selectAudioTrack(id: String)
  /// Apply the bitrate menu's option at this position in `BitrateMenu.options`.
  case selectBitrate(optionIndex: Int)
  /// Skip the ad on screen (`PlaybackController.skipAd()`); sent only once it can be.
  case skipAd
  /// Open the ad's page and send its click tracking
  /// (`PlaybackController.openAdClickThrough()`).
  case openAdClickThrough
}

/// Input from the viewer, in the control view's pixels (origin at the top-left).
public enum ControlsInput: Sendable, Equatable {
  /// The pointer moved to a point.
  case pointerMoved(x: Double, y: Double)
  /// The primary button went down at a point.
  case pointerPressed(x: Double, y: Double)
  /// The primary button came up at a point.
  case pointerReleased(x: Double, y: Double)
  /// The pointer left the view.
  case pointerLeft
  /// Any key was pressed (it shows the controls; keys act through the host).
  case key
  /// A key that moves the keyboard focus or presses the focused control (Tab, Shift+Tab,
  /// Return). Not consumed when no control takes focus, so the host's meaning applies.
  case navigationKey(ControlsNavigationKey)
}

/// The keys that reach the controls by keyboard.
public enum ControlsNavigationKey: Sendable, Equatable {
  /// Focus the next control (Tab).
  case next
  /// Focus the previous control (Shift+Tab).
  case previous
  /// Press the focused control (Return, Enter).
  case activate
}
