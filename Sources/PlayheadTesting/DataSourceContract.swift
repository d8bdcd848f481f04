import Foundation
import PlayheadCore
import PlayheadNet

/// The behaviour every `DataSource` must show, checked against one implementation (Media3's
/// `DataSourceContractTest`): whole resources, byte ranges, the length, short reads, the end,
/// opening again, errors, and cancelling from another thread, also while a read blocks.
///
/// The fixture serves `DataSourceContract.resources` (path → bytes) under its own URLs and
/// makes a fresh source for each check. `run()` returns what failed, as values, so that any
/// test framework can assert on them:
///
/// ```swift
/// let contract = DataSourceContract(
///   fixture: .init(makeSource: { MySource(serving: DataSourceContract.resources) },
///                  url: { URL(string: "my:/\($0)")! }))
/// XCTAssertEqual(contract.run().map(\.description), [])
/// ```
public struct DataSourceContract: Sendable {
  /// How the source under test is made and what it serves.
  public struct Fixture: Sendable {
    /// A fresh source, nothing open.
    public var makeSource: @Sendable () -> any DataSource
    /// The source's URL for a path of `resources` (and for "/missing.bin", which it must
    /// not serve).
    public var url: @Sendable (String) -> URL
    /// A URL whose open or first read blocks until cancelled (a server that answers
    /// nothing), and a call that returns once a transfer of it is blocked (the server has
    /// the request; the clock has the wait), for `cancelWhileBlocked`; nil for sources that
    /// never block (files, memory), which `cancelAfterOpen` covers.
    public var stalled: Stalled?

    /// A resource that blocks, and how to know a transfer waits for it.
    public struct Stalled: Sendable {
      public var url: URL
      public var untilBlocked: @Sendable () -> Void

      public init(url: URL, untilBlocked: @escaping @Sendable () -> Void) {
        self.url = url
        self.untilBlocked = untilBlocked
      }
    }
    /// Whether the source serves byte ranges of the resource's bytes (a decrypting
    /// decorator does not: a range is a message of its own).
    public var servesRanges: Bool
    /// Whether opening a missing resource fails (a cache that has it does not).
    public var failsForMissing: Bool

    public init(
      makeSource: @escaping @Sendable () -> any DataSource,
      url: @escaping @Sendable (String) -> URL, stalled: Stalled? = nil,
      servesRanges: Bool = true, failsForMissing: Bool = true
    ) {
      self.makeSource = makeSource
      self.url = url
      self.stalled = stalled
      self.servesRanges = servesRanges
      self.failsForMissing = failsForMissing
    }
  }

  /// One check of the contract.
  public enum Check: String, Sendable, CaseIterable {
    case wholeResource, lengthInHead, byteRange, rangeToTheEnd, rangeCutAtTheEnd, zeroLengthRange
    case rangePastTheEndFails, missingResourceFails, shortReads, emptyBufferReadsNothing
    case endStaysEnded, openAgainAfterClose, openAgainWithoutClose, readWithNothingOpenFails
    case cancelBeforeOpen, cancelAfterOpen, cancelWhileBlocked, cancelTwice
  }

  /// A check that did not hold, with what was seen.
  public struct Failure: Sendable, Equatable, CustomStringConvertible {
    public var check: Check
    public var message: String
    public var description: String { "\(check.rawValue): \(message)" }
  }

  /// A 3,000,000-byte resource (several reads, several network chunks).
  public static let big = bytes(count: 3_000_000, seed: 0xBEEF)
  /// A 1,000-byte resource.
  public static let small = bytes(count: 1_000, seed: 0x5EED)
  /// What a fixture serves: "/big.bin" and "/small.bin".
  public static let resources: [String: Data] = ["/big.bin": big, "/small.bin": small]

  public let fixture: Fixture

  public init(fixture: Fixture) {
    self.fixture = fixture
  }

  /// Runs `checks` (all of them by default); returns the failures, in order.
  public func run(_ checks: [Check] = Check.allCases) -> [Failure] {
    checks.compactMap { check in
      do throws(ContractFailure) {
        try perform(check)
        return nil
      } catch {
        return Failure(check: check, message: error.message)
      }
    }
  }

  /// Bytes from a fixed generator, so every run serves the same ones.
  public static func bytes(count: Int, seed: UInt64) -> Data {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: count)
    for index in 0..<count {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return Data(bytes)
  }
}

/// What a failed check throws inside the contract.
struct ContractFailure: Error {
  var message: String
}

extension DataSourceContract {
  private func perform(_ check: Check) throws(ContractFailure) {
    let big = fixture.url("/big.bin")
    let small = fixture.url("/small.bin")
    switch check {
    case .wholeResource:
      let source = fixture.makeSource()
      defer { source.close() }
      _ = try open(source, DataRequest(url: big))
      try expect(try readAll(source), Self.big, "the whole resource")
    case .lengthInHead:
      let source = fixture.makeSource()
      defer { source.close() }
      let head = try open(source, DataRequest(url: small))
      if let length = head.length, length != Int64(Self.small.count) {
        throw ContractFailure(message: "head.length is \(length), the resource has 1000 bytes")
      }
      let read = try readAll(source)
      try expect(read, Self.small, "the resource")
    case .byteRange:
      guard fixture.servesRanges else { return }
      let source = fixture.makeSource()
      defer { source.close() }
      let head = try open(
        source, DataRequest(url: big, range: ByteRange(offset: 1_000_000, length: 123_457)))
      if let length = head.length, length != 123_457 {
        throw ContractFailure(message: "head.length is \(length) for a 123457-byte range")
      }
      try expect(try readAll(source), Self.big.subdata(in: 1_000_000..<1_123_457), "the range")
    case .rangeToTheEnd:
      guard fixture.servesRanges else { return }
      let source = fixture.makeSource()
      defer { source.close() }
      _ = try open(source, DataRequest(url: big, range: ByteRange(offset: 2_999_000, length: nil)))
      try expect(try readAll(source), Self.big.subdata(in: 2_999_000..<3_000_000), "the tail")
    case .rangeCutAtTheEnd:
      guard fixture.servesRanges else { return }
      let source = fixture.makeSource()
      defer { source.close() }
      _ = try open(source, DataRequest(url: big, range: ByteRange(offset: 2_999_990, length: 100)))
      try expect(try readAll(source), Self.big.subdata(in: 2_999_990..<3_000_000), "the cut range")
    case .zeroLengthRange:
      guard fixture.servesRanges else { return }
      let source = fixture.makeSource()
      defer { source.close() }
      let head = try open(source, DataRequest(url: big, range: ByteRange(offset: 10, length: 0)))
      if let length = head.length, length != 0 {
        throw ContractFailure(message: "head.length is \(length) for an empty range")
      }
      try expect(try readAll(source), Data(), "an empty range")
    case .rangePastTheEndFails:
      guard fixture.servesRanges else { return }
      let source = fixture.makeSource()
      defer { source.close() }
      try expectFailure(
        { () throws(PlayheadError) in
          _ = try source.open(
            DataRequest(url: small, range: ByteRange(offset: 5_000, length: 10)))
          _ = try self.drain(source)
        }, "a range past the end", notCode: .cancelled)
    case .missingResourceFails:
      guard fixture.failsForMissing else { return }
      let source = fixture.makeSource()
      defer { source.close() }
      let error = try expectFailure(
        { () throws(PlayheadError) in
          _ = try source.open(DataRequest(url: self.fixture.url("/missing.bin")))
          _ = try self.drain(source)
        }, "a missing resource", notCode: .cancelled)
      if error.category != .source {
        throw ContractFailure(
          message: "a missing resource failed with \(error.code), not a source error")
      }
    case .shortReads:
      let source = fixture.makeSource()
      defer { source.close() }
      _ = try open(source, DataRequest(url: small))
      var collected = Data()
      for size in [1, 7, 64, 4096] where collected.count < Self.small.count {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        let count = try read(source, into: buffer)
        if count > size {
          throw ContractFailure(message: "a read of \(size) bytes returned \(count)")
        }
        collected.append(Data(buffer[0..<count]))
      }
      collected.append(try readAll(source))
      try expect(collected, Self.small, "short reads")
    case .emptyBufferReadsNothing:
      let source = fixture.makeSource()
      defer { source.close() }
      _ = try open(source, DataRequest(url: small))
      let empty = UnsafeMutableRawBufferPointer(start: nil, count: 0)
      let count = try read(source, into: empty)
      if count != 0 { throw ContractFailure(message: "an empty buffer read \(count) bytes") }
      try expect(try readAll(source), Self.small, "the resource after an empty read")
    case .endStaysEnded:
      let source = fixture.makeSource()
      defer { source.close() }
      _ = try open(source, DataRequest(url: small))
      _ = try readAll(source)
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
      defer { buffer.deallocate() }
      for _ in 0..<2 {
        let count = try read(source, into: buffer)
        if count != 0 { throw ContractFailure(message: "a read after the end gave \(count) bytes") }
      }
    case .openAgainAfterClose:
      let source = fixture.makeSource()
      defer { source.close() }
      _ = try open(source, DataRequest(url: small))
      _ = try readAll(source)
      source.close()
      _ = try open(source, DataRequest(url: big))
      try expect(try readAll(source), Self.big, "the second resource")
    case .openAgainWithoutClose:
      let source = fixture.makeSource()
      defer { source.close() }
      _ = try open(source, DataRequest(url: big))
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1000, alignment: 1)
      defer { buffer.deallocate() }
      _ = try read(source, into: buffer)
      _ = try open(source, DataRequest(url: small))
      try expect(try readAll(source), Self.small, "a resource opened over an open one")
    case .readWithNothingOpenFails:
      let source = fixture.makeSource()
      let error = try expectFailure(
        { () throws(PlayheadError) in _ = try self.drain(source) }, "a read with nothing open",
        notCode: .cancelled)
      if error.code != .invalidState {
        throw ContractFailure(
          message: "a read with nothing open failed with \(error.code), not invalidState")
      }
    case .cancelBeforeOpen:
      let source = fixture.makeSource()
      source.cancel()
      try expectCancelled(
        { () throws(PlayheadError) in
          _ = try source.open(DataRequest(url: small))
          _ = try self.drain(source)
        }, "an open after cancel")
    case .cancelAfterOpen:
      let source = fixture.makeSource()
      defer { source.close() }
      _ = try open(source, DataRequest(url: big))
      let cancelled = DispatchSemaphore(value: 0)
      let other = Thread {
        source.cancel()
        cancelled.signal()
      }
      other.start()
      cancelled.wait()
      try expectCancelled(
        { () throws(PlayheadError) in _ = try self.drain(source) }, "a read after cancel")
    case .cancelWhileBlocked:
      guard let stalled = fixture.stalled else { return }
      let source = fixture.makeSource()
      let outcome = Locked<PlayheadError?>(nil)
      let done = DispatchSemaphore(value: 0)
      let reader = Thread {
        do throws(PlayheadError) {
          _ = try source.open(DataRequest(url: stalled.url))
          _ = try self.drain(source)
        } catch {
          outcome.withLock { $0 = error }
        }
        done.signal()
      }
      reader.start()
      stalled.untilBlocked()
      source.cancel()
      // A guard against a hang, not a wait for the event: the read ends at the cancel.
      // (A source whose call never ends is not closed: one thread at a time calls it.)
      if done.wait(timeout: .now() + 30) == .timedOut {
        throw ContractFailure(message: "a blocked read did not end within 30 s of cancel()")
      }
      defer { source.close() }
      guard let error = outcome.value else {
        throw ContractFailure(message: "a blocked read ended without an error after cancel()")
      }
      if error.code != .cancelled {
        throw ContractFailure(message: "a blocked read ended with \(error.code), not cancelled")
      }
      // A cancelled source stays cancelled.
      try expectCancelled(
        { () throws(PlayheadError) in
          _ = try source.open(DataRequest(url: small))
          _ = try self.drain(source)
        }, "an open after a blocked read was cancelled")
    case .cancelTwice:
      let source = fixture.makeSource()
      source.cancel()
      source.cancel()
      try expectCancelled(
        { () throws(PlayheadError) in _ = try source.open(DataRequest(url: small)) },
        "an open after two cancels")
    }
  }

  // MARK: Helpers

  private func open(_ source: any DataSource, _ request: DataRequest) throws(ContractFailure)
    -> DataResponseHead
  {
    do {
      return try source.open(request)
    } catch {
      throw ContractFailure(message: "open(\(request.url)) failed: \(error)")
    }
  }

  private func read(_ source: any DataSource, into buffer: UnsafeMutableRawBufferPointer)
    throws(ContractFailure) -> Int
  {
    do {
      return try source.read(into: buffer)
    } catch {
      throw ContractFailure(message: "read failed: \(error)")
    }
  }

  private func readAll(_ source: any DataSource) throws(ContractFailure) -> Data {
    do {
      return try drain(source)
    } catch {
      throw ContractFailure(message: "read failed: \(error)")
    }
  }

  /// Reads to the end.
  private func drain(_ source: any DataSource) throws(PlayheadError) -> Data {
    var data = Data()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 32 * 1024, alignment: 1)
    defer { buffer.deallocate() }
    while true {
      let count = try source.read(into: buffer)
      if count == 0 { return data }
      data.append(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
    }
  }

  private func expect(_ got: Data, _ wanted: Data, _ what: String) throws(ContractFailure) {
    guard got != wanted else { return }
    let differs = zip(got, wanted).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    throw ContractFailure(
      message: "\(what): \(got.count) bytes, expected \(wanted.count)"
        + (differs.map { "; first difference at byte \($0)" } ?? ""))
  }

  @discardableResult
  private func expectFailure(
    _ body: () throws(PlayheadError) -> Void, _ what: String, notCode: PlayheadError.Code
  ) throws(ContractFailure) -> PlayheadError {
    do {
      try body()
    } catch {
      if error.code == notCode {
        throw ContractFailure(message: "\(what) failed with \(error.code)")
      }
      return error
    }
    throw ContractFailure(message: "\(what) did not fail")
  }

  private func expectCancelled(_ body: () throws(PlayheadError) -> Void, _ what: String)
    throws(ContractFailure)
  {
    do {
      try body()
    } catch {
      if error.code == .cancelled { return }
      throw ContractFailure(message: "\(what) failed with \(error.code), not cancelled")
    }
    throw ContractFailure(message: "\(what) did not throw cancelled")
  }
}
