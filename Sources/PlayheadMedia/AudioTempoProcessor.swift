import CFFmpeg
import Foundation
import PlayheadCore

/// How playback at a rate other than 1 treats pitch.
public enum TimePitchAlgorithm: String, Sendable {
  /// Pitch is kept: the audio is time-stretched (libavfilter's `atempo`).
  case timeDomain
  /// Pitch follows the rate, like a tape played faster: the audio is resampled.
  case varispeed
}

/// Changes the speed of interleaved audio: at `rate` 2, one second of input becomes half
/// a second of output.
///
/// Used by one thread (not `Sendable`). Owns either an `AVFilterGraph` (time domain) or a
/// `SwrContext` (varispeed). Output timestamps are media times: the pts of a buffer is the
/// media time of its first frame, counted from the first input buffer's pts (or since the
/// last `flush()`).
public final class AudioTempoProcessor {
  /// The format of both input and output.
  public let format: AudioOutputFormat
  /// Playback speed: 2 = twice as fast.
  public let rate: Double
  public let algorithm: TimePitchAlgorithm
  private var graph: AudioTempoGraph?
  private var resampler: OpaquePointer?
  private var anchor: MediaTime = .invalid
  private var outputFrames: Int64 = 0

  /// The rates accepted: 1/32 up to 32.
  public static let supportedRates: ClosedRange<Double> = (1.0 / 32)...32

  /// Creates a processor for `format` at `rate`.
  ///
  /// Throws `.invalidArgument` for an invalid format or a rate outside `supportedRates`,
  /// `.decodeFailed` when FFmpeg cannot build the filter.
  public init(format: AudioOutputFormat, rate: Double, algorithm: TimePitchAlgorithm)
    throws(PlayheadError)
  {
    self.format = try format.validated()
    guard rate.isFinite, Self.supportedRates.contains(rate) else {
      throw PlayheadError(
        .invalidArgument, "Unsupported playback rate \(rate) (supported: 1/32...32)")
    }
    self.rate = rate
    self.algorithm = algorithm
    try prepare()
  }

  deinit {
    swr_free(&resampler)
  }

  private func prepare() throws(PlayheadError) {
    switch algorithm {
    case .timeDomain:
      graph = try AudioTempoGraph(format: format, rate: rate)
    case .varispeed:
      swr_free(&resampler)
      let inputLayout = ChannelLayout(channels: format.channels)
      let outputLayout = ChannelLayout(channels: format.channels)
      let sampleFormat = format.sampleFormat.avSampleFormat
      // Reading the input as if it were recorded at rate × its sample rate speeds it up.
      let inputRate = Int32(clamping: Int((Double(format.sampleRate) * rate).rounded()))
      var allocated: OpaquePointer?
      var result = swr_alloc_set_opts2(
        &allocated, &outputLayout.layout, sampleFormat, Int32(format.sampleRate),
        &inputLayout.layout,
        sampleFormat, max(1, inputRate), 0, nil)
      if result >= 0 { result = swr_init(allocated) }
      if result < 0 {
        swr_free(&allocated)
        throw FFmpegError.make(.decodeFailed, "Could not set up varispeed audio", code: result)
      }
      resampler = allocated
    }
  }

  /// Changes the speed of `buffer`; the result holds about `frameCount / rate` frames
  /// (filters hold some back until more input or `flush()`).
  ///
  /// Throws `.invalidArgument` when the buffer's format differs from the processor's or
  /// its byte count does not match its frame count.
  public func process(_ buffer: AudioBuffer) throws(PlayheadError) -> AudioBuffer {
    guard buffer.format == format else {
      throw PlayheadError(.invalidArgument, "Audio buffer format differs from the tempo format")
    }
    guard buffer.frameCount >= 0, buffer.samples.count >= buffer.frameCount * format.bytesPerFrame
    else {
      throw PlayheadError(
        .invalidArgument,
        "Audio buffer holds \(buffer.samples.count) bytes for \(buffer.frameCount) frames")
    }
    if graph?.isFinished ?? false || (algorithm == .varispeed && resampler == nil) {
      try prepare()
    }
    if !anchor.isValid { anchor = buffer.pts }
    var output = Data()
    switch algorithm {
    case .timeDomain:
      try graph?.push(buffer.samples, frameCount: buffer.frameCount, into: &output)
    case .varispeed:
      try resample(buffer.samples, frameCount: buffer.frameCount, into: &output)
    }
    return emit(output)
  }

  /// Drains what the filter still holds (at the end of a stream); nil if nothing.
  ///
  /// The next `process` starts afresh, its pts anchored at that buffer's pts.
  public func flush() throws(PlayheadError) -> AudioBuffer? {
    var output = Data()
    switch algorithm {
    case .timeDomain:
      try graph?.finish(into: &output)
    case .varispeed:
      try resample(nil, frameCount: 0, into: &output)
      swr_free(&resampler)
    }
    let buffer = output.isEmpty ? nil : emit(output)
    anchor = .invalid
    outputFrames = 0
    return buffer
  }

  /// Wraps `output` in a buffer stamped with its media time.
  private func emit(_ output: Data) -> AudioBuffer {
    let frames = output.count / format.bytesPerFrame
    var pts = MediaTime.invalid
    if anchor.isNumeric {
      let scale = Int32(clamping: format.sampleRate)
      pts =
        anchor + MediaTime(value: Int64((Double(outputFrames) * rate).rounded()), timescale: scale)
    }
    outputFrames += Int64(frames)
    return AudioBuffer(format: format, samples: output, frameCount: frames, pts: pts)
  }

  /// Runs the varispeed resampler over `samples` (nil drains it).
  private func resample(_ samples: Data?, frameCount: Int, into output: inout Data)
    throws(PlayheadError)
  {
    guard let resampler else { return }
    let bytesPerFrame = format.bytesPerFrame
    var first = true
    while true {
      let inputCount = first ? Int32(frameCount) : 0
      let capacity = Int(swr_get_out_samples(resampler, inputCount)) + 64
      var chunk = Data(count: capacity * bytesPerFrame)
      let converted = chunk.withUnsafeMutableBytes { outRaw -> Int32 in
        var outPlane = outRaw.baseAddress?.assumingMemoryBound(to: UInt8.self)
        if first, let samples {
          return samples.withUnsafeBytes { inRaw -> Int32 in
            var inPlane: UnsafePointer<UInt8>? = inRaw.baseAddress?.assumingMemoryBound(
              to: UInt8.self)
            return swr_convert(resampler, &outPlane, Int32(capacity), &inPlane, inputCount)
          }
        }
        return swr_convert(resampler, &outPlane, Int32(capacity), nil, 0)
      }
      if converted < 0 {
        throw FFmpegError.make(.decodeFailed, "Varispeed conversion failed", code: converted)
      }
      chunk.count = Int(converted) * bytesPerFrame
      output += chunk
      // Input is consumed in one call; only a drain needs repeating until empty.
      if samples != nil || converted == 0 { return }
      first = false
    }
  }
}
