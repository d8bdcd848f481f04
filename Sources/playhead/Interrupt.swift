import Foundation
import Playhead

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C (SIGINT) for the whole tool: every verb, at any point, exits with status 130
/// within `gracePeriodSeconds`.
///
/// Without a handler the process exits at once. A verb that wants to end cleanly (close
/// its player, print "interrupted" and its summary) sets a handler; the handler runs on
/// the signal queue, and the process exits on its own once the verb returns, or is ended
/// with 130 when the grace period passes first (a close that waits on a network that
/// never answers must not hold the viewer). A second Ctrl-C exits at once. Output is
/// written unbuffered (`Console`), so nothing printed before the exit is lost.
enum Interrupt {
  /// How long a verb's handler has to finish before the process exits anyway.
  static let gracePeriodSeconds = 0.3

  private static let queue = DispatchQueue(label: "playhead.cli.interrupt")
  private static let state = InterruptState()

  /// Takes SIGINT over from the default action; call once, first thing in `main`.
  static func install() {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
    source.setEventHandler { received() }
    source.resume()
    state.source = source
  }

  /// Runs `handler` on the next Ctrl-C instead of exiting at once (nil: exit at once).
  static func setHandler(_ handler: (@Sendable () -> Void)?) {
    state.setHandler(handler)
  }

  private static func received() {
    guard let handler = state.takeHandlerOnFirstSignal() else {
      _exit(ExitCode.interrupted.rawValue)
    }
    queue.asyncAfter(deadline: .now() + gracePeriodSeconds) {
      _exit(ExitCode.interrupted.rawValue)
    }
    handler()
  }
}

/// The handler and whether a Ctrl-C came already.
private final class InterruptState: Sendable {
  private let state = Locked(State())

  private struct State: Sendable {
    var handler: (@Sendable () -> Void)?
    var signalled = false
    var source: SignalSource?
  }

  /// The installed signal source.
  struct SignalSource: @unchecked Sendable {
    // Unchecked Sendable: a dispatch source is thread-safe, but Dispatch does not mark
    // the protocol Sendable.
    let source: any DispatchSourceSignal
  }

  var source: (any DispatchSourceSignal)? {
    get { state.withLock { $0.source }?.source }
    set {
      let kept = newValue.map(SignalSource.init)
      state.withLock { $0.source = kept }
    }
  }

  func setHandler(_ handler: (@Sendable () -> Void)?) {
    state.withLock { $0.handler = handler }
  }

  /// The handler for the first Ctrl-C; nil for a later one or when none is set.
  func takeHandlerOnFirstSignal() -> (@Sendable () -> Void)? {
    state.withLock { state in
      let first = !state.signalled
      state.signalled = true
      guard first else { return nil }
      return state.handler
    }
  }
}
