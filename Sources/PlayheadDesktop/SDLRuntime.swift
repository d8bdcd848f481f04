import CSDL2
import PlayheadCore

/// An SDL subsystem that Playhead starts: the audio devices or the windows.
enum SDLSubsystem: Sendable, Hashable {
  case audio
  case video

  var flags: UInt32 {
    switch self {
    case .audio: return SDL_INIT_AUDIO
    case .video: return SDL_INIT_VIDEO
    }
  }
}

/// The one owner of SDL's process-wide initialisation: it starts a subsystem for its first
/// user and stops it after its last, from any thread.
///
/// SDL's own init and quit calls are not thread-safe, so every call goes through this lock.
/// The first start sets the hints Playhead needs: SDL installs no signal handlers (Ctrl-C
/// stays the application's) and closing the last window does not post `SDL_QUIT`. SDL
/// reads `SDL_AUDIODRIVER` and `SDL_VIDEODRIVER` when a subsystem starts, so a change to
/// them takes effect once the subsystem has no user left.
final class SDLRuntime: Sendable {
  /// The process's runtime.
  static let shared = SDLRuntime()

  private let users = Locked(Users())

  private struct Users: Sendable {
    var hintsSet = false
    var counts: [SDLSubsystem: Int] = [:]
  }

  private init() {}

  /// Starts `subsystem` unless it runs already, and counts one more user of it.
  ///
  /// Throws `.ioError` with SDL's message when the subsystem cannot start (no audio
  /// driver, no display); the count is then unchanged. The video subsystem must be
  /// acquired, used and released on one thread (the window thread).
  func acquire(_ subsystem: SDLSubsystem) throws(PlayheadError) {
    try users.withLock { (users) throws(PlayheadError) in
      if !users.hintsSet {
        users.hintsSet = true
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        SDL_SetHint(SDL_HINT_QUIT_ON_LAST_WINDOW_CLOSE, "0")
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
      }
      let count = users.counts[subsystem, default: 0]
      if count == 0, SDL_InitSubSystem(subsystem.flags) != 0 {
        throw PlayheadError(
          .ioError, "SDL could not start its \(subsystem) subsystem: \(SDLRuntime.lastError)")
      }
      users.counts[subsystem] = count + 1
    }
  }

  /// Counts one user of `subsystem` less, and stops it after the last.
  ///
  /// A release without a matching acquire does nothing.
  func release(_ subsystem: SDLSubsystem) {
    users.withLock { users in
      let count = users.counts[subsystem, default: 0]
      guard count > 0 else { return }
      users.counts[subsystem] = count - 1
      if count == 1 { SDL_QuitSubSystem(subsystem.flags) }
    }
  }

  /// How many users `subsystem` has now.
  func userCount(of subsystem: SDLSubsystem) -> Int {
    users.withLock { $0.counts[subsystem, default: 0] }
  }

  /// SDL's message for the last error on this thread.
  static var lastError: String {
    guard let message = SDL_GetError() else { return "unknown SDL error" }
    let text = String(cString: message)
    return text.isEmpty ? "unknown SDL error" : text
  }
}
