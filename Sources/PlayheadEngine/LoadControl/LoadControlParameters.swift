import PlayheadCore

/// The buffer thresholds a `DefaultLoadControl` works with, all set.
///
/// `init` makes them consistent: non-numeric or negative times become zero, the maximum
/// buffer is at least one second, the high-water mark at most the maximum, and the
/// low-water mark, startup buffer and buffer after a stall at most the high-water mark.
public struct LoadControlParameters: Sendable, Equatable {
  /// Playback starts once this much is buffered.
  public private(set) var startupBuffer: MediaTime
  /// After a stall, playback resumes once this much is buffered.
  public private(set) var bufferAfterRebuffer: MediaTime
  /// After loading stopped at the high-water mark, it resumes below this level.
  public private(set) var lowWaterMark: MediaTime
  /// Loading stops at this level (the engine's forward buffer when the optimiser is off).
  public private(set) var highWaterMark: MediaTime
  /// Nothing is loaded that would take the buffer beyond this.
  public private(set) var maximumBuffer: MediaTime
  /// The growing buffer optimiser.
  public var optimizer: BufferOptimizer

  /// Creates consistent parameters from the given values.
  public init(
    startupBuffer: MediaTime, bufferAfterRebuffer: MediaTime, lowWaterMark: MediaTime,
    highWaterMark: MediaTime, maximumBuffer: MediaTime, optimizer: BufferOptimizer
  ) {
    let one = MediaTime(value: 1, timescale: 1)
    let maximum = MediaTime.maximum(one, Self.nonNegative(maximumBuffer))
    let high = MediaTime.minimum(maximum, Self.nonNegative(highWaterMark))
    self.maximumBuffer = maximum
    self.highWaterMark = high
    self.lowWaterMark = MediaTime.minimum(high, Self.nonNegative(lowWaterMark))
    self.startupBuffer = MediaTime.minimum(high, Self.nonNegative(startupBuffer))
    self.bufferAfterRebuffer = MediaTime.minimum(high, Self.nonNegative(bufferAfterRebuffer))
    self.optimizer = optimizer
  }

  /// `time` when it is numeric and positive, else zero.
  static func nonNegative(_ time: MediaTime) -> MediaTime {
    time.isNumeric && time > .zero ? time : .zero
  }
}

/// Buffer values the application sets; each one that is set wins over the scene's.
///
/// A nil field (or a non-numeric time) takes the scene's value.
public struct BufferSettings: Sendable, Equatable {
  /// Playback starts once this much is buffered.
  public var startupBuffer: MediaTime?
  /// After a stall, playback resumes once this much is buffered.
  public var bufferAfterRebuffer: MediaTime?
  /// After loading stopped, it resumes below this level.
  public var lowWaterMark: MediaTime?
  /// Loading stops at this level.
  public var highWaterMark: MediaTime?
  /// Nothing is loaded beyond this.
  public var maximumBuffer: MediaTime?
  /// The buffer optimiser.
  public var optimizer: BufferOptimizer?

  /// Creates settings; every value defaults to the scene's.
  public init(
    startupBuffer: MediaTime? = nil, bufferAfterRebuffer: MediaTime? = nil,
    lowWaterMark: MediaTime? = nil, highWaterMark: MediaTime? = nil,
    maximumBuffer: MediaTime? = nil, optimizer: BufferOptimizer? = nil
  ) {
    self.startupBuffer = startupBuffer
    self.bufferAfterRebuffer = bufferAfterRebuffer
    self.lowWaterMark = lowWaterMark
    self.highWaterMark = highWaterMark
    self.maximumBuffer = maximumBuffer
    self.optimizer = optimizer
  }

  /// The parameters for `scene` with these settings applied over it.
  ///
  /// A scene value that contradicts an explicit one gives way: an explicit high-water
  /// mark above the scene's maximum raises the maximum, an explicit startup buffer above
  /// the scene's high-water mark raises that mark, and so on. Explicit values that
  /// contradict each other are made consistent as `LoadControlParameters.init` describes.
  public func resolved(for scene: PlayerScene) -> LoadControlParameters {
    let base = scene.parameters
    func given(_ time: MediaTime?) -> MediaTime? {
      guard let time, time.isNumeric else { return nil }
      return LoadControlParameters.nonNegative(time)
    }
    let startup = given(startupBuffer)
    let afterRebuffer = given(bufferAfterRebuffer)
    let low = given(lowWaterMark)
    let explicitHigh = given(highWaterMark)
    let explicitMaximum = given(maximumBuffer)
    let floorOfHigh = [startup, afterRebuffer, low].compactMap { $0 }.reduce(MediaTime.zero) {
      MediaTime.maximum($0, $1)
    }
    var high = explicitHigh ?? MediaTime.maximum(base.highWaterMark, floorOfHigh)
    if explicitHigh == nil, let explicitMaximum { high = MediaTime.minimum(high, explicitMaximum) }
    let maximum = explicitMaximum ?? MediaTime.maximum(base.maximumBuffer, high)
    return LoadControlParameters(
      startupBuffer: startup ?? base.startupBuffer,
      bufferAfterRebuffer: afterRebuffer ?? base.bufferAfterRebuffer,
      lowWaterMark: low ?? MediaTime.minimum(base.lowWaterMark, high),
      highWaterMark: high,
      maximumBuffer: maximum,
      optimizer: optimizer ?? base.optimizer)
  }
}
