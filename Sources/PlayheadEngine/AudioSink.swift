import Foundation
import PlayheadCore
import PlayheadMedia

/// Receives decoded, resampled audio in presentation order.
///
/// The sink states the format it wants; the player resamples to it. Calls come from the
/// player's playback thread. A sink that throws stops the item with `failedToPlayToEnd`.
public protocol AudioSink: AnyObject, Sendable {
  /// The format the sink consumes.
  var format: AudioOutputFormat { get }
  /// Consumes one buffer of interleaved samples.
  func write(_ buffer: AudioBuffer) throws(PlayheadError)
  /// Called once when the player is done with the sink (end of playback or close).
  func finish() throws(PlayheadError)
}

/// An audio sink that drops every sample; it counts the sample frames it was given.
public final class DiscardAudioSink: AudioSink, Sendable {
  public let format: AudioOutputFormat
  private let frames = Locked(0)

  public init(
    format: AudioOutputFormat = AudioOutputFormat(
      sampleRate: 48_000, channels: 2, sampleFormat: .int16)
  ) {
    self.format = format
  }

  /// Sample frames written so far (one frame = one sample per channel).
  public var writtenFrameCount: Int { frames.value }

  public func write(_ buffer: AudioBuffer) throws(PlayheadError) {
    frames.withLock { $0 += buffer.frameCount }
  }

  public func finish() throws(PlayheadError) {}
}

/// An audio sink that writes a RIFF/WAVE file (16-bit PCM or 32-bit float).
///
/// The header's sizes are patched on `finish()`; until then the file holds the samples
/// with provisional sizes, so a crash leaves a readable prefix.
public final class WAVAudioSink: AudioSink, Sendable {
  public let format: AudioOutputFormat
  public let url: URL
  private let state: Locked<State>

  /// The open file (nil once finished) and the sample bytes written to it.
  private struct State: Sendable {
    var handle: FileHandle?
    var dataBytes: UInt64 = 0
  }

  /// Creates (or truncates) the file at `url`.
  public init(
    url: URL,
    format: AudioOutputFormat = AudioOutputFormat(
      sampleRate: 48_000, channels: 2, sampleFormat: .int16)
  ) throws(PlayheadError) {
    self.url = url
    self.format = format
    guard
      FileManager.default.createFile(
        atPath: url.path, contents: Self.header(format: format, dataBytes: 0))
    else { throw PlayheadError(.ioError, "cannot create WAV file \(url.path)", url: url) }
    do {
      let handle = try FileHandle(forWritingTo: url)
      try handle.seekToEnd()
      state = Locked(State(handle: handle))
    } catch {
      throw PlayheadError(
        .ioError, "cannot open WAV file \(url.path): \(PlayheadError.reason(for: error))", url: url)
    }
  }

  /// Sample frames written so far.
  public var writtenFrameCount: Int {
    Int(state.value.dataBytes) / format.bytesPerFrame
  }

  public func write(_ buffer: AudioBuffer) throws(PlayheadError) {
    let url = url
    try state.withLock { (state) throws(PlayheadError) in
      guard let handle = state.handle else {
        throw PlayheadError(.invalidState, "WAV sink already finished", url: url)
      }
      do {
        try handle.write(contentsOf: buffer.samples)
      } catch {
        throw PlayheadError(
          .ioError, "cannot write \(url.path): \(PlayheadError.reason(for: error))", url: url)
      }
      state.dataBytes += UInt64(buffer.samples.count)
    }
  }

  public func finish() throws(PlayheadError) {
    let url = url
    let format = format
    try state.withLock { (state) throws(PlayheadError) in
      guard let handle = state.handle else { return }
      state.handle = nil
      do {
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Self.header(format: format, dataBytes: state.dataBytes))
        try handle.close()
      } catch {
        throw PlayheadError(
          .ioError, "cannot finish \(url.path): \(PlayheadError.reason(for: error))", url: url)
      }
    }
  }

  deinit {
    try? finish()
  }

  /// The 44-byte canonical WAVE header for `dataBytes` bytes of samples.
  static func header(format: AudioOutputFormat, dataBytes: UInt64) -> Data {
    let isFloat = format.sampleFormat == .float32
    let bytesPerSample = isFloat ? 4 : 2
    let dataSize = UInt32(clamping: dataBytes)
    var data = Data()
    func append32(_ value: UInt32) {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    func append16(_ value: UInt16) {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    data.append(contentsOf: Array("RIFF".utf8))
    append32(36 &+ dataSize)
    data.append(contentsOf: Array("WAVEfmt ".utf8))
    append32(16)
    append16(isFloat ? 3 : 1)
    append16(UInt16(format.channels))
    append32(UInt32(format.sampleRate))
    append32(UInt32(format.sampleRate * format.channels * bytesPerSample))
    append16(UInt16(format.channels * bytesPerSample))
    append16(UInt16(bytesPerSample * 8))
    data.append(contentsOf: Array("data".utf8))
    append32(dataSize)
    return data
  }
}

extension AudioOutputFormat {
  /// Bytes in one interleaved sample frame.
  var bytesPerFrame: Int { channels * (sampleFormat == .float32 ? 4 : 2) }
}
