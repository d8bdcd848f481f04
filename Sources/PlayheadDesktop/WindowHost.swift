import CSDL2

/// The windows the SDL video thread owns, by SDL window ID, and the dispatch of SDL's
/// events to them. Used only on that thread.
final class WindowHost {
  /// The SDL event type that only wakes the thread.
  let wakeEventType: UInt32
  private var windows: [UInt32: WindowRenderer] = [:]

  init(wakeEventType: UInt32) {
    self.wakeEventType = wakeEventType
  }

  /// Takes ownership of `window`.
  func add(_ window: WindowRenderer) {
    windows[window.windowID] = window
  }

  /// SDL's name for the running video driver (`x11`, `wayland`), nil when none runs.
  var videoDriverName: String? {
    SDL_GetCurrentVideoDriver().map { String(cString: $0) }
  }

  /// The window with SDL window ID `id`, if open.
  func window(_ id: UInt32) -> WindowRenderer? {
    windows[id]
  }

  /// Destroys the window with SDL window ID `id`; an unknown ID does nothing.
  func close(_ id: UInt32) {
    windows.removeValue(forKey: id)?.destroy()
  }

  /// Whether a window is fading its shutter (the thread then wakes every frame).
  var isAnimating: Bool { windows.values.contains { $0.isAnimatingShutter } }

  /// Draws the next frame of every window that is fading its shutter.
  func animate() {
    for window in windows.values where window.shutter != nil { window.animateShutter() }
  }

  /// Destroys every window.
  func closeAll() {
    for window in windows.values { window.destroy() }
    windows.removeAll()
  }

  /// Hands `event` to the window it is for. An input event without a window (SDL had not
  /// seen the focus arrive) goes to the only window, if there is one.
  func handle(_ event: SDL_Event) {
    let type = event.type
    guard type != wakeEventType else { return }
    switch type {
    case SDL_WINDOWEVENT.rawValue:
      target(event.window.windowID)?.handleWindowEvent(event.window)
    case SDL_KEYDOWN.rawValue:
      target(event.key.windowID)?.handleKey(event.key.keysym)
    case SDL_TEXTINPUT.rawValue:
      var text = event.text
      let typed = withUnsafeBytes(of: &text.text) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      target(text.windowID)?.handleText(typed)
    case SDL_MOUSEBUTTONDOWN.rawValue:
      target(event.button.windowID)?.handleButton(event.button)
    case SDL_MOUSEBUTTONUP.rawValue:
      target(event.button.windowID)?.handleButtonRelease(event.button)
    case SDL_MOUSEMOTION.rawValue:
      target(event.motion.windowID)?.handlePointerMotion(event.motion)
    case SDL_RENDER_TARGETS_RESET.rawValue, SDL_RENDER_DEVICE_RESET.rawValue:
      for window in windows.values { window.restoreAfterReset() }
    default:
      break
    }
  }

  private func target(_ id: UInt32) -> WindowRenderer? {
    if let window = windows[id] { return window }
    return id == 0 && windows.count == 1 ? windows.values.first : nil
  }
}
