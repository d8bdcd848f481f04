import Foundation

/// A private D-Bus session bus for a test: `dbus-daemon --session` started by the test,
/// its address read from what it prints when ready (no guessing, no sleep), stopped by
/// `stop()`.
public final class PrivateSessionBus {
  /// The bus address (`unix:path=…`), for `DBUS_SESSION_BUS_ADDRESS` or `--bus=`.
  public let address: String
  private let process: Process

  /// Starts the daemon and waits until it prints its address.
  public init(timeoutMs: Int = 20_000) throws {
    let process = Process()
    process.executableURL = try XvfbDisplay.executable(named: "dbus-daemon")
    process.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
    let address = try XvfbDisplay.startReadingFirstLine(
      of: process, timeoutMs: timeoutMs)
    guard address.hasPrefix("unix:"), process.isRunning else {
      if process.isRunning { process.terminate() }
      throw XvfbError("dbus-daemon did not report an address (got '\(address)')")
    }
    self.process = process
    self.address = address
  }

  /// Runs `dbus-send` on this bus with `arguments`; returns its output, throws when it
  /// fails (the error names the reply).
  @discardableResult
  public func send(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = try XvfbDisplay.executable(named: "dbus-send")
    process.arguments = ["--bus=\(address)", "--print-reply", "--reply-timeout=10000"] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw XvfbError("dbus-send \(arguments.joined(separator: " ")) failed: \(failure)")
    }
    return text
  }

  /// Ends the daemon. Calling it again does nothing.
  public func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }

  deinit { stop() }
}
