import Foundation
import PlayheadCore
import PlayheadMedia

/// A buffer out of the audio stages, and how far behind the item time it was fed at the
/// stages' output now runs (the look-ahead the enhancement filters hold back).
struct ProcessedAudio {
  var buffer: AudioBuffer
  var lag: MediaTime
}

extension PlaybackLoop {
  /// Sends audio through the stages, in order: the rate stage (when the rate is not 1),
  /// the enhancement filters (when on), the output channel and the volume.
  func renderAudio(_ buffer: AudioBuffer, algorithm: AudioTimePitchAlgorithm) throws(PlayheadError)
    -> ProcessedAudio
  {
    let settings = settings.value
    var output = buffer
    if rate != 1 && rate > 0 {
      if tempoKey?.rate != rate || tempoKey?.algorithm != algorithm || tempo == nil {
        tempo = try AudioTempoProcessor(
          format: buffer.format, rate: Double(rate), algorithm: algorithm)
        tempoKey = (rate, algorithm)
      }
      if let tempo { output = try tempo.process(buffer) }
    }
    output = try enhance(output, settings)
    // Frames held back at the output rate are `rate` times as much item time.
    let lagFrames = Double(enhancer?.delayFrameCount ?? 0) * Double(rate > 0 ? rate : 1)
    let lag = MediaTime(
      value: Int64(lagFrames.rounded()), timescale: Int32(clamping: output.format.sampleRate))
    applyChannelAndVolume(&output, settings)
    return ProcessedAudio(buffer: output, lag: lag)
  }

  /// Runs the enhancement filters that are on over `buffer`. A change of options drains
  /// the old filters first, so what they held back is still heard.
  private func enhance(_ buffer: AudioBuffer, _ settings: PlayerSettings) throws(PlayheadError)
    -> AudioBuffer
  {
    let enhancement = settings.audioEnhancement
    let wanted = settings.isAudioEnhancementEnabled && !enhancement.isEmpty ? enhancement : nil
    var head: AudioBuffer?
    if let current = enhancer, current.enhancement != wanted || current.format != buffer.format {
      head = try current.flush()
      enhancer = nil
    }
    if enhancer == nil, let wanted {
      enhancer = try AudioEnhancementProcessor(format: buffer.format, enhancement: wanted)
    }
    var output = buffer
    if let enhancer { output = try enhancer.process(buffer) }
    if let head, head.format == output.format {
      output = AudioBuffer(
        format: output.format, samples: head.samples + output.samples,
        frameCount: head.frameCount + output.frameCount, pts: head.pts)
    }
    return output
  }

  /// What the enhancement filters still hold, channel-routed and at the volume, for the
  /// end of an item's audio; the filters start afresh after.
  func drainAudioStages() throws(PlayheadError) -> AudioBuffer? {
    guard let current = enhancer else { return nil }
    enhancer = nil
    guard var tail = try current.flush() else { return nil }
    applyChannelAndVolume(&tail, settings.value)
    return tail
  }

  /// The last two stages: the output channel, then the volume (silence when muted).
  private func applyChannelAndVolume(_ buffer: inout AudioBuffer, _ settings: PlayerSettings) {
    buffer.route(settings.audioOutputChannel)
    let gain: Float = settings.isMuted ? 0 : settings.volume
    if gain != 1 { buffer.applyGain(gain) }
  }

  /// Drops the stages' state (after a seek): the filters start afresh on the new audio.
  func resetAudioStages() {
    tempo = nil
    enhancer = nil
  }
}

extension AudioBuffer {
  /// Scales every sample by `gain` (0 silences), clamping 16-bit samples.
  mutating func applyGain(_ gain: Float) {
    switch format.sampleFormat {
    case .int16:
      samples.withUnsafeMutableBytes { raw in
        for index in raw.bindMemory(to: Int16.self).indices {
          let pointer = raw.bindMemory(to: Int16.self)
          let scaled = (Float(pointer[index]) * gain).rounded()
          pointer[index] = Int16(max(-32768, min(32767, scaled)))
        }
      }
    case .float32:
      samples.withUnsafeMutableBytes { raw in
        let pointer = raw.bindMemory(to: Float.self)
        for index in pointer.indices { pointer[index] *= gain }
      }
    }
  }

  /// Keeps only the left (or right) output channel, silencing the others (seed 003's
  /// `AVP_AUDIO_CHANNEL_LEFT`: "plays only the left audio channel"); `.both`, and a mono
  /// output, leave the buffer as it is.
  mutating func route(_ mode: AudioChannelMode) {
    let channels = format.channels
    guard mode != .both, channels >= 2 else { return }
    let kept = mode == .left ? 0 : 1
    switch format.sampleFormat {
    case .int16: Self.silenceAll(but: kept, of: channels, in: &samples, as: Int16.self)
    case .float32: Self.silenceAll(but: kept, of: channels, in: &samples, as: Float.self)
    }
  }

  private static func silenceAll<Sample: Numeric>(
    but kept: Int, of channels: Int, in samples: inout Data, as: Sample.Type
  ) {
    samples.withUnsafeMutableBytes { raw in
      let pointer = raw.bindMemory(to: Sample.self)
      var frame = 0
      while frame + channels <= pointer.count {
        for channel in 0..<channels where channel != kept { pointer[frame + channel] = .zero }
        frame += channels
      }
    }
  }
}
