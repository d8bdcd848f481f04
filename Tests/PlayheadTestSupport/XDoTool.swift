import Foundation

/// Drives the test's X display the way a user would, through `xdotool` (XTEST input
/// events, real X requests); every call is bounded by a real-time limit.
public enum XDoTool {
  /// Runs `xdotool arguments` on `DISPLAY` and returns its standard output, trimmed.
  ///
  /// Throws when it exits with a failure or takes longer than `timeoutMs`.
  @discardableResult
  public static func run(_ arguments: [String], timeoutMs: Int = 10_000) throws -> String {
    let process = Process()
    process.executableURL = try XvfbDisplay.executable(named: "xdotool")
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let watchdog = DispatchWorkItem { [process] in process.terminate() }
    DispatchQueue.global().asyncAfter(
      deadline: .now() + .milliseconds(timeoutMs), execute: watchdog)
    let text = output.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw XvfbError(
        "xdotool \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): "
          + String(decoding: message, as: UTF8.self))
    }
    return String(decoding: text, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  /// The X window whose title is exactly `title`, waiting until it is mapped.
  public static func window(titled title: String) throws -> String {
    let found = try run(["search", "--sync", "--onlyvisible", "--name", "^\(title)$"])
    guard let first = found.split(separator: "\n").first else {
      throw XvfbError("no window titled \(title)")
    }
    return String(first)
  }

  /// Gives `window` the keyboard focus and waits until it has it. There is no window
  /// manager on the test display, so `windowactivate` (which asks one) cannot work;
  /// `windowfocus` sets the focus itself.
  public static func focus(_ window: String) throws {
    try run(["windowfocus", "--sync", window])
  }
}
