import Foundation
import PlayheadCore
import PlayheadNet

/// Runs one blocking `DataSource` load off the concurrency pool and hands its outcome to an
/// async caller, once: the load's end or the task's cancellation, whichever comes first.
///
/// Unchecked Sendable: `continuation` and `outcome` are guarded by `lock`.
final class PlaybackServiceLoad: @unchecked Sendable {
  typealias Outcome = Result<DataResponse, PlaybackServiceError>

  private let lock = NSLock()
  private var continuation: CheckedContinuation<Outcome, Never>?
  private var outcome: Outcome?
  private var delivered = false

  /// Loads `request` from `source`; when the calling task is cancelled, returns a
  /// `.cancelled` network error at once and, if `ownsSource`, cancels the source's load.
  static func run(
    _ request: DataRequest, source: any DataSource, ownsSource: Bool
  ) async -> Outcome {
    let load = PlaybackServiceLoad()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        load.attach(continuation)
        DispatchQueue.global(qos: .userInitiated).async {
          do throws(PlayheadError) {
            load.deliver(.success(try source.load(request)))
          } catch {
            load.deliver(.failure(.network(error)))
          }
        }
      }
    } onCancel: {
      let error = PlayheadError(
        .cancelled, "request cancelled: \(request.url.absoluteString)", url: request.url)
      load.deliver(.failure(.network(error)))
      if ownsSource { source.cancelAll() }
    }
  }

  private func attach(_ continuation: CheckedContinuation<Outcome, Never>) {
    lock.lock()
    if let outcome, !delivered {
      delivered = true
      lock.unlock()
      continuation.resume(returning: outcome)
      return
    }
    self.continuation = continuation
    lock.unlock()
  }

  private func deliver(_ result: Outcome) {
    lock.lock()
    guard outcome == nil else {
      lock.unlock()
      return
    }
    outcome = result
    guard let continuation, !delivered else {
      lock.unlock()
      return
    }
    delivered = true
    self.continuation = nil
    lock.unlock()
    continuation.resume(returning: result)
  }
}
