import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The stop switch of one running download: `cancel()` makes the current read throw
/// `.cancelled` at once, and the worker sees `isCancelled` between files.
final class DownloadControl: @unchecked Sendable {
  // Unchecked Sendable: every mutable property is guarded by `condition`.
  private let condition = NSCondition()
  private var cancelled = false
  private var finished = false
  private var source: (any DataSource)?
  private var refresher: SourceRefresher?

  var isCancelled: Bool {
    condition.lock()
    defer { condition.unlock() }
    return cancelled
  }

  /// Makes `source` the one `cancel()` stops; a cancelled control cancels it at once.
  func register(_ source: (any DataSource)?) {
    condition.lock()
    self.source = source
    let stop = cancelled
    condition.unlock()
    if stop { source?.cancel() }
  }

  /// Makes `refresher` the one `cancel()` stops (a refresh waiting for the handler ends).
  func register(refresher: SourceRefresher?) {
    condition.lock()
    self.refresher = refresher
    let stop = cancelled
    condition.unlock()
    if stop { refresher?.cancelAll() }
  }

  func cancel() {
    condition.lock()
    cancelled = true
    let current = source
    let refresher = self.refresher
    condition.unlock()
    current?.cancel()
    refresher?.cancelAll()
  }

  /// Waits `seconds` of real time (a retry delay) or until cancelled; true when cancelled.
  func waitCancelled(seconds: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    condition.lock()
    defer { condition.unlock() }
    while !cancelled {
      if !condition.wait(until: deadline) { break }
    }
    return cancelled
  }

  /// Called by the worker thread as its last step.
  func markFinished() {
    condition.lock()
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  /// Blocks until the worker thread has finished.
  func waitUntilFinished() {
    condition.lock()
    while !finished { condition.wait() }
    condition.unlock()
  }

  /// Wakes `waitCancelled` and `waitUntilFinished` after `cancel()`.
  func wake() {
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }
}

/// Fetches one unit into its file, resuming after the bytes already on disk.
///
/// The file is written in place: a partial file is continued with a range request from
/// its length (a server that ignores ranges is read from byte 0 and the bytes already on
/// disk are skipped by the HTTP source), and flushed with fsync once complete. The unit's
/// exact length is handed to `learned` as soon as a response tells it, before any new byte
/// is written.
///
/// Every unit is read through `stack` (the download's: its network, expired-URL refresh
/// known by the unit's original URL, no retries of its own: the download's loop retries),
/// so an expired URL is refreshed and the read continues at the same offset on the fresh
/// one, which the rest of the file (and a later resume) uses.
struct DownloadFetcher {
  let stack: DataSourceStack

  /// Read size per call.
  static let pieceBytes = 256 * 1024

  /// Fetches `unit` into `folder`; `progress` gets each piece's byte count.
  func fetch(
    _ unit: DownloadUnit, folder: URL, cipher: AESCTR?, control: DownloadControl,
    learned: (Int64) throws(PlayheadError) -> Void, progress: (Int) -> Void
  ) throws(PlayheadError) -> Int64 {
    let fileURL = folder.appendingPathComponent(unit.path)
    try AtomicFile.makeDirectory(fileURL.deletingLastPathComponent())
    var expected = unit.expectedLength
    let existing = AtomicFile.size(of: fileURL)
    var have = existing ?? 0
    // A missing file is never complete, even for an empty range: it is created below.
    if let expected, existing == expected { return have }
    let fd = open(fileURL.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw AtomicFile.failure("open", fileURL) }
    defer { close(fd) }
    if let expected, have > expected {
      // Longer than it can be: start the file again.
      guard ftruncate(fd, 0) == 0 else { throw AtomicFile.failure("truncate", fileURL) }
      have = 0
    }
    switch unit.source.scheme?.lowercased() {
    case "http", "https", "file": break
    default:
      throw PlayheadError(
        .unsupportedScheme,
        "cannot download \(unit.source.absoluteString) (only http, https and file)",
        url: unit.source)
    }
    let source = stack.makeDataSource()
    control.register(source)
    defer {
      control.register(nil)
      source.close()
    }
    let base = unit.rangeOffset ?? 0
    var head = try openSource(source, unit: unit, at: base + have)
    var buffer = [UInt8](repeating: 0, count: Self.pieceBytes)
    while true {
      if expected == nil, let total = head.totalLength {
        let length = unit.rangeLength ?? (total - base)
        try learned(length)
        expected = length
        if have > length {
          guard ftruncate(fd, 0) == 0 else { throw AtomicFile.failure("truncate", fileURL) }
          have = 0
          head = try openSource(source, unit: unit, at: base)
          continue
        }
      }
      if let rangeLength = unit.rangeLength, let total = head.totalLength,
        total < base + rangeLength
      {
        throw PlayheadError(
          .ioError,
          "\(unit.source.absoluteString) has \(total) bytes; the playlist's range \(rangeLength)@\(base) runs past its end",
          url: unit.source)
      }
      if let expected, have >= expected { break }
      let want = expected.map { Int(min(Int64(Self.pieceBytes), $0 - have)) } ?? Self.pieceBytes
      let readResult = buffer.withUnsafeMutableBytes { raw in
        Result { () throws(PlayheadError) -> Int in
          try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<want]))
        }
      }
      let count = try readResult.get()
      if count == 0 {
        if let expected, have < expected {
          throw PlayheadError(
            .connectionFailed,
            "\(unit.source.absoluteString) ended at byte \(have) of \(expected)", url: unit.source)
        }
        try learned(have)
        break
      }
      if let cipher {
        buffer.withUnsafeMutableBytes { raw in
          cipher.apply(to: UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]), atOffset: have)
        }
      }
      try writeAll(fd, buffer, count: count, at: have, url: fileURL)
      have += Int64(count)
      progress(count)
    }
    guard fsync(fd) == 0 else { throw AtomicFile.failure("fsync", fileURL) }
    return have
  }

  /// Opens the unit's bytes from resource offset `offset` (to the end of its range).
  private func openSource(_ source: any DataSource, unit: DownloadUnit, at offset: Int64)
    throws(PlayheadError) -> DataResponseHead
  {
    let end = unit.rangeLength.map { (unit.rangeOffset ?? 0) + $0 }
    let range =
      offset == 0 && end == nil
      ? nil : ByteRange(offset: offset, length: end.map { max(0, $0 - offset) })
    source.close()
    return try source.open(
      DataRequest(url: unit.source, range: range, purpose: Self.purpose(of: unit.role)))
  }

  /// What a unit's bytes are for, as the refresh handler is told.
  static func purpose(of role: OfflineManifest.Role) -> DataPurpose {
    switch role {
    case .playlist: return .playlist
    case .segment, .subtitle: return .segment
    case .initializationSection: return .initializationSection
    case .key: return .key
    case .media: return .media
    }
  }

  private func writeAll(_ fd: Int32, _ buffer: [UInt8], count: Int, at offset: Int64, url: URL)
    throws(PlayheadError)
  {
    var done = 0
    let ok = buffer.withUnsafeBytes { raw -> Bool in
      guard let base = raw.baseAddress else { return false }
      while done < count {
        let result = pwrite(fd, base + done, count - done, off_t(offset + Int64(done)))
        if result < 0 {
          if errno == EINTR { continue }
          return false
        }
        done += result
      }
      return true
    }
    if !ok { throw AtomicFile.failure("write", url) }
  }
}
