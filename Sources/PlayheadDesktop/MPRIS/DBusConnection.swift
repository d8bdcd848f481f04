import CDBus
import Foundation
import PlayheadCore

/// One private libdbus connection to a bus, owned here and closed in `close()`: a thread
/// of its own waits on the connection's socket (and a wake pipe) and hands each incoming
/// method call to `onMessage`; any thread may send.
///
/// libdbus is thread-safe once `dbus_threads_init_default` has run, which `open` does.
final class DBusConnection: @unchecked Sendable {
  // Unchecked Sendable: `connection` is a libdbus connection, safe to use from several
  // threads after dbus_threads_init_default(); `closed` is guarded by `state`.
  private let connection: OpaquePointer
  private let wake: (read: Int32, write: Int32)
  private let state = Locked(false)
  /// The bus's unique name for this connection (":1.42").
  let uniqueName: String

  /// Opens a private connection to the bus at `address` (the session bus from the
  /// environment when nil) and registers on it. Throws `.connectionFailed` with the bus's
  /// message.
  init(address: String?) throws(PlayheadError) {
    dbus_threads_init_default()
    var error = CDBus_MakeError()
    let opened: OpaquePointer?
    if let address {
      opened = dbus_connection_open_private(address, &error)
      if let opened, dbus_bus_register(opened, &error) == 0 {
        dbus_connection_close(opened)
        dbus_connection_unref(opened)
        throw Self.failure("could not register on the bus at \(address)", &error)
      }
    } else {
      opened = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
    }
    guard let opened else {
      throw Self.failure("could not connect to the session bus", &error)
    }
    dbus_connection_set_exit_on_disconnect(opened, 0)
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else {
      dbus_connection_close(opened)
      dbus_connection_unref(opened)
      throw PlayheadError(.ioError, "D-Bus: could not make a wake pipe")
    }
    connection = opened
    wake = (fds[0], fds[1])
    uniqueName = dbus_bus_get_unique_name(opened).map { String(cString: $0) } ?? ""
  }

  /// Asks the bus for `name` without queueing; true when this connection now owns it.
  func requestName(_ name: String) throws(PlayheadError) -> Bool {
    var error = CDBus_MakeError()
    let reply = dbus_bus_request_name(
      connection, name, CDBus_NAME_FLAG_DO_NOT_QUEUE(), &error)
    if dbus_error_is_set(&error) != 0 {
      throw Self.failure("could not request the name \(name)", &error)
    }
    return reply == CDBus_REQUEST_NAME_REPLY_PRIMARY_OWNER()
  }

  /// Starts the thread that hands each incoming method call to `onMessage` (its reply is
  /// the handler's business), until `close()`.
  func start(_ onMessage: @escaping @Sendable (DBusMessage) -> Void) {
    let thread = Thread { [self] in run(onMessage) }
    thread.name = "playhead.dbus"
    thread.start()
  }

  private func run(_ onMessage: @Sendable (DBusMessage) -> Void) {
    var socket: Int32 = -1
    _ = dbus_connection_get_socket(connection, &socket)
    while !state.value {
      var fds = [
        pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
      ]
      // Messages already read sit in libdbus's queue: hand them over before waiting.
      while let raw = dbus_connection_pop_message(connection) {
        onMessage(DBusMessage(adopting: raw))
      }
      dbus_connection_flush(connection)
      if state.value { break }
      let ready = poll(&fds, 2, -1)
      if ready < 0 && errno != EINTR { break }
      if fds[1].revents != 0 { break }
      if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { break }
      guard dbus_connection_read_write(connection, 0) != 0 else { break }
    }
  }

  /// Sends `message` and flushes it.
  func send(_ message: DBusMessage) {
    guard !state.value else { return }
    dbus_connection_send(connection, message.raw, nil)
    dbus_connection_flush(connection)
  }

  /// Stops the thread and closes the connection (its names are released with it).
  func close() {
    let wasClosed = state.withLock { closed in
      defer { closed = true }
      return closed
    }
    guard !wasClosed else { return }
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
  }

  deinit {
    dbus_connection_close(connection)
    dbus_connection_unref(connection)
    Foundation.close(wake.read)
    Foundation.close(wake.write)
  }

  private static func failure(_ what: String, _ error: inout DBusError) -> PlayheadError {
    let detail = error.message.map { String(cString: $0) } ?? "no detail"
    dbus_error_free(&error)
    return PlayheadError(.connectionFailed, "D-Bus: \(what): \(detail)")
  }
}
