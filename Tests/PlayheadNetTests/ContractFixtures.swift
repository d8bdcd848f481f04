import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Fixtures for `DataSourceContract`: the contract's resources served by the test server, by
/// files, by memory and by a simulated network, with a resource that stalls where a source
/// can block.
extension XCTestCase {
  /// The path the contract server never answers.
  static let stalledPath = "/stalled.bin"

  /// A server of `DataSourceContract.resources` on which `stalledPath` hangs.
  func contractServer() throws -> HTTPTestServer {
    try startServer(DataSourceContract.resources, faults: [Self.stalledPath: .hang])
  }

  /// A fixture whose sources (made by `make`) read `server`: `stalled` is the hanging path,
  /// blocked once the server has logged a request for it.
  func httpFixture(
    _ server: HTTPTestServer, failsForMissing: Bool = true,
    _ make: @escaping @Sendable () -> any DataSource
  ) -> DataSourceContract.Fixture {
    let path = Self.stalledPath
    return .init(
      makeSource: make, url: { server.url($0) },
      stalled: .init(
        url: server.url(path),
        untilBlocked: {
          // Waits on the server's log, never on a timer.
          while true {
            let seen = server.requests.count
            if server.requestCount(for: path) > 0 { return }
            _ = server.waitForRequests(count: seen + 1)
          }
        }),
      failsForMissing: failsForMissing)
  }

  /// A directory holding the contract's resources as files; their URLs by path.
  func contractFiles() throws -> @Sendable (String) -> URL {
    let directory = try makeTemporaryDirectory(for: self)
    for (path, data) in DataSourceContract.resources {
      try data.write(to: directory.appendingPathComponent(String(path.dropFirst())))
    }
    return { directory.appendingPathComponent(String($0.dropFirst())) }
  }
}

/// Advances a hand-driven `ManualClock` to each deadline a thread blocks on, up to
/// `horizon` ahead, so that transfers on it run while a test waits for their results;
/// longer waits (a request scripted to stall) stay blocked until `resume()`.
///
/// It acts on the clock's own account of blocked waits, never on a timer.
final class ClockDriver: Sendable {
  let clock: ManualClock
  let horizon: MediaTime
  /// `generation` counts the `resume()` calls, so that one that comes before the driver
  /// parks is not lost.
  private let state = Locked((stopped: false, generation: 0))
  private let wake = NSCondition()

  init(_ clock: ManualClock, horizon: MediaTime = ms(60_000)) {
    self.clock = clock
    self.horizon = horizon
    Thread.detachNewThread { [self] in run() }
  }

  /// Lets the driver go on after it left a long wait alone.
  func resume() {
    wake.lock()
    state.withLock { $0.generation += 1 }
    wake.broadcast()
    wake.unlock()
  }

  /// Ends the driver.
  func stop() {
    wake.lock()
    state.withLock { $0.stopped = true }
    wake.broadcast()
    wake.unlock()
  }

  private func run() {
    while !state.value.stopped {
      let seen = state.value.generation
      // A bounded wait, so that a stopped driver ends.
      guard clock.waitForBlockedWaits(count: 1, hostTimeoutMs: 500),
        let next = clock.nextBlockedDeadline
      else { continue }
      if next - clock.now <= horizon {
        clock.advance(to: next)
        continue
      }
      wake.lock()
      while state.value.generation == seen && !state.value.stopped { wake.wait() }
      wake.unlock()
    }
  }
}
