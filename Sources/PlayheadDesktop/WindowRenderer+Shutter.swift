import CSDL2

/// A shutter fading over the picture: opaque black when closed (seed 003's shutter).
struct ShutterFade {
  /// The opacity the fade starts from and ends at (0 open, 1 closed).
  var from: Double
  var to: Double
  /// SDL ticks (ms) when the fade began.
  var startMs: UInt64
  /// How long the fade lasts, in ms (0: at once).
  var durationMs: UInt64

  /// The shutter's opacity at `nowMs`, 0 (open) to 1 (closed).
  func opacity(atMs nowMs: UInt64) -> Double {
    let progress =
      durationMs == 0 ? 1 : min(1, Double(nowMs &- startMs) / Double(durationMs))
    return from + (to - from) * progress
  }

  /// Whether the fade is over at `nowMs`.
  func isFinished(atMs nowMs: UInt64) -> Bool {
    durationMs == 0 || nowMs &- startMs >= durationMs
  }
}

extension WindowRenderer {
  /// Closes (fades the picture to black) or opens the shutter over `fadeSeconds`, from
  /// where it is now; then redraws.
  func setShutter(closed: Bool, fadeSeconds: Double) {
    let now = SDL_GetTicks64()
    let current = shutter?.opacity(atMs: now) ?? 0
    let seconds = fadeSeconds.isFinite ? max(0, fadeSeconds) : 0
    // A fade that had not finished turns around from where it is, taking the part of
    // the fade time that is left to cover.
    let target = closed ? 1.0 : 0.0
    let duration = UInt64((seconds * 1000 * abs(target - current)).rounded())
    shutter = ShutterFade(from: current, to: target, startMs: now, durationMs: duration)
    if !closed && duration == 0 { shutter = nil }
    drawAndPresent()
  }

  /// The shutter's opacity now (0 open, 1 closed).
  var shutterOpacity: Double {
    shutter?.opacity(atMs: SDL_GetTicks64()) ?? 0
  }

  /// Whether a shutter fade is under way (the window thread then redraws often).
  var isAnimatingShutter: Bool {
    guard let shutter else { return false }
    return !shutter.isFinished(atMs: SDL_GetTicks64())
  }

  /// Redraws during a fade; forgets an opened shutter once its fade is over.
  func animateShutter() {
    guard let fade = shutter else { return }
    if fade.to == 0 && fade.isFinished(atMs: SDL_GetTicks64()) { shutter = nil }
    drawAndPresent()
  }

  /// Draws the shutter over `pictureRect` (the whole window without a picture).
  func drawShutter(pictureRect: PixelRect?) {
    let alpha = shutterOpacity
    guard alpha > 0 else { return }
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    SDL_SetRenderDrawColor(renderer, 0, 0, 0, UInt8((alpha * 255).rounded()))
    if let pictureRect {
      var rect = SDL_Rect(pictureRect)
      SDL_RenderFillRect(renderer, &rect)
    } else {
      SDL_RenderFillRect(renderer, nil)
    }
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
  }
}
