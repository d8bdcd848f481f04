import CSDL2
import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia

/// Plays audio on an SDL audio device (the sound card, or whatever `SDL_AUDIODRIVER` names)
/// and is the player's media clock while it plays (`ClockedAudioSink`).
///
/// It uses SDL's queue API: `write` queues the samples, SDL's audio thread takes them a
/// device buffer at a time, and `progress()` counts as played every frame that left the
/// queue, with the device buffer (`bufferFrameCount` frames) as the latency. The device
/// may grant another rate or channel count than asked for; `format` is what it granted,
/// and the player resamples to it. Volume and mute are applied by the player before it
/// writes. A new output starts paused; the player resumes it when it plays.
///
/// ```swift
/// let output = try SDLAudioOutput()
/// let player = Player(url: url, configuration: PlayerConfiguration(audioSink: output))
/// ```
public final class SDLAudioOutput: ClockedAudioSink, Sendable {
  public let format: AudioOutputFormat
  public let queueTarget: MediaTime
  /// Frames in one device buffer: how many SDL hands the device at a time.
  public let bufferFrameCount: Int
  /// The SDL audio driver playing the device (`pulseaudio`, `alsa`, `disk`, …).
  public let driverName: String
  private let latency: MediaTime
  private let state: Locked<State>

  /// The open device and the counts since the last flush.
  private struct State: Sendable {
    /// Zero once finished.
    var device: SDL_AudioDeviceID
    var paused = true
    var writtenSinceFlush = 0
    var totalWritten = 0
  }

  /// Opens the audio device `deviceName` (nil: the default one) for `format`, paused.
  ///
  /// The device may change the rate and the channel count (never the sample format);
  /// `format` then reports what it granted. `bufferFrameCount` is the device buffer asked
  /// for (SDL rounds it to what the driver takes); the player keeps `queueTarget` of audio
  /// written ahead. Throws `.invalidArgument` for a format or sizes out of range, and
  /// `.ioError` with SDL's message when no driver starts or the device cannot be opened.
  public init(
    format: AudioOutputFormat = AudioOutputFormat(
      sampleRate: 48_000, channels: 2, sampleFormat: .int16),
    deviceName: String? = nil, bufferFrameCount: Int = 1024,
    queueTarget: MediaTime = MediaTime(value: 1, timescale: 5)
  ) throws(PlayheadError) {
    guard format.isValid, (1...65_535).contains(bufferFrameCount), queueTarget.isNumeric,
      queueTarget > .zero
    else {
      throw PlayheadError(
        .invalidArgument,
        "Cannot open an audio device for \(format.sampleRate) Hz, \(format.channels) channels,"
          + " a \(bufferFrameCount)-frame buffer and a \(queueTarget.seconds) s queue")
    }
    try SDLRuntime.shared.acquire(.audio)
    let opened: (device: SDL_AudioDeviceID, spec: SDL_AudioSpec)
    do {
      opened = try Self.open(deviceName: deviceName, format: format, bufferFrames: bufferFrameCount)
    } catch {
      SDLRuntime.shared.release(.audio)
      throw error
    }
    self.format = AudioOutputFormat(
      sampleRate: Int(opened.spec.freq), channels: Int(opened.spec.channels),
      sampleFormat: format.sampleFormat)
    self.bufferFrameCount = Int(opened.spec.samples)
    self.queueTarget = queueTarget
    self.latency = MediaTime(value: Int64(opened.spec.samples), timescale: opened.spec.freq)
    self.driverName = SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "unknown"
    state = Locked(State(device: opened.device))
  }

  deinit {
    try? finish()
  }

  public func write(_ buffer: AudioBuffer) throws(PlayheadError) {
    guard buffer.format == format else {
      throw PlayheadError(
        .invalidArgument,
        "The audio device plays \(format.sampleRate) Hz, \(format.channels) channels; "
          + "got a buffer of \(buffer.format.sampleRate) Hz, \(buffer.format.channels) channels")
    }
    let frames = min(buffer.frameCount, buffer.samples.count / format.bytesPerFrame)
    guard frames > 0 else { return }
    let bytes = frames * format.bytesPerFrame
    try state.withLock { (state) throws(PlayheadError) in
      guard state.device != 0 else {
        throw PlayheadError(.invalidState, "The SDL audio output was already finished")
      }
      let device = state.device
      let queued = buffer.samples.withUnsafeBytes { raw in
        SDL_QueueAudio(device, raw.baseAddress, UInt32(bytes))
      }
      if queued != 0 {
        throw PlayheadError(
          .ioError, "SDL could not queue audio on the device: \(SDLRuntime.lastError)")
      }
      state.writtenSinceFlush += frames
      state.totalWritten += frames
    }
  }

  /// Closes the device; later writes throw `.invalidState`. Calling it again does nothing.
  public func finish() throws(PlayheadError) {
    let device = state.withLock { state in
      let device = state.device
      state.device = 0
      return device
    }
    guard device != 0 else { return }
    SDL_CloseAudioDevice(device)
    SDLRuntime.shared.release(.audio)
  }

  /// Frames written since the last flush less those still in SDL's queue; the latency is
  /// the device buffer. After `finish()` the count stays where it was.
  public func progress() -> AudioOutputProgress {
    let bytesPerFrame = format.bytesPerFrame
    let played = state.withLock { state in
      guard state.device != 0 else { return state.writtenSinceFlush }
      let queued = Int(SDL_GetQueuedAudioSize(state.device)) / bytesPerFrame
      return max(0, state.writtenSinceFlush - queued)
    }
    return AudioOutputProgress(playedFrameCount: played, latency: latency)
  }

  public func setPaused(_ paused: Bool) {
    state.withLock { state in
      guard state.device != 0, state.paused != paused else { return }
      state.paused = paused
      SDL_PauseAudioDevice(state.device, paused ? 1 : 0)
    }
  }

  /// Drops the queued audio and starts the played count again at zero; the device buffer
  /// SDL already took (at most `bufferFrameCount` frames) still plays out.
  public func flush() {
    state.withLock { state in
      if state.device != 0 { SDL_ClearQueuedAudio(state.device) }
      state.writtenSinceFlush = 0
    }
  }

  /// Whether the device is paused.
  public var isPaused: Bool { state.withLock { $0.paused } }

  /// Frames written and still in SDL's queue (0 once finished).
  public var queuedFrameCount: Int {
    let bytesPerFrame = format.bytesPerFrame
    return state.withLock { state in
      guard state.device != 0 else { return 0 }
      return Int(SDL_GetQueuedAudioSize(state.device)) / bytesPerFrame
    }
  }

  /// Frames written since the output was opened, across flushes.
  public var totalWrittenFrameCount: Int { state.withLock { $0.totalWritten } }

  /// Opens the device paused, allowing SDL to change the rate and channel count; when it
  /// grants a format the player cannot produce, opens it again for exactly `format`.
  private static func open(deviceName: String?, format: AudioOutputFormat, bufferFrames: Int)
    throws(PlayheadError) -> (device: SDL_AudioDeviceID, spec: SDL_AudioSpec)
  {
    var desired = SDL_AudioSpec()
    desired.freq = Int32(format.sampleRate)
    desired.format =
      format.sampleFormat == .float32 ? CSDL2_AUDIO_F32SYS() : CSDL2_AUDIO_S16SYS()
    desired.channels = UInt8(format.channels)
    desired.samples = UInt16(bufferFrames)
    let changes = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE)
    for allowed in [changes, 0] {
      var obtained = SDL_AudioSpec()
      let device = SDL_OpenAudioDevice(deviceName, 0, &desired, &obtained, allowed)
      guard device != 0 else {
        let name = deviceName.map { "'\($0)'" } ?? "the default audio device"
        throw PlayheadError(.ioError, "SDL could not open \(name): \(SDLRuntime.lastError)")
      }
      let granted = AudioOutputFormat(
        sampleRate: Int(obtained.freq), channels: Int(obtained.channels),
        sampleFormat: format.sampleFormat)
      if granted.isValid && obtained.samples > 0 { return (device, obtained) }
      SDL_CloseAudioDevice(device)
    }
    throw PlayheadError(
      .ioError, "SDL opened the audio device only in a format Playhead cannot produce")
  }
}
