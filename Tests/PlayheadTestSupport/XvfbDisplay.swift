import Foundation

/// A private X server for a test: `Xvfb` on a free display number (it picks one and
/// reports it through `-displayfd`, so no guessing and no sleep), made the process's
/// `DISPLAY` until `stop()`.
///
/// SDL reads `DISPLAY` when its video starts, so make the display before the first window
/// and close every window before `stop()`: a client whose X server goes away is ended by
/// Xlib.
public final class XvfbDisplay {
  /// The display name, such as `:3`.
  public let name: String
  private let process: Process
  private let previousDisplay: String?

  /// Starts Xvfb with one 1280x720 24-bit screen and no TCP listener, and waits until it
  /// reports its display number.
  public init(timeoutMs: Int = 20_000) throws {
    let process = Process()
    process.executableURL = try Self.executable(named: "Xvfb")
    // Xvfb writes the display number to fd 1 when it is ready for clients. Without
    // -noreset it starts over each time its last client leaves, and a window opened in
    // that moment fails ("x11 not available"): tests close a window and open the next.
    process.arguments = [
      "-displayfd", "1", "-screen", "0", "1280x720x24", "-nolisten", "tcp", "-noreset",
    ]
    let number = try Self.startReadingFirstLine(of: process, timeoutMs: timeoutMs)
    guard !number.isEmpty, Int(number) != nil, process.isRunning else {
      if process.isRunning { process.terminate() }
      throw XvfbError("Xvfb did not report a display number (got '\(number)')")
    }
    self.process = process
    name = ":\(number)"
    previousDisplay = ProcessInfo.processInfo.environment["DISPLAY"]
    setenv("DISPLAY", name, 1)
  }

  /// Ends the X server and restores `DISPLAY`. Calling it again does nothing.
  public func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
    if let previousDisplay {
      setenv("DISPLAY", previousDisplay, 1)
    } else {
      unsetenv("DISPLAY")
    }
  }

  deinit {
    stop()
  }

  /// The absolute path of `name` on `PATH`.
  /// Starts `process` and returns the first line it writes to standard output, trimmed
  /// (empty when it ends or `timeoutMs` pass first): how a server says it is ready.
  public static func startReadingFirstLine(of process: Process, timeoutMs: Int) throws
    -> String
  {
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let watchdog = DispatchWorkItem { [process] in process.terminate() }
    DispatchQueue.global().asyncAfter(
      deadline: .now() + .milliseconds(timeoutMs), execute: watchdog)
    var reported = Data()
    while !reported.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      reported.append(chunk)
    }
    watchdog.cancel()
    return String(decoding: reported, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  public static func executable(named name: String) throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw XvfbError("\(name) is not on PATH; run scripts/install-deps.sh")
  }
}

/// Why the X server or a tool driving it failed.
public struct XvfbError: Error, CustomStringConvertible {
  public let description: String

  public init(_ description: String) {
    self.description = description
  }
}
