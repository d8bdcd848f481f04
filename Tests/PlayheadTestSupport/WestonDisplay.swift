import Foundation

/// A private Wayland compositor for a test: Weston with its X11 backend, its output a
/// window on the test's `XvfbDisplay`, listening on a socket in a private runtime directory.
///
/// The X11 backend gives the compositor a seat whose keyboard and pointer are the X
/// server's, so `XDoTool` input reaches the focused Wayland client; `xWindow` has the X
/// focus from the start (do not move it). (Weston's
/// headless backend has no seat, and SDL 2.26's Wayland driver crashes without one; sway
/// and cage refuse to run as root.) The kiosk shell gives every window the whole 1280x720
/// output and the focus. `WAYLAND_DISPLAY` and `XDG_RUNTIME_DIR` are the process's until
/// `stop()`.
public final class WestonDisplay {
  /// The socket's name, the value of `WAYLAND_DISPLAY`.
  public let socketName: String
  /// The X window showing the compositor's output.
  public let xWindow: String
  private let process: Process
  private let runtimeDirectory: URL
  private let previous: [String: String?]

  /// Starts Weston on `display` and waits (at most `timeoutMs` of real time) until its
  /// socket exists and its output window is mapped.
  public init(on display: XvfbDisplay, timeoutMs: Int = 20_000) throws {
    let runtime = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-weston-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
      at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let socket = "wayland-playhead"
    let process = Process()
    process.executableURL = try XvfbDisplay.executable(named: "weston")
    process.arguments = [
      "--backend=x11-backend.so", "--use-pixman", "--socket=\(socket)", "--width=1280",
      "--height=720", "--shell=kiosk-shell.so", "--idle-time=0",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = display.name
    environment["XDG_RUNTIME_DIR"] = runtime.path
    environment.removeValue(forKey: "WAYLAND_DISPLAY")
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    self.process = process
    runtimeDirectory = runtime
    socketName = socket
    previous = [
      "WAYLAND_DISPLAY": ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"],
      "XDG_RUNTIME_DIR": ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"],
    ]
    // Weston says nothing on a pipe when it is ready: its socket appearing is the sign
    // (checked every 10 ms; the bound only decides failure).
    let socketPath = runtime.appendingPathComponent(socket).path
    let deadline = Date(timeIntervalSinceNow: Double(timeoutMs) / 1000)
    while !FileManager.default.fileExists(atPath: socketPath) {
      guard process.isRunning, Date() < deadline else {
        if process.isRunning { process.terminate() }
        throw XvfbError("weston did not open its socket \(socketPath)")
      }
      usleep(10_000)
    }
    do {
      // Weston names its window only in _NET_WM_NAME, which xdotool's --name does not
      // read; its class is "Weston Compositor".
      let found = try XDoTool.run(["search", "--sync", "--onlyvisible", "--class", "^Weston"])
      guard let first = found.split(separator: "\n").first else {
        throw XvfbError("weston's output window did not appear")
      }
      xWindow = String(first)
      // Give the compositor's window the X focus and the pointer now, before any client:
      // moving the X focus later makes Weston take the keyboard from its client, and at
      // times not give it back.
      try XDoTool.focus(xWindow)
      try XDoTool.run(["mousemove", "--window", xWindow, "--sync", "17", "13"])
    } catch {
      process.terminate()
      throw error
    }
    setenv("WAYLAND_DISPLAY", socket, 1)
    setenv("XDG_RUNTIME_DIR", runtime.path, 1)
  }

  /// Ends the compositor, restores the environment and removes the runtime directory.
  /// Calling it again does nothing.
  public func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
    for (name, value) in previous {
      if let value { setenv(name, value, 1) } else { unsetenv(name) }
    }
    try? FileManager.default.removeItem(at: runtimeDirectory)
  }

  deinit {
    stop()
  }
}
