import Foundation
import PlayheadCore
import PlayheadNet
import XCTest

/// Deterministic pseudo-random bytes, so that a wrong offset shows up as a mismatch.
func generatedBytes(count: Int, seed: UInt32 = 0x1234_5678) -> Data {
  var state = seed
  var bytes = [UInt8](repeating: 0, count: count)
  for index in 0..<count {
    state = state &* 1_664_525 &+ 1_013_904_223
    bytes[index] = UInt8(truncatingIfNeeded: state >> 24)
  }
  return Data(bytes)
}

// MARK: Random access (DataSourceReader)

/// Reads `count` bytes (or fewer at the end) at `offset` with a single read call.
func readOnce(_ reader: DataSourceReader, at offset: Int64, count: Int) throws(PlayheadError)
  -> Data
{
  var buffer = [UInt8](repeating: 0, count: count)
  let result = buffer.withUnsafeMutableBytes { raw in
    Result { () throws(PlayheadError) -> Int in try reader.read(into: raw, at: offset) }
  }
  let read = try result.get()
  return Data(buffer[0..<read])
}

/// Reads `count` bytes at `offset` with as many reads as needed (a read may return fewer
/// bytes than asked); fewer only when the resource ends first.
func readFully(_ reader: DataSourceReader, at offset: Int64, count: Int) throws(PlayheadError)
  -> Data
{
  var result = Data()
  while result.count < count {
    let piece = try readOnce(
      reader, at: offset + Int64(result.count), count: count - result.count)
    if piece.isEmpty { break }
    result.append(piece)
  }
  return result
}

/// Reads sequentially from `offset` in `chunk`-sized reads until a read returns 0.
func readToEnd(_ reader: DataSourceReader, from offset: Int64 = 0, chunk: Int = 32 * 1024)
  throws(PlayheadError) -> Data
{
  var result = Data()
  var position = offset
  while true {
    let piece = try readOnce(reader, at: position, count: chunk)
    if piece.isEmpty { return result }
    result.append(piece)
    position += Int64(piece.count)
  }
}

// MARK: Streaming (an open DataSource)

/// One read of up to `count` bytes from the open request of `source`.
func readSome(_ source: any DataSource, count: Int) throws(PlayheadError) -> Data {
  var buffer = [UInt8](repeating: 0, count: count)
  let result = buffer.withUnsafeMutableBytes { raw in
    Result { () throws(PlayheadError) -> Int in try source.read(into: raw) }
  }
  let read = try result.get()
  return Data(buffer[0..<read])
}

/// Reads the open request of `source` in `chunk`-sized reads until a read returns 0, or
/// until `limit` bytes were read.
func drain(_ source: any DataSource, chunk: Int = 32 * 1024, limit: Int = .max)
  throws(PlayheadError) -> Data
{
  var result = Data()
  while result.count < limit {
    let piece = try readSome(source, count: min(chunk, limit - result.count))
    if piece.isEmpty { break }
    result.append(piece)
  }
  return result
}

/// Reads what `source` delivered before a read failed, and the failure (nil when the
/// open ran to its end).
func drainUntilFailure(_ source: any DataSource, chunk: Int = 8192) -> (Data, PlayheadError?) {
  var received = Data()
  do {
    while true {
      let piece = try readSome(source, count: chunk)
      if piece.isEmpty { return (received, nil) }
      received.append(piece)
    }
  } catch {
    return (received, error)
  }
}

extension DataLoader {
  /// A loader whose every load goes through `source` (one load at a time).
  convenience init(
    source: any DataSource, clock: any Clock = HostClock.shared,
    transferListener: (any TransferListener)? = nil
  ) {
    self.init(
      factory: DataSourceFactories.make { source }, clock: clock,
      transferListener: transferListener)
  }
}

// MARK: Errors, files, shared values

/// Runs `body` and returns the PlayheadError it throws; fails the test when it throws
/// nothing.
func playheadError<T>(
  _ body: () throws(PlayheadError) -> T, file: StaticString = #filePath, line: UInt = #line
) -> PlayheadError? {
  do {
    _ = try body()
    XCTFail("expected a PlayheadError, got a result", file: file, line: line)
    return nil
  } catch {
    return error
  }
}

/// A fresh temporary directory, removed by the test's teardown.
func makeTemporaryDirectory(for testCase: XCTestCase) throws -> URL {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("playhead-net-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  testCase.addTeardownBlock {
    try? FileManager.default.removeItem(at: directory)
  }
  return directory
}

/// A value shared between a test and a background thread.
final class LockedBox<Value>: @unchecked Sendable {
  // Unchecked Sendable: `value` is only touched under `lock`.
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) { stored = value }

  var value: Value {
    get {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      lock.lock()
      stored = newValue
      lock.unlock()
    }
  }
}
