import CSDL2
import Dispatch
import Foundation
import PlayheadCore

/// The one thread that runs SDL's video: it starts SDL's video subsystem, owns every
/// window Playhead opens, pumps SDL's event queue and runs the jobs other threads hand it.
///
/// SDL wants its windows, renderers and textures used from the thread that started its
/// video, and it has a single event queue for the whole process, so every window shares
/// this thread. It starts with the first window (`acquire()`) and stops after the last one
/// closed (`release(_:)`), quitting SDL's video, which closes the connection to the X
/// server. Other threads reach the windows only through jobs (`submit(_:)`,
/// `perform(_:)`); a job is woken for at once with an SDL user event.
final class SDLVideoThread: Sendable {
  /// Work for the thread, given the windows it owns.
  typealias Job = @Sendable (WindowHost) -> Void

  private let inbox = Locked(Inbox())
  private let startState = Locked(StartState.pending)
  private let started = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)

  /// The jobs waiting to run and the thread's state as other threads see it.
  private struct Inbox: Sendable {
    var jobs: [Job] = []
    /// Whether `submit` takes jobs (from the start of the loop until it stops).
    var accepting = false
    var stopRequested = false
    /// The SDL event type that wakes the loop.
    var wakeEventType: UInt32 = 0
    /// The thread's pthread, once running.
    var thread: pthread_t?
  }

  private enum StartState: Sendable {
    case pending
    case running
    case failed(PlayheadError)
  }

  /// The running thread and how many windows use it.
  private struct Registry: Sendable {
    var thread: SDLVideoThread?
    var users = 0
  }

  /// Held while the thread starts or stops, so acquire and release are serialised (the
  /// thread itself never takes it).
  private static let registry = Locked(Registry())

  private init() {}

  /// The running thread, started (with SDL's video) if no window uses it yet; counts one
  /// user more.
  ///
  /// Throws `.ioError` with SDL's message when video cannot start (no `DISPLAY`, an
  /// unknown `SDL_VIDEODRIVER`).
  static func acquire() throws(PlayheadError) -> SDLVideoThread {
    try registry.withLock { (registry) throws(PlayheadError) -> SDLVideoThread in
      if let thread = registry.thread {
        registry.users += 1
        return thread
      }
      let thread = SDLVideoThread()
      try thread.start()
      registry.thread = thread
      registry.users = 1
      return thread
    }
  }

  /// Counts one user of `thread` less; after the last, stops it and waits until SDL's
  /// video has quit. Never call it from the thread itself.
  static func release(_ thread: SDLVideoThread) {
    registry.withLock { registry in
      guard registry.thread === thread, registry.users > 0 else { return }
      registry.users -= 1
      guard registry.users == 0 else { return }
      registry.thread = nil
      thread.stop()
    }
  }

  /// Queues `job` and wakes the thread; false (the job dropped) once the thread stops.
  @discardableResult
  func submit(_ job: @escaping Job) -> Bool {
    inbox.withLock { inbox in
      guard inbox.accepting else { return false }
      inbox.jobs.append(job)
      if inbox.jobs.count == 1 {
        var event = SDL_Event()
        event.type = inbox.wakeEventType
        SDL_PushEvent(&event)
      }
      return true
    }
  }

  /// Runs `body` on the thread and returns its result; nil when the thread stops first or
  /// when called from the thread itself (which would wait for ever).
  func perform<Value: Sendable>(_ body: @escaping @Sendable (WindowHost) -> Value) -> Value? {
    guard !isCurrent else { return nil }
    let result = Locked<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    let queued = submit { host in
      let value = body(host)
      result.withLock { $0 = value }
      done.signal()
    }
    guard queued else { return nil }
    done.wait()
    return result.value
  }

  /// Whether the caller runs on this thread.
  var isCurrent: Bool {
    guard let thread = inbox.withLock({ $0.thread }) else { return false }
    return pthread_equal(thread, pthread_self()) != 0
  }

  /// Starts the thread and waits until SDL's video runs on it or failed to start.
  private func start() throws(PlayheadError) {
    let thread = Thread { [self] in run() }
    thread.name = "Playhead SDL video"
    thread.start()
    started.wait()
    if case .failed(let error) = startState.value { throw error }
  }

  /// Asks the loop to stop after the jobs already queued, and waits until it has.
  private func stop() {
    inbox.withLock { inbox in
      inbox.stopRequested = true
      var event = SDL_Event()
      event.type = inbox.wakeEventType
      SDL_PushEvent(&event)
    }
    finished.wait()
  }

  /// The thread's body: starts video, loops over jobs and events, then closes every window
  /// left and quits video.
  private func run() {
    do {
      try SDLRuntime.shared.acquire(.video)
    } catch {
      startState.withLock { $0 = .failed(error) }
      started.signal()
      finished.signal()
      return
    }
    let registered = SDL_RegisterEvents(1)
    let wakeEventType = registered == UInt32.max ? SDL_USEREVENT.rawValue : registered
    inbox.withLock { inbox in
      inbox.accepting = true
      inbox.wakeEventType = wakeEventType
      inbox.thread = pthread_self()
    }
    startState.withLock { $0 = .running }
    started.signal()
    let host = WindowHost(wakeEventType: wakeEventType)
    var event = SDL_Event()
    while true {
      let jobs = inbox.withLock { inbox -> [Job]? in
        let jobs = inbox.jobs
        inbox.jobs = []
        if inbox.stopRequested && jobs.isEmpty {
          inbox.accepting = false
          return nil
        }
        return jobs
      }
      guard let jobs else { break }
      for job in jobs { job(host) }
      // A shutter fade draws about 60 frames a second; otherwise events and jobs wake it.
      let animating = host.isAnimating
      if SDL_WaitEventTimeout(&event, animating ? 16 : 250) != 0 {
        host.handle(event)
        while SDL_PollEvent(&event) != 0 { host.handle(event) }
      }
      if animating { host.animate() }
    }
    host.closeAll()
    inbox.withLock { $0.thread = nil }
    SDLRuntime.shared.release(.video)
    finished.signal()
  }
}
