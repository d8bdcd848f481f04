import Foundation
import PlayheadTestSupport

/// Asks an X window to close the way a window manager does: a `WM_PROTOCOLS` client
/// message carrying `WM_DELETE_WINDOW` (the close button). `xdotool windowclose` destroys
/// the window instead, which is not a request.
///
/// Xlib is loaded at run time (`libX11.so.6`, which SDL itself uses), so the tests need no
/// X headers; the event is laid out as `XClientMessageEvent` is on 64-bit Linux.
enum X11DeleteRequest {
  private typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
  private typealias InternAtom =
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32)
    -> UInt
  private typealias SendEvent =
    @convention(c) (
      OpaquePointer?, UInt, Int32, Int, UnsafeMutableRawPointer?
    ) -> Int32
  private typealias DisplayCall = @convention(c) (OpaquePointer?) -> Int32

  /// Sends the request to X window `window` (decimal, as xdotool prints it) on `display`.
  static func send(to window: String, display: String) throws {
    guard let windowID = UInt(window) else { throw XvfbError("bad window id \(window)") }
    guard let library = dlopen("libX11.so.6", RTLD_NOW) else {
      throw XvfbError("cannot load libX11.so.6")
    }
    defer { dlclose(library) }
    func symbol<T>(_ name: String, as type: T.Type) throws -> T {
      guard let pointer = dlsym(library, name) else { throw XvfbError("libX11 lacks \(name)") }
      return unsafeBitCast(pointer, to: type)
    }
    let openDisplay = try symbol("XOpenDisplay", as: OpenDisplay.self)
    let internAtom = try symbol("XInternAtom", as: InternAtom.self)
    let sendEvent = try symbol("XSendEvent", as: SendEvent.self)
    let flush = try symbol("XFlush", as: DisplayCall.self)
    let closeDisplay = try symbol("XCloseDisplay", as: DisplayCall.self)
    guard let connection = openDisplay(display) else {
      throw XvfbError("cannot open display \(display)")
    }
    defer { _ = closeDisplay(connection) }
    let protocols = internAtom(connection, "WM_PROTOCOLS", 0)
    let deleteWindow = internAtom(connection, "WM_DELETE_WINDOW", 0)
    // XEvent is a 192-byte union; XClientMessageEvent: type (int) at 0, serial at 8,
    // send_event at 16, display at 24, window at 32, message_type at 40, format (int) at
    // 48, data.l[5] from 56.
    var event = [UInt8](repeating: 0, count: 192)
    let sent = event.withUnsafeMutableBytes { raw -> Int32 in
      let clientMessage: Int32 = 33
      raw.storeBytes(of: clientMessage, toByteOffset: 0, as: Int32.self)
      raw.storeBytes(of: Int32(1), toByteOffset: 16, as: Int32.self)
      raw.storeBytes(
        of: UInt(bitPattern: Int(bitPattern: connection)), toByteOffset: 24, as: UInt.self)
      raw.storeBytes(of: windowID, toByteOffset: 32, as: UInt.self)
      raw.storeBytes(of: protocols, toByteOffset: 40, as: UInt.self)
      raw.storeBytes(of: Int32(32), toByteOffset: 48, as: Int32.self)
      raw.storeBytes(of: deleteWindow, toByteOffset: 56, as: UInt.self)
      raw.storeBytes(of: UInt(0), toByteOffset: 64, as: UInt.self)
      return sendEvent(connection, windowID, 0, 0, raw.baseAddress)
    }
    _ = flush(connection)
    guard sent != 0 else { throw XvfbError("XSendEvent failed") }
  }
}
