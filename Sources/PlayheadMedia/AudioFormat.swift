import CFFmpeg
import Foundation
import PlayheadCore

/// How each output sample is stored.
public enum AudioSampleFormat: Sendable {
  /// Signed 16-bit integers.
  case int16
  /// 32-bit floats in -1...1.
  case float32

  /// Bytes per sample of one channel.
  public var bytesPerSample: Int {
    switch self {
    case .int16: return 2
    case .float32: return 4
    }
  }

  var avSampleFormat: AVSampleFormat {
    switch self {
    case .int16: return AV_SAMPLE_FMT_S16
    case .float32: return AV_SAMPLE_FMT_FLT
    }
  }

  var filterName: String {
    switch self {
    case .int16: return "s16"
    case .float32: return "flt"
    }
  }
}

/// Which source channels reach the output.
public enum AudioChannelMode: String, Sendable, CaseIterable {
  /// Every channel as it is (downmixed or upmixed to the output's channel count).
  case both
  /// Every output channel carries the source's left channel.
  case left
  /// Every output channel carries the source's right channel.
  case right
}

/// The interleaved PCM that the resampler produces and audio sinks consume.
public struct AudioOutputFormat: Sendable, Equatable {
  /// Frames per second.
  public var sampleRate: Int
  /// Channels per frame (1...8).
  public var channels: Int
  public var sampleFormat: AudioSampleFormat

  public init(sampleRate: Int, channels: Int, sampleFormat: AudioSampleFormat) {
    self.sampleRate = sampleRate
    self.channels = channels
    self.sampleFormat = sampleFormat
  }

  /// CD audio: 44,100 Hz, stereo, 16-bit.
  public static let cd = AudioOutputFormat(sampleRate: 44100, channels: 2, sampleFormat: .int16)

  /// Bytes per interleaved frame (one sample of every channel).
  public var bytesPerFrame: Int { channels * sampleFormat.bytesPerSample }

  /// Whether FFmpeg can produce this format (rate 1...768,000 Hz, 1...8 channels).
  public var isValid: Bool {
    (1...768_000).contains(sampleRate) && (1...8).contains(channels)
  }

  func validated() throws(PlayheadError) -> AudioOutputFormat {
    guard isValid else {
      throw PlayheadError(
        .invalidArgument,
        "Unsupported audio format: \(sampleRate) Hz, \(channels) channels (need 1...768000 Hz, 1...8 channels)"
      )
    }
    return self
  }
}

/// A block of interleaved PCM samples with the media time of its first frame.
public struct AudioBuffer: Sendable {
  public var format: AudioOutputFormat
  /// `frameCount * format.bytesPerFrame` bytes, channels interleaved, native byte order.
  public var samples: Data
  /// Frames (samples per channel) in `samples`.
  public var frameCount: Int
  /// The media time of the first frame (`.invalid` when unknown).
  public var pts: MediaTime

  public init(format: AudioOutputFormat, samples: Data, frameCount: Int, pts: MediaTime) {
    self.format = format
    self.samples = samples
    self.frameCount = frameCount
    self.pts = pts
  }

  /// How long the buffer plays: `frameCount / sampleRate`, exactly.
  public var duration: MediaTime {
    guard format.sampleRate > 0 else { return .invalid }
    return MediaTime(value: Int64(frameCount), timescale: Int32(clamping: format.sampleRate))
  }
}

/// Owns one `AVChannelLayout` (uninitialised in deinit).
final class ChannelLayout {
  var layout = AVChannelLayout()

  /// The default layout for `channels` channels.
  init(channels: Int) {
    av_channel_layout_default(&layout, Int32(channels))
  }

  /// A copy of `source`, or the default layout for its channel count when its order is
  /// unspecified.
  init(copying source: UnsafePointer<AVChannelLayout>) {
    if source.pointee.order == AV_CHANNEL_ORDER_UNSPEC || av_channel_layout_check(source) == 0 {
      av_channel_layout_default(&layout, max(1, source.pointee.nb_channels))
    } else if av_channel_layout_copy(&layout, source) < 0 {
      av_channel_layout_default(&layout, max(1, source.pointee.nb_channels))
    }
  }

  deinit {
    av_channel_layout_uninit(&layout)
  }

  var channelCount: Int { Int(layout.nb_channels) }

  /// FFmpeg's description, e.g. "stereo", for filter arguments.
  var description: String {
    var buffer = [CChar](repeating: 0, count: 128)
    return buffer.withUnsafeMutableBufferPointer { pointer -> String in
      guard let base = pointer.baseAddress,
        av_channel_layout_describe(&layout, base, pointer.count) > 0
      else { return "\(channelCount)c" }
      return String(cString: base)
    }
  }

  func equals(_ other: UnsafePointer<AVChannelLayout>) -> Bool {
    av_channel_layout_compare(&layout, other) == 0
  }

  /// The index of `channel` in this layout, or `fallback` when the layout lacks it.
  func index(of channel: AVChannel, fallback: Int) -> Int {
    let found = av_channel_layout_index_from_channel(&layout, channel)
    return found >= 0 ? Int(found) : min(fallback, channelCount - 1)
  }
}
