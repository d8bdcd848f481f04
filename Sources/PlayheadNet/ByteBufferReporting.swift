import Foundation
import PlayheadCore

/// What a byte source holds of its resource without waiting on the network, as the
/// player's loaded time ranges count it for progressive media.
public struct ByteBufferState: Sendable, Equatable {
  /// Every byte is at hand at once (a local file): the whole resource counts as loaded.
  public var isLocal: Bool
  /// Bytes downloaded ahead of the reader's position and not yet read.
  public var bytesAhead: Int64
  /// Whether loading waits for the reader to consume what is buffered (a read-ahead limit
  /// reached, or nothing left to fetch), so that no more bytes come until it reads.
  public var isHoldingBack: Bool
  /// Whether every byte from the reader's position to the end of the resource is held.
  public var reachesEnd: Bool
  /// Byte ranges of the resource kept on disk (a cache), in order; empty without one.
  public var cachedRanges: [ByteRange]

  /// Creates a state; every field defaults to "nothing held".
  public init(
    isLocal: Bool = false, bytesAhead: Int64 = 0, isHoldingBack: Bool = false,
    reachesEnd: Bool = false, cachedRanges: [ByteRange] = []
  ) {
    self.isLocal = isLocal
    self.bytesAhead = max(0, bytesAhead)
    self.isHoldingBack = isHoldingBack
    self.reachesEnd = reachesEnd
    self.cachedRanges = cachedRanges
  }

  /// The state of a local file: everything held.
  public static let local = ByteBufferState(isLocal: true, isHoldingBack: true, reachesEnd: true)
}

/// A byte source that says what it holds ahead of its reader and tells when that grows.
///
/// Wrappers (retries, refreshing, sniffing, counting) pass both through to the source they
/// read. A source that does not conform holds nothing the player can count beyond what it
/// has decoded.
public protocol ByteBufferReporting: AnyObject {
  /// What the source holds now.
  var bufferState: ByteBufferState { get }
  /// Sets what to call, on a network or loading thread, whenever the bytes held grow or
  /// loading stops at its limit (nil: nothing). Replaces an earlier handler.
  func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?)
}

extension FileByteSource: ByteBufferReporting {
  /// A local file: every byte is at hand.
  public var bufferState: ByteBufferState { .local }
  /// A local file never changes what it holds; the handler is not called.
  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {}
}

extension MemoryByteSource: ByteBufferReporting {
  /// Bytes in memory: every byte is at hand.
  public var bufferState: ByteBufferState { .local }
  /// Memory never changes what it holds; the handler is not called.
  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {}
}

extension RetryingByteSource: ByteBufferReporting {
  /// The inner source's buffer, when it reports one.
  public var bufferState: ByteBufferState {
    (inner as? any ByteBufferReporting)?.bufferState ?? ByteBufferState()
  }
  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    (inner as? any ByteBufferReporting)?.setBufferChangeHandler(handler)
  }
}
