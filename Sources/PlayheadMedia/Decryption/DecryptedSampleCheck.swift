import CFFmpeg
import PlayheadCore

/// Tells a wrong key from a right one by trial-decoding the first decrypted samples of
/// each key: a wrongly decrypted sample is noise, which a decoder that stops at the first
/// error (`err_recognition` `AV_EF_EXPLODE`, no concealment) refuses, while rightly
/// decrypted samples decode cleanly. Reusable by every decryptor of a demuxer's packets
/// (CENC, SAMPLE-AES).
///
/// For each stream and key, a private decoder is fed the first `videoSamplesPerKey`
/// samples of a video stream, from the key's first keyframe on, or the first
/// `audioSamplesPerKey` samples of an audio stream, in the order the demuxer reads them;
/// then it is freed and later samples of that key pass unchecked (the cost is a few
/// decodes per key, not per sample). A video sample before the key's first keyframe passes
/// unchecked (no decoder can judge a frame without its references). A stream of another
/// kind, or whose codec FFmpeg cannot decode, is not checked. A sample that fails throws
/// `.decryptionFailed` naming the stream and the key, before the sample reaches the real
/// decoder. A video keyframe inside a window (after a seek) restarts its decoder.
///
/// Edge cases: damage in the clear source itself reads as a wrong key; a wrong key whose
/// noise decodes cleanly passes. Measured on the `Fixtures/cenc` streams (1,000 wrong keys
/// each, `DecryptedSampleCheckTests`): one H.264 keyframe alone let 1 wrong `cbcs` key
/// through (CABAC decodes much noise without complaint); a window of 4 samples let none
/// through; one AAC frame let none through.
///
/// Example:
/// ```swift
/// let check = DecryptedSampleCheck(demuxer: demuxer)
/// try check.verify(packet, stream: stream, keyName: "key ID \(SampleKeyID.describe(keyID))")
/// ```
public final class DecryptedSampleCheck: Sendable {
  /// How many samples of an audio stream are decoded for each key.
  public let audioSamplesPerKey: Int
  /// How many samples of a video stream, from the key's first keyframe, are decoded for
  /// each key.
  public let videoSamplesPerKey: Int
  private let demuxer: Locked<WeakDemuxer>
  /// How many checked keys are remembered before the passed ones are forgotten.
  static let rememberedKeys = 512
  /// The checks under way and done, by stream index and key name.
  private let progress = Locked<[CheckedKey: Progress]>([:])

  /// Checks packets of `demuxer` (held weakly: the demuxer owns its decryptor, which owns
  /// this check). Counts below 1 are taken as 1.
  public init(demuxer: Demuxer, audioSamplesPerKey: Int = 3, videoSamplesPerKey: Int = 8) {
    self.demuxer = Locked(WeakDemuxer(demuxer: demuxer))
    self.audioSamplesPerKey = max(1, audioSamplesPerKey)
    self.videoSamplesPerKey = max(1, videoSamplesPerKey)
  }

  /// Trial-decodes `packet` (decrypted with the key `keyName` names, e.g. "key ID …")
  /// when it is one of the first samples of that key on `stream`; throws
  /// `.decryptionFailed` when the samples so far do not decode cleanly. Call on the
  /// demuxer's reading thread, for every decrypted packet, in the order they are read.
  public func verify(_ packet: Packet, stream: StreamInfo, keyName: String)
    throws(PlayheadError)
  {
    let window: Int
    switch stream.kind {
    case .video: window = videoSamplesPerKey
    case .audio: window = audioSamplesPerKey
    default: return
    }
    let key = CheckedKey(stream: stream.index, keyName: keyName)
    let current = progress.withLock { $0[key] }
    let trial: TrialDecoderBox
    switch current {
    case .passed: return
    case .checking(let box): trial = box
    case nil:
      guard stream.kind != .video || packet.isKeyframe else { return }
      guard let decoder = try makeDecoder(streamIndex: stream.index) else {
        progress.withLock { $0[key] = .passed }
        return
      }
      trial = TrialDecoderBox(decoder: decoder)
    }
    // A keyframe within the window (after a seek) starts a new sequence for the decoder.
    if trial.fed > 0 && stream.kind == .video && packet.isKeyframe { trial.decoder.restart() }
    var failure = trial.decoder.feed(packet)
    trial.fed += 1
    let done = failure != nil || trial.fed >= window
    if failure == nil && done { failure = trial.decoder.finish() }
    progress.withLock { progress in
      progress[key] = done ? (failure == nil ? .passed : nil) : .checking(trial)
      // Keys that passed are forgotten past a bound (a label per segment would otherwise
      // grow without end); one seen again is checked again.
      if progress.count > Self.rememberedKeys {
        progress = progress.filter { entry in
          if case .passed = entry.value { return entry.key == key }
          return true
        }
      }
    }
    if let failure {
      throw PlayheadError(
        .decryptionFailed,
        "\(stream.kind.rawValue.capitalized) stream \(stream.index) (\(stream.codecName)) "
          + "decrypted with \(keyName) does not decode (\(failure)): the key is wrong")
    }
  }

  private func makeDecoder(streamIndex: Int) throws(PlayheadError) -> TrialDecoder? {
    guard let owner = demuxer.withLock({ $0.demuxer }),
      let avStream = owner.format.stream(streamIndex),
      let parameters = avStream.pointee.codecpar
    else { return nil }
    return try TrialDecoder(parameters: parameters)
  }
}

/// A stream and the key its samples were decrypted with.
private struct CheckedKey: Hashable, Sendable {
  var stream: Int
  var keyName: String
}

/// Where the check of one stream and key stands.
private enum Progress: Sendable {
  case checking(TrialDecoderBox)
  case passed
}

/// A trial decoder and the samples it was fed.
private final class TrialDecoderBox: @unchecked Sendable {
  // Unchecked Sendable: used only on the demuxer's reading thread, the one that calls
  // `verify`; the `Locked` dictionary only stores it between calls.
  let decoder: TrialDecoder
  var fed = 0

  init(decoder: TrialDecoder) { self.decoder = decoder }
}

/// The demuxer a check reads codec parameters from, held weakly.
private struct WeakDemuxer: Sendable {
  weak var demuxer: Demuxer?
}
