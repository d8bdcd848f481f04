import CFFmpeg
import Foundation
import PlayheadCore

/// Converts decoded audio frames to one interleaved output format (rate, channels, sample
/// format) through libswresample; owns its `SwrContext`.
///
/// Used by one thread (not `Sendable`). A change of the input's format, rate or layout mid-stream
/// (e.g. an HLS variant switch) re-initialises the converter; samples still buffered for
/// the old input come out first.
public final class AudioResampler {
  /// The format every buffer comes out in.
  public let output: AudioOutputFormat
  /// Which source channels reach the output.
  public let channelMode: AudioChannelMode
  private var context: OpaquePointer?
  private var inputFormat: Int32 = -1
  private var inputRate: Int32 = 0
  private var inputLayout: ChannelLayout?
  private let outputLayout: ChannelLayout
  /// Where the next output frame falls in media time, for frames without a timestamp.
  private var nextPTS: MediaTime = .invalid

  /// The input sample rates `convert` accepts, in hertz: from 1 kHz to 768 kHz (the highest
  /// rate of studio formats).
  public static let supportedInputRates = 1_000...768_000

  /// Creates a resampler to `output`; an invalid format is reported by the first `convert`.
  public init(output: AudioOutputFormat, channelMode: AudioChannelMode = .both) {
    self.output = output
    self.channelMode = channelMode
    outputLayout = ChannelLayout(channels: max(1, min(8, output.channels)))
  }

  deinit {
    swr_free(&context)
  }

  /// Converts `frame`, returning every output frame available so far.
  ///
  /// The buffer's pts is the frame's pts minus the converter's delay (or, for a frame
  /// without one, where the previous buffer ended). Throws `.invalidArgument` for an
  /// invalid output format, `.decodeFailed` for an input rate outside
  /// `supportedInputRates` or when libswresample fails.
  public func convert(_ frame: AudioFrame) throws(PlayheadError) -> AudioBuffer {
    _ = try output.validated()
    let raw = frame.raw
    var carried: AudioBuffer?
    if context == nil || !matchesInput(raw) {
      if context != nil { carried = try flush() }
      try configure(for: raw)
    }
    guard let context else { throw PlayheadError(.decodeFailed, "No audio converter") }
    let rate = Int32(clamping: output.sampleRate)
    let delay = swr_get_delay(context, Int64(rate))
    var pts = nextPTS
    if frame.pts.isNumeric {
      pts = frame.pts - MediaTime(value: delay, timescale: rate)
    }
    let capacity = Int(swr_get_out_samples(context, raw.pointee.nb_samples)) + 16
    let input = UnsafeMutablePointer<UnsafePointer<UInt8>?>(
      OpaquePointer(raw.pointee.extended_data))
    let (samples, count) = try run(context, capacity: capacity) { out, room in
      swr_convert(context, out, room, input, raw.pointee.nb_samples)
    }
    var buffer = AudioBuffer(format: output, samples: samples, frameCount: count, pts: pts)
    if pts.isNumeric { nextPTS = pts + buffer.duration }
    if let carried, carried.frameCount > 0 {
      buffer = AudioBuffer(
        format: output, samples: carried.samples + buffer.samples,
        frameCount: carried.frameCount + buffer.frameCount, pts: carried.pts)
    }
    return buffer
  }

  /// Drains the samples the converter still holds (at the end of a stream); nil if none.
  public func flush() throws(PlayheadError) -> AudioBuffer? {
    guard let context else { return nil }
    var samples = Data()
    var total = 0
    while true {
      let capacity = Int(swr_get_out_samples(context, 0)) + 64
      let (chunk, count) = try run(context, capacity: capacity) { out, room in
        swr_convert(context, out, room, nil, 0)
      }
      if count == 0 { break }
      samples += chunk
      total += count
    }
    guard total > 0 else { return nil }
    let buffer = AudioBuffer(format: output, samples: samples, frameCount: total, pts: nextPTS)
    if nextPTS.isNumeric { nextPTS = nextPTS + buffer.duration }
    return buffer
  }

  /// Drops buffered samples and the running timestamp (after a seek).
  public func reset() {
    swr_free(&context)
    inputLayout = nil
    nextPTS = .invalid
  }

  private func matchesInput(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
    guard frame.pointee.format == inputFormat, frame.pointee.sample_rate == inputRate,
      let inputLayout
    else { return false }
    return withUnsafePointer(to: &frame.pointee.ch_layout) { inputLayout.equals($0) }
      || (frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC
        && Int(frame.pointee.ch_layout.nb_channels) == inputLayout.channelCount)
  }

  private func configure(for frame: UnsafeMutablePointer<AVFrame>) throws(PlayheadError) {
    swr_free(&context)
    guard frame.pointee.sample_rate > 0, frame.pointee.ch_layout.nb_channels > 0 else {
      throw PlayheadError(.decodeFailed, "The audio frame has no sample rate or channels")
    }
    // A rate a file merely claims (a WAV header can say 1 GHz) would make libswresample
    // spend seconds per frame, or allocate gigabytes when upsampling from a few hertz.
    guard Self.supportedInputRates.contains(Int(frame.pointee.sample_rate)) else {
      throw PlayheadError(
        .decodeFailed,
        "The audio's sample rate of \(frame.pointee.sample_rate) Hz is outside the "
          + "\(Self.supportedInputRates.lowerBound)…\(Self.supportedInputRates.upperBound) Hz "
          + "Playhead converts")
    }
    let layout = withUnsafePointer(to: &frame.pointee.ch_layout) { ChannelLayout(copying: $0) }
    let format = AVSampleFormat(frame.pointee.format)
    var allocated: OpaquePointer?
    var result = swr_alloc_set_opts2(
      &allocated, &outputLayout.layout, output.sampleFormat.avSampleFormat,
      Int32(output.sampleRate), &layout.layout, format, frame.pointee.sample_rate, 0, nil)
    guard result >= 0, let allocated else {
      swr_free(&allocated)
      throw FFmpegError.make(.decodeFailed, "Could not set up audio conversion", code: result)
    }
    context = allocated
    if channelMode != .both {
      let source =
        channelMode == .left
        ? layout.index(of: AV_CHAN_FRONT_LEFT, fallback: 0)
        : layout.index(of: AV_CHAN_FRONT_RIGHT, fallback: 1)
      let inputs = layout.channelCount
      var matrix = [Double](repeating: 0, count: outputLayout.channelCount * inputs)
      for out in 0..<outputLayout.channelCount { matrix[out * inputs + source] = 1 }
      result = swr_set_matrix(allocated, matrix, Int32(inputs))
      if result < 0 {
        swr_free(&context)
        throw FFmpegError.make(.decodeFailed, "Could not route audio channels", code: result)
      }
    }
    result = swr_init(allocated)
    if result < 0 {
      swr_free(&context)
      throw FFmpegError.make(.decodeFailed, "Could not start audio conversion", code: result)
    }
    inputFormat = frame.pointee.format
    inputRate = frame.pointee.sample_rate
    inputLayout = layout
  }

  /// Runs one `swr_convert` into a fresh buffer of `capacity` frames; returns the bytes
  /// and the frame count.
  private func run(
    _ context: OpaquePointer, capacity: Int,
    _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, Int32) -> Int32
  ) throws(PlayheadError) -> (Data, Int) {
    let bytesPerFrame = output.bytesPerFrame
    var data = Data(count: capacity * bytesPerFrame)
    let converted = data.withUnsafeMutableBytes { raw -> Int32 in
      var plane = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
      return body(&plane, Int32(capacity))
    }
    if converted < 0 {
      throw FFmpegError.make(.decodeFailed, "Audio conversion failed", code: converted)
    }
    data.count = Int(converted) * bytesPerFrame
    return (data, Int(converted))
  }
}
