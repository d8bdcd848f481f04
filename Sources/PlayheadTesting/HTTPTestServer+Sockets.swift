import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over POSIX threads and sockets for `HTTPTestServer`.
enum TestSockets {
  /// Holds a thread's body while `pthread_create` hands it to the new thread.
  private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// Starts a joinable thread running `body`; nil when the system refuses.
  static func spawnThread(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { raw in
        guard let raw else { return nil }
        Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().run()
        return nil
      }, context)
    if result != 0 {
      Unmanaged<ThreadBody>.fromOpaque(context).release()
      return nil
    }
    return thread
  }

  static func join(_ thread: pthread_t) {
    pthread_join(thread, nil)
  }

  /// A TCP socket bound to 127.0.0.1 on an ephemeral port; returns the descriptor and
  /// port, or the failing call's errno description.
  static func bindLoopback() -> Result<(fd: Int32, port: Int), StartFailure> {
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #else
      let type = SOCK_STREAM
    #endif
    let fd = socket(AF_INET, type, 0)
    guard fd >= 0 else { return .failure(StartFailure(call: "socket", code: errno)) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(0).bigEndian
    address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      let failure = StartFailure(call: "bind", code: errno)
      close(fd)
      return .failure(failure)
    }
    var actual = sockaddr_in()
    var size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &actual) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(fd, $0, &size)
      }
    }
    guard named == 0 else {
      let failure = StartFailure(call: "getsockname", code: errno)
      close(fd)
      return .failure(failure)
    }
    return .success((fd, Int(UInt16(bigEndian: actual.sin_port))))
  }

  /// Sends all of `bytes`; false when the peer is gone or the socket was shut down.
  static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard var pointer = bytes.baseAddress else { return true }
    var remaining = bytes.count
    while remaining > 0 {
      #if canImport(Glibc)
        let sent = send(fd, pointer, remaining, Int32(MSG_NOSIGNAL))
      #else
        let sent = send(fd, pointer, remaining, 0)
      #endif
      if sent < 0 {
        if errno == EINTR { continue }
        return false
      }
      remaining -= sent
      pointer += sent
    }
    return true
  }

  /// Makes the next `close(fd)` reset the connection (RST) instead of closing it (FIN).
  static func setAbortiveClose(_ fd: Int32) {
    var option = linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
  }

  static func sendAll(_ fd: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { sendAll(fd, $0) }
  }

  /// Receives up to `capacity` bytes and appends them; false at end of stream or error.
  static func receive(_ fd: Int32, into buffer: inout [UInt8], capacity: Int = 16 * 1024) -> Bool {
    var chunk = [UInt8](repeating: 0, count: capacity)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, capacity, 0) }
      if count > 0 {
        buffer.append(contentsOf: chunk[0..<count])
        return true
      }
      if count < 0 && errno == EINTR { continue }
      return false
    }
  }

  /// Why the server could not start.
  struct StartFailure: Error {
    var call: String
    var code: Int32
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
  }
}
