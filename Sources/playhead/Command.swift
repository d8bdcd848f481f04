import Foundation
import Playhead

/// A verb of the tool: parsed from its arguments, then run.
protocol Command {
  /// The help text `--help` prints.
  static var usage: String { get }
  /// Parses the verb's arguments (those after the verb itself).
  init(parsing arguments: [String]) throws(UsageError)
  /// Runs the verb; a thrown error is printed as `playhead: <message>` and sets the exit
  /// status from its category.
  func run(console: Console) throws(PlayheadError) -> ExitCode
}

extension Command {
  /// Shows help, or parses and runs the verb, printing any error as one line.
  static func main(_ arguments: [String], console: Console) -> ExitCode {
    if ArgumentCursor.wantsHelp(arguments) {
      console.line(usage)
      return .success
    }
    let command: Self
    do {
      command = try Self(parsing: arguments)
    } catch {
      console.error(error.message)
      return .usage
    }
    do {
      return try command.run(console: console)
    } catch {
      console.error(error.message)
      return ExitCode(error)
    }
  }
}

/// Runs `operation` on the concurrency pool and blocks the calling thread until it ends.
///
/// For the synchronous command-line flow; never call it from the concurrency pool itself.
func waitFor<T: Sendable>(
  _ operation: @escaping @Sendable () async throws(PlayheadError) -> T
) throws(PlayheadError) -> T {
  let box = ResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    do throws(PlayheadError) {
      box.result = .success(try await operation())
    } catch {
      box.result = .failure(error)
    }
    done.signal()
  }
  done.wait()
  guard let result = box.result else {
    throw PlayheadError(.invalidState, "an operation ended without a result")
  }
  return try result.get()
}

/// A result handed from one thread to another.
private final class ResultBox<T: Sendable>: Sendable {
  private let stored = Locked<Result<T, PlayheadError>?>(nil)

  var result: Result<T, PlayheadError>? {
    get { stored.value }
    set { stored.withLock { $0 = newValue } }
  }
}
