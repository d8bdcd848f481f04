import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadNet

/// The outcome of one tracking request, as the application sees it (`adBeacon` events).
public struct AdBeaconResult: Sendable, Equatable {
  /// The tracking event (`impression`, `start`, `firstQuartile`, … `error`).
  public var event: String
  /// The URL sent, macros expanded.
  public var url: URL
  /// The HTTP status, when an answer came.
  public var statusCode: Int?
  /// The transfer's message, when none did.
  public var errorMessage: String?
}

/// Sends tracking URLs through the player's data-source stack without blocking playback:
/// at most `maxInFlight` at once (the rest wait in order), each with the stack's timeout,
/// and every outcome reported.
final class AdBeaconSender: Sendable {
  private let loader: DataLoader
  private let maxInFlight: Int
  private let report: @Sendable (AdBeaconResult) -> Void
  private let state = Locked((inFlight: 0, waiting: [(event: String, url: URL)]()))

  init(loader: DataLoader, maxInFlight: Int, report: @escaping @Sendable (AdBeaconResult) -> Void) {
    self.loader = loader
    self.maxInFlight = max(1, maxInFlight)
    self.report = report
  }

  /// Queues `urls` for `event`; returns at once.
  func send(_ urls: [URL], event: String) {
    guard !urls.isEmpty else { return }
    let start = state.withLock { state -> [(event: String, url: URL)] in
      state.waiting.append(contentsOf: urls.map { (event, $0) })
      var started: [(event: String, url: URL)] = []
      while state.inFlight < maxInFlight, !state.waiting.isEmpty {
        state.inFlight += 1
        started.append(state.waiting.removeFirst())
      }
      return started
    }
    for beacon in start { run(beacon) }
  }

  /// Stops what is in flight and drops what waits (the session ended).
  func cancel() {
    state.withLock { $0.waiting.removeAll() }
    loader.cancelAll()
  }

  private func run(_ beacon: (event: String, url: URL)) {
    // A thread of the player's clock, as for every transfer (time stands still in fast
    // mode while the request is out).
    loader.clock.startThread(named: "playhead.ads.beacon", stackSize: nil) { [self] in
      var result = AdBeaconResult(event: beacon.event, url: beacon.url)
      do {
        let response = try loader.load(
          DataRequest(url: beacon.url, purpose: .other, deliversErrorResponses: true))
        result.statusCode = response.statusCode
      } catch let error as PlayheadError {
        result.errorMessage = error.message
      } catch {
        result.errorMessage = "\(error)"
      }
      report(result)
      let next = state.withLock { state -> (event: String, url: URL)? in
        guard !state.waiting.isEmpty else {
          state.inFlight -= 1
          return nil
        }
        return state.waiting.removeFirst()
      }
      if let next { run(next) }
    }
  }
}
