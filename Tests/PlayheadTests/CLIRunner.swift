import Foundation
import PlayheadCore
import XCTest

/// What one run of the `playhead` binary produced.
struct CLIResult {
  /// The exit status.
  var status: Int32
  /// Everything written to standard output.
  var stdout: String
  /// Everything written to standard error.
  var stderr: String
  /// Whether the watchdog had to kill the process.
  var timedOut: Bool

  /// Standard output split into non-empty lines.
  var stdoutLines: [String] {
    stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  }

  /// Every standard-output line decoded as a JSON object; fails the test for a line that
  /// is not one.
  func jsonLines(file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
    stdoutLines.compactMap { text in
      guard let data = text.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      else {
        XCTFail("not a JSON object line: \(text)", file: file, line: line)
        return nil
      }
      return object
    }
  }
}

/// Why the binary could not be run.
struct CLIRunnerError: Error, CustomStringConvertible {
  var description: String
}

/// Runs the `playhead` binary built next to the test bundle.
enum CLIRunner {
  /// How long one run may take before the watchdog kills it (the test then fails); far
  /// above what any run needs, so it only ends runs that hang.
  static let watchdogSeconds = 180.0

  /// The build products directory: the directory of the running test executable
  /// (`.build/debug` or `<scratch>/debug`), which also holds `playhead`.
  static var productsDirectory: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  }

  /// The `playhead` binary; throws when it has not been built.
  static func binary() throws -> URL {
    var candidates = [productsDirectory.appendingPathComponent("playhead")]
    if let executable = Bundle.main.executableURL {
      candidates.append(executable.deletingLastPathComponent().appendingPathComponent("playhead"))
    }
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
      return candidate
    }
    throw CLIRunnerError(
      description: "the playhead binary is missing; looked at "
        + candidates.map(\.path).joined(separator: ", ") + " (build the package first)")
  }

  /// The environment a run gets: the test's, without a display (so `play` stays headless
  /// on a developer's desktop, as on CI), with `extra` on top.
  static func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = nil
    environment["WAYLAND_DISPLAY"] = nil
    environment.merge(extra) { _, new in new }
    return environment
  }

  /// Runs `playhead arguments…` in `directory` and collects its output; `environment`
  /// adds to the display-less environment of `environment(_:)`.
  static func run(
    _ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:]
  ) throws -> CLIResult {
    let process = Process()
    process.executableURL = try binary()
    process.arguments = arguments
    process.environment = environment(extra)
    if let directory { process.currentDirectoryURL = directory }
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()

    // Read both pipes at once so that a full pipe never blocks the child.
    let errorData = DataBox()
    let errorRead = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      errorData.data = stderr.fileHandleForReading.readDataToEndOfFile()
      errorRead.signal()
    }
    let watchdog = Watchdog()
    DispatchQueue.global().asyncAfter(deadline: .now() + watchdogSeconds) {
      if process.isRunning {
        watchdog.fired = true
        process.terminate()
      }
    }
    let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
    errorRead.wait()
    process.waitUntilExit()
    return CLIResult(
      status: process.terminationStatus,
      stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData.data, as: UTF8.self),
      timedOut: watchdog.fired)
  }
}

/// A `playhead` process started with `CLIRunner.start`, for tests that act while it runs
/// (send it Ctrl-C).
final class CLIProcess: @unchecked Sendable {
  // Unchecked Sendable: `process` is thread-safe for these calls; the boxes are written
  // before their semaphores are signalled.
  let process: Process
  private let output = DataBox()
  private let errors = DataBox()
  /// Standard output read so far, while the process runs.
  private let outputSoFar = Locked(Data())
  private let outputRead = DispatchSemaphore(value: 0)
  private let errorRead = DispatchSemaphore(value: 0)

  init(arguments: [String], environment: [String: String] = [:]) throws {
    process = Process()
    process.executableURL = try CLIRunner.binary()
    process.arguments = arguments
    process.environment = CLIRunner.environment(environment)
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    DispatchQueue.global().async { [output, outputRead, outputSoFar] in
      // Read as it comes, so that a test can wait for a line while the process runs.
      let handle = stdout.fileHandleForReading
      var data = Data()
      while case let chunk = handle.availableData, !chunk.isEmpty {
        data.append(chunk)
        outputSoFar.withLock { $0.append(chunk) }
      }
      output.data = data
      outputRead.signal()
    }
    DispatchQueue.global().async { [errors, errorRead] in
      errors.data = stderr.fileHandleForReading.readDataToEndOfFile()
      errorRead.signal()
    }
  }

  /// Waits until standard output so far contains `text` (true), or the process ended or
  /// `timeoutMs` of real time passed without it (false).
  func waitForOutput(containing text: String, timeoutMs: Int = 30_000) -> Bool {
    let deadline = Date(timeIntervalSinceNow: Double(timeoutMs) / 1000)
    while Date() < deadline {
      if String(decoding: outputSoFar.value, as: UTF8.self).contains(text) { return true }
      if !process.isRunning {
        // The reader may still be draining the pipe: look once more after it finished.
        outputRead.wait()
        outputRead.signal()
        return String(decoding: outputSoFar.value, as: UTF8.self).contains(text)
      }
      usleep(10_000)
    }
    return false
  }

  /// Sends SIGINT, as Ctrl-C in a terminal does.
  func interrupt() {
    kill(process.processIdentifier, SIGINT)
  }

  /// Waits for the process to end (killing it after the runner's watchdog time) and
  /// collects its output.
  func wait() -> CLIResult {
    let watchdog = DispatchSemaphore(value: 0)
    let process = self.process
    DispatchQueue.global().async {
      process.waitUntilExit()
      watchdog.signal()
    }
    let timedOut = watchdog.wait(timeout: .now() + CLIRunner.watchdogSeconds) == .timedOut
    if timedOut { process.terminate() }
    outputRead.wait()
    errorRead.wait()
    process.waitUntilExit()
    return CLIResult(
      status: process.terminationStatus,
      stdout: String(decoding: output.data, as: UTF8.self),
      stderr: String(decoding: errors.data, as: UTF8.self), timedOut: timedOut)
  }

  /// Whether the process ended by calling `exit` (not by a signal).
  var exitedNormally: Bool { process.terminationReason == .exit }
}

extension CLIRunner {
  /// Starts `playhead arguments…` and returns at once.
  static func start(_ arguments: [String], environment: [String: String] = [:]) throws
    -> CLIProcess
  {
    try CLIProcess(arguments: arguments, environment: environment)
  }
}

/// Bytes handed from a reader thread to the test.
final class DataBox: @unchecked Sendable {
  // Unchecked Sendable: written once before a semaphore signal, read after the wait.
  var data = Data()
}

/// Whether the watchdog killed the process.
private final class Watchdog: @unchecked Sendable {
  // Unchecked Sendable: `value` is guarded by `lock`.
  private let lock = NSLock()
  private var value = false

  var fired: Bool {
    get {
      lock.lock()
      defer { lock.unlock() }
      return value
    }
    set {
      lock.lock()
      value = newValue
      lock.unlock()
    }
  }
}

/// The width and height in a PNG's IHDR chunk, or nil when `data` does not start like a PNG.
func pngSize(_ data: Data) -> (width: Int, height: Int)? {
  let bytes = [UInt8](data.prefix(24))
  let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  guard bytes.count == 24, Array(bytes[0..<8]) == signature,
    String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR"
  else { return nil }
  func bigEndian(_ offset: Int) -> Int {
    bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
  }
  return (bigEndian(16), bigEndian(20))
}

extension XCTestCase {
  /// A fresh temporary directory, removed when the test ends.
  func makeTemporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-cli-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    addTeardownBlock {
      try? FileManager.default.removeItem(at: directory)
    }
    return directory
  }

  /// Fails unless `result` ended on its own with `status`, showing its stderr otherwise.
  func assertStatus(
    _ result: CLIResult, _ status: Int32, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertFalse(result.timedOut, "playhead hung and was killed", file: file, line: line)
    XCTAssertEqual(
      result.status, status, "exit status; stderr: \(result.stderr)", file: file, line: line)
  }
}
