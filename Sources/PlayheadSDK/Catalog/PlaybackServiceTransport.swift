import Foundation
import PlayheadCore
import PlayheadNet

/// Runs one blocking `DataLoader` load off the concurrency pool and hands its outcome to an
/// async caller, once: the load's end or the task's cancellation, whichever comes first.
final class PlaybackServiceLoad: Sendable {
  typealias Outcome = Result<DataResponse, PlaybackServiceError>

  private let state = Locked(State())

  private struct State: Sendable {
    var continuation: CheckedContinuation<Outcome, Never>?
    var outcome: Outcome?
    var delivered = false
  }

  /// Loads `request` with `loader` (the request's own); when the calling task is cancelled,
  /// returns a `.cancelled` network error at once and cancels the load.
  static func run(_ request: DataRequest, loader: DataLoader) async -> Outcome {
    let load = PlaybackServiceLoad()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        load.attach(continuation)
        DispatchQueue.global(qos: .userInitiated).async {
          do throws(PlayheadError) {
            load.deliver(.success(try loader.load(request)))
          } catch {
            load.deliver(.failure(.network(error)))
          }
        }
      }
    } onCancel: {
      let error = PlayheadError(
        .cancelled, "request cancelled: \(request.url.absoluteString)", url: request.url)
      load.deliver(.failure(.network(error)))
      loader.cancelAll()
    }
  }

  private func attach(_ continuation: CheckedContinuation<Outcome, Never>) {
    let ready = state.withLock { state -> Outcome? in
      if let outcome = state.outcome, !state.delivered {
        state.delivered = true
        return outcome
      }
      state.continuation = continuation
      return nil
    }
    if let ready { continuation.resume(returning: ready) }
  }

  private func deliver(_ result: Outcome) {
    let waiting = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
      guard state.outcome == nil else { return nil }
      state.outcome = result
      guard let continuation = state.continuation, !state.delivered else { return nil }
      state.delivered = true
      state.continuation = nil
      return continuation
    }
    waiting?.resume(returning: result)
  }
}
