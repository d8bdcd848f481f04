import Foundation
import PlayheadCore

extension PlaybackLoop {
  /// Forgets where periodic observers were, so they restart from the new position.
  func resetPeriodicObservers() {
    for key in periodicObservers.keys { periodicObservers[key]?.nextFire = nil }
  }

  /// Reports to each periodic observer whose next multiple of its interval has passed,
  /// once per call even when several multiples passed (after a jump).
  func firePeriodicObservers(_ active: ActiveItem, at position: MediaTime) {
    var published = false
    for (key, observer) in periodicObservers {
      let next = observer.nextFire ?? position.ceilingMultiple(of: observer.interval)
      guard position >= next else {
        periodicObservers[key]?.nextFire = next
        continue
      }
      if !published {
        // What the observer may read is in the getters before it runs.
        publishState()
        published = true
      }
      let handler = observer.handler
      observer.queue.async { handler(position) }
      periodicObservers[key]?.nextFire =
        position.floorMultiple(of: observer.interval) + observer.interval
    }
  }

  /// The item times at which periodic observers are next due.
  func periodicDeadlines() -> [MediaTime] {
    periodicObservers.values.compactMap(\.nextFire)
  }

  /// Reports every boundary time crossed since the last call during normal playback.
  func fireBoundaryObservers(_ active: ActiveItem, upTo position: MediaTime) {
    guard position > boundaryCursor else { return }
    var published = false
    for observer in boundaryObservers.values {
      for time in observer.times where time > boundaryCursor && time <= position {
        if !published {
          publishState()
          published = true
        }
        let handler = observer.handler
        observer.queue.async { handler() }
      }
    }
    boundaryCursor = position
  }

  /// The boundary times still ahead of `position`.
  func boundaryDeadlines(after position: MediaTime) -> [MediaTime] {
    boundaryObservers.values.flatMap { $0.times.filter { $0 > position } }
  }
}

extension MediaTime {
  /// The smallest multiple of `interval` that is ≥ self (interval > 0).
  func ceilingMultiple(of interval: MediaTime) -> MediaTime {
    let floor = floorMultiple(of: interval)
    return floor == self ? floor : floor + interval
  }

  /// The largest multiple of `interval` that is ≤ self (interval > 0).
  func floorMultiple(of interval: MediaTime) -> MediaTime {
    guard isNumeric, interval.isNumeric, interval > .zero else { return self }
    let numerator = Int128(value) * Int128(interval.timescale)
    let denominator = Int128(interval.value) * Int128(timescale)
    var quotient = numerator / denominator
    if numerator % denominator != 0 && numerator < 0 { quotient -= 1 }
    return interval.multiplied(by: Int64(clamping: quotient))
  }
}
