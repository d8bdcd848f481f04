import PlayheadCore
import PlayheadMedia

/// The latest picture a window should show, handed from the presenting thread to the
/// window thread; an older picture not yet drawn is replaced, never queued.
///
/// It also counts what was presented and drawn, and remembers whether a draw job is
/// already on its way, so that a burst of frames wakes the window thread once.
final class FrameMailbox: Sendable {
  /// A picture ready to upload: planar YUV (`yuv420p` or `nv12`), or RGBA with straight
  /// alpha (alpha-mask videos).
  enum Picture: Sendable {
    case planar(VideoFrame)
    case rgba(RGBAImage)
  }

  /// What the window thread should do next.
  enum Content: Sendable {
    case picture(Picture)
    /// Show the background only.
    case clear
  }

  private let state = Locked(State())

  private struct State: Sendable {
    var pending: Content?
    var drawScheduled = false
    var presented = 0
    var drawn = 0
    var replaced = 0
  }

  /// Leaves `content` for the window thread (replacing what it did not take yet); true when
  /// the caller must schedule a draw job (none is on its way).
  func post(_ content: Content) -> Bool {
    state.withLock { state in
      if case .picture = content { state.presented += 1 }
      if case .picture = state.pending { state.replaced += 1 }
      state.pending = content
      guard !state.drawScheduled else { return false }
      state.drawScheduled = true
      return true
    }
  }

  /// Takes what was left (nil when nothing is new); a later `post` schedules a new job.
  func take() -> Content? {
    state.withLock { state in
      state.drawScheduled = false
      let content = state.pending
      state.pending = nil
      return content
    }
  }

  /// Counts one picture drawn to the window.
  func noteDrawn() {
    state.withLock { $0.drawn += 1 }
  }

  /// Pictures posted so far.
  var presentedCount: Int { state.withLock { $0.presented } }
  /// Pictures drawn so far.
  var drawnCount: Int { state.withLock { $0.drawn } }
  /// Pictures replaced by a newer one before the window thread took them.
  var replacedCount: Int { state.withLock { $0.replaced } }
}
