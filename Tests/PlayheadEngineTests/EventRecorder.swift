import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import XCTest

/// Collects a player's events, periodic-observer times and boundary hits on one serial
/// queue, so that their relative order is the order the player produced them.
final class EventRecorder: @unchecked Sendable {
  let queue = DispatchQueue(label: "test.events")
  private let condition = NSCondition()
  private var storage: [PlayerEvent] = []
  private var periodic: [MediaTime] = []
  private var boundaries = 0

  /// Starts recording `player`'s events.
  init(_ player: Player) {
    player.addEventObserver(queue: queue) { [self] event in
      condition.lock()
      storage.append(event)
      condition.broadcast()
      condition.unlock()
    }
  }

  var events: [PlayerEvent] {
    condition.lock()
    defer { condition.unlock() }
    return storage
  }

  var names: [String] { events.map(\.name) }

  var periodicTimes: [MediaTime] {
    condition.lock()
    defer { condition.unlock() }
    return periodic
  }

  var boundaryHits: Int {
    condition.lock()
    defer { condition.unlock() }
    return boundaries
  }

  func recordPeriodic(_ time: MediaTime) {
    condition.lock()
    periodic.append(time)
    condition.broadcast()
    condition.unlock()
  }

  func recordBoundary() {
    condition.lock()
    boundaries += 1
    condition.broadcast()
    condition.unlock()
  }

  /// Waits (up to a generous real-time limit that only guards against hangs) until
  /// `predicate` holds for the recorded events; fails the test otherwise.
  @discardableResult
  func waitFor(
    _ description: String, timeoutSeconds: Double = 60, file: StaticString = #filePath,
    line: UInt = #line,
    _ predicate: ([PlayerEvent]) -> Bool
  ) -> Bool {
    let limit = Date(timeIntervalSinceNow: timeoutSeconds)
    condition.lock()
    defer { condition.unlock() }
    while !predicate(storage) {
      if !condition.wait(until: limit) {
        XCTFail(
          "timed out waiting for \(description); events: \(storage.map(\.name))", file: file,
          line: line)
        return false
      }
    }
    return true
  }

  /// Waits for an event with `name`.
  @discardableResult
  func waitFor(
    event name: String, count: Int = 1, file: StaticString = #filePath, line: UInt = #line
  ) -> PlayerEvent? {
    guard
      waitFor(
        "\(count)× \(name)", file: file, line: line,
        { $0.filter { $0.name == name }.count >= count })
    else { return nil }
    return events.filter { $0.name == name }[count - 1]
  }

  /// Waits for the periodic observer to have reported at least `count` times.
  func waitForPeriodic(count: Int, file: StaticString = #filePath, line: UInt = #line) {
    let limit = Date(timeIntervalSinceNow: 60)
    condition.lock()
    defer { condition.unlock() }
    while periodic.count < count {
      if !condition.wait(until: limit) {
        XCTFail("timed out waiting for \(count) periodic reports", file: file, line: line)
        return
      }
    }
  }

  /// Waits for the item to play to its end or fail.
  @discardableResult
  func waitForEnd(file: StaticString = #filePath, line: UInt = #line) -> PlayerEvent? {
    guard
      waitFor(
        "end of item", file: file, line: line,
        {
          $0.contains {
            ["didPlayToEnd", "failedToPlayToEnd", "failed", "previewEnded"].contains($0.name)
          }
        })
    else { return nil }
    return events.first {
      ["didPlayToEnd", "failedToPlayToEnd", "failed", "previewEnded"].contains($0.name)
    }
  }
}

/// A video sink that records the item time of every presented frame.
final class RecordingVideoSink: VideoSink, @unchecked Sendable {
  private let lock = NSLock()
  private var times: [MediaTime] = []

  var presentedTimes: [MediaTime] {
    lock.lock()
    defer { lock.unlock() }
    return times
  }

  func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    lock.lock()
    times.append(itemTime)
    lock.unlock()
  }
}

extension MediaTime {
  static func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1_000_000)
  }
}
