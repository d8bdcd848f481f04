import Foundation
import PlayheadCore

/// The audio enhancement filter's options (seed 003's `audioEnhance` filter): volume
/// normalisation, dialogue enhancement and surround widening, each on or off.
///
/// All off (the default) leaves audio untouched. The filters run on libavfilter
/// (`AudioEnhancementProcessor`); together they delay the audio by at most about 90 ms
/// (dialogue enhancement's analysis window), which the player does not compensate.
public struct AudioEnhancement: Sendable, Equatable {
  /// How surround sound is widened.
  public enum SurroundEffect: String, Sendable, CaseIterable {
    /// Wider stereo: the difference of the channels raised (`extrastereo`), the seed's
    /// "3DSurround".
    case threeD = "3DSurround"
  }

  /// Evens out loudness over time (`enable_normalizer`): quiet passages are raised and
  /// loud ones lowered (`dynaudnorm` with 100 ms frames).
  public var normalizesVolume: Bool
  /// Raises speech over the rest (`enable_dialoguenhance`) at a voice level from 1 (mild)
  /// to 10 (strong), `dialoguenhance_voice`; nil is off. Values outside 1…10 are clamped.
  public var dialogueVoiceLevel: Double?
  /// Widens the stereo image (`enable_surround`, `surround_effect_type`); nil is off.
  public var surround: SurroundEffect?

  public init(
    normalizesVolume: Bool = false, dialogueVoiceLevel: Double? = nil,
    surround: SurroundEffect? = nil
  ) {
    self.normalizesVolume = normalizesVolume
    self.dialogueVoiceLevel = dialogueVoiceLevel
    self.surround = surround
  }

  /// No filter on.
  public static let none = AudioEnhancement()

  /// Whether every filter is off.
  public var isEmpty: Bool { !normalizesVolume && dialogueVoiceLevel == nil && surround == nil }

  /// The libavfilter chain for these options; nil when every filter is off. Dialogue
  /// enhancement works on a stereo pair and adds a centre channel, which the output's
  /// conversion mixes back into both sides.
  var filterChain: String? {
    var filters: [String] = []
    if let level = dialogueVoiceLevel {
      let clamped = min(10, max(1, level.isFinite ? level : 1))
      let enhance = String(format: "%.2f", clamped * 0.3)
      filters.append("aformat=channel_layouts=stereo")
      filters.append("dialoguenhance=original=1:enhance=\(enhance):voice=2")
    }
    if surround != nil {
      filters.append("aformat=channel_layouts=stereo")
      filters.append("extrastereo=m=2.5")
    }
    if normalizesVolume { filters.append("dynaudnorm=f=100:g=3:p=0.9:m=20") }
    return filters.isEmpty ? nil : filters.joined(separator: ",")
  }
}

/// Runs an `AudioEnhancement`'s filters over interleaved audio of one format.
///
/// `process` returns what the filters give back for a buffer: at first less than was fed
/// (they hold some back), then as much. Output timestamps follow on from the first
/// buffer's. Not `Sendable`: one thread uses it.
public final class AudioEnhancementProcessor {
  /// The format processed, in and out.
  public let format: AudioOutputFormat
  /// The options the processor runs.
  public let enhancement: AudioEnhancement
  private var graph: AudioTempoGraph?
  private var anchor = MediaTime.invalid
  private var inputFrames: Int64 = 0
  private var outputFrames: Int64 = 0

  /// Frames fed and not yet given back: how far the output lags the input (the filters'
  /// look-ahead), for the player to map what a device plays back to item time.
  public var delayFrameCount: Int { Int(max(0, inputFrames - outputFrames)) }

  /// Makes the filters for `enhancement` on `format`; throws `.invalidArgument` when every
  /// filter is off, `.decoderUnavailable` when this FFmpeg lacks one of them.
  public init(format: AudioOutputFormat, enhancement: AudioEnhancement) throws(PlayheadError) {
    guard let chain = enhancement.filterChain else {
      throw PlayheadError(.invalidArgument, "The audio enhancement has no filter on")
    }
    self.format = format
    self.enhancement = enhancement
    graph = try AudioTempoGraph(format: format, chain: chain, purpose: "audio enhancement")
  }

  /// Filters `buffer`; throws `.invalidArgument` for a buffer of another format.
  public func process(_ buffer: AudioBuffer) throws(PlayheadError) -> AudioBuffer {
    guard buffer.format == format else {
      throw PlayheadError(
        .invalidArgument, "Audio buffer format differs from the audio enhancement's")
    }
    if graph?.isFinished ?? true {
      graph = try AudioTempoGraph(
        format: format, chain: enhancement.filterChain ?? "anull", purpose: "audio enhancement")
    }
    if !anchor.isValid { anchor = buffer.pts }
    var output = Data()
    try graph?.push(buffer.samples, frameCount: buffer.frameCount, into: &output)
    inputFrames += Int64(buffer.frameCount)
    return emit(output)
  }

  /// Drains what the filters still hold; nil when nothing. The next `process` starts
  /// afresh.
  public func flush() throws(PlayheadError) -> AudioBuffer? {
    var output = Data()
    try graph?.finish(into: &output)
    let buffer = output.isEmpty ? nil : emit(output)
    anchor = .invalid
    inputFrames = 0
    outputFrames = 0
    return buffer
  }

  private func emit(_ output: Data) -> AudioBuffer {
    let frames = output.count / format.bytesPerFrame
    var pts = MediaTime.invalid
    if anchor.isNumeric {
      pts = anchor + MediaTime(value: outputFrames, timescale: Int32(clamping: format.sampleRate))
    }
    outputFrames += Int64(frames)
    return AudioBuffer(format: format, samples: output, frameCount: frames, pts: pts)
  }
}
