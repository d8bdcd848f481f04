import Foundation

/// Measures of interleaved 16-bit PCM that audio tests compare against the tone they
/// played: its pitch from zero crossings, its length, and stereo width.
public enum ToneMeasure {
  /// The zero-crossing frequency of `channel` of `samples` (interleaved, `channels` per
  /// frame, at `sampleRate`) in Hz, and the channel's length in seconds.
  ///
  /// Silent samples are skipped, so silence between tones does not count as crossings;
  /// an empty channel gives 0 Hz and 0 s.
  public static func tone(
    _ samples: [Int16], channel: Int = 0, channels: Int = 2, sampleRate: Int = 48_000
  ) -> (hertz: Double, seconds: Double) {
    var crossings = 0
    var previous: Int16 = 0
    var frames = 0
    for index in stride(from: channel, to: samples.count, by: max(1, channels)) {
      frames += 1
      let sample = samples[index]
      guard sample != 0 else { continue }
      if previous != 0 && (sample > 0) != (previous > 0) { crossings += 1 }
      previous = sample
    }
    let seconds = Double(frames) / Double(max(1, sampleRate))
    return (Double(crossings) / 2 / max(seconds, 1e-9), seconds)
  }

  /// The samples of a canonical 16-bit WAV file (its 44-byte header skipped), with its
  /// channel count and sample rate read from that header; nil when the file is shorter
  /// than a header.
  public static func wavSamples(_ data: Data) -> (samples: [Int16], channels: Int, rate: Int)? {
    guard data.count > 44 else { return nil }
    let bytes = [UInt8](data.prefix(44))
    let channels = Int(bytes[22]) | Int(bytes[23]) << 8
    let rate = bytes[24..<28].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    return (samples, channels, rate)
  }
}
