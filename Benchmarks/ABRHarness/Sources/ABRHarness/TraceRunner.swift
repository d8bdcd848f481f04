import Foundation

/// Runs one session body per trace on several threads; results come back in trace order.
enum TraceRunner {
  /// One worker per active processor.
  static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  static func run(
    traces: [Trace], jobs: Int, _ body: @escaping @Sendable (Trace) throws -> [SessionResult]
  ) throws -> [[SessionResult]] {
    let box = ResultBox(count: traces.count)
    DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, traces.count))) { _ in
      while let index = box.take() {
        do {
          box.set(index, try body(traces[index]))
        } catch {
          box.fail("\(traces[index].name): \(error)")
        }
      }
    }
    if let failure = box.failure { throw HarnessError(failure) }
    return box.results
  }
}

/// The work queue and results of one run, behind a lock.
private final class ResultBox: @unchecked Sendable {
  private let lock = NSLock()
  private var next = 0
  private let count: Int
  private var slots: [[SessionResult]]
  private var firstFailure: String?

  init(count: Int) {
    self.count = count
    slots = Array(repeating: [], count: count)
  }

  /// The next trace index to run; nil when all are taken or a run failed.
  func take() -> Int? {
    lock.withLock {
      guard next < count, firstFailure == nil else { return nil }
      next += 1
      return next - 1
    }
  }

  func set(_ index: Int, _ row: [SessionResult]) { lock.withLock { slots[index] = row } }

  func fail(_ message: String) { lock.withLock { firstFailure = firstFailure ?? message } }

  var failure: String? { lock.withLock { firstFailure } }
  var results: [[SessionResult]] { lock.withLock { slots } }
}
