import Foundation
import PlayheadCore
import PlayheadMedia

/// The audio renderer: writes the loader's decoded audio to the audio sink, through the
/// audio stages (rate, enhancement filters, output channel, volume), and, when the sink is
/// a device with a clock of its own (`ClockedAudioSink`), provides the playback position
/// from what the device has played.
///
/// To a plain sink a buffer is written when the position reaches it. To a clocked sink
/// audio is written `queueTarget` ahead of the position, and the position is the item
/// time of the frame being heard: the device's played count, less its latency, mapped
/// through the spans of item time written (`AudioOutputLedger`).
final class AudioRenderer: TrackRenderer, MediaClock {
  let trackType = TrackType.audio
  private let loader: ItemLoader
  private let sink: (any AudioSink)?
  private let device: (any ClockedAudioSink)?
  /// The audio stages (rate, enhancement, channel, volume), applied to each buffer before
  /// it is written, with the lag they leave.
  private let process: (AudioBuffer) throws(PlayheadError) -> ProcessedAudio
  private var ledger = AudioOutputLedger()
  /// Gives what the stages still hold once the item's audio has all been fed.
  private let drain: () throws(PlayheadError) -> AudioBuffer?
  /// How far behind the item time the stages' output ran after the last buffer.
  private var stageLag: MediaTime = .zero
  /// Whether the stages were drained at the end of the item's audio.
  private var stagesDrained = false
  private var devicePaused = true
  /// Whether the device was flushed for this item: it may still hold the tail of the
  /// previous item until this one writes.
  private var deviceFlushed = false
  /// The end of the last audio written (the audio clock's limit).
  private(set) var lastEnd: MediaTime = .zero
  /// The end of the last audio written since the last reset; nil before any.
  private(set) var writtenEnd: MediaTime?
  private var framesWritten = 0
  /// Buffers written so far (the first one is the first presentation of audio-only media).
  private(set) var buffersWritten = 0
  /// Frames the device played before its last flush.
  private var framesPlayedBeforeFlush = 0
  /// The forward end of the last render: audio at or after it is never written.
  private var forwardEnd: MediaTime?

  init(
    loader: ItemLoader, sink: (any AudioSink)?,
    process: @escaping (AudioBuffer) throws(PlayheadError) -> ProcessedAudio,
    drain: @escaping () throws(PlayheadError) -> AudioBuffer?
  ) {
    self.loader = loader
    self.drain = drain
    self.sink = sink
    self.device = sink as? any ClockedAudioSink
    self.process = process
    // Not paused here: a device starts paused, and the renderer of an item loaded ahead
    // must not pause the device the current item plays on.
  }

  /// Whether the device's clock leads the position.
  var isClocked: Bool { device != nil }

  /// Sample frames played: the device's count for a clocked sink, else those written.
  var samplesPlayed: Int {
    guard let device, deviceFlushed else { return framesWritten }
    return framesPlayedBeforeFlush + device.progress().playedFrameCount
  }

  /// How far ahead of the position audio is written.
  private var writeAhead: MediaTime { device?.queueTarget ?? .zero }

  /// The stages' lag, for a clocked sink: how much audio fed to them the device has not
  /// been given yet.
  private var deviceStageLag: MediaTime { device == nil ? .zero : stageLag }

  /// Writes every buffer due by `position` (plus the write-ahead of a clocked sink). Audio
  /// at or after the forward end is never due, and a buffer that crosses it is cut there,
  /// as video frames are never shown at or after it. Returns the next item time at which
  /// audio falls due: the next queued buffer, or for a clocked sink the time at which
  /// what is written runs down to half the write-ahead.
  func render(at position: MediaTime, context: RenderContext) throws(PlayheadError) -> MediaTime? {
    // What the stages hold back is not yet on the device: write that much further ahead.
    let horizon = position + PlaybackLoop.dueTolerance + writeAhead + deviceStageLag
    let end = context.forwardEnd
    forwardEnd = end
    while let queued = loader.peekAudio(), queued.pts <= horizon,
      end.map({ queued.pts < $0 }) ?? true
    {
      loader.popAudio()
      let cut: AudioBuffer?
      if let end { cut = queued.trimmed(before: end) } else { cut = queued }
      guard let next = cut else { continue }
      let nextEnd = next.pts + next.mediaDuration
      lastEnd = max(lastEnd, nextEnd)
      writtenEnd = nextEnd
      let processed = try process(next)
      let output = processed.buffer
      if let device, !deviceFlushed {
        deviceFlushed = true
        device.flush()
      }
      if output.frameCount > 0 {
        try sink?.write(output)
        // What the filters held back is heard later: the frames written now carry the
        // item time from where the last ones ended to this buffer's end less the lag.
        let spanStart = next.pts - stageLag
        let spanEnd = max(spanStart, nextEnd - processed.lag)
        ledger.append(itemStart: spanStart, itemEnd: spanEnd, frameCount: output.frameCount)
      }
      stageLag = processed.lag
      framesWritten += output.frameCount
      buffersWritten += 1
    }
    try drainStagesAtEnd()
    if let device, devicePaused && context.isPlaying {
      devicePaused = false
      device.setPaused(false)
    }
    return nextDue(after: position)
  }

  /// Writes what the stages hold back once the last of the item's audio went through them.
  private func drainStagesAtEnd() throws(PlayheadError) {
    guard !stagesDrained, let end = writtenEnd, stageLag > .zero, loader.peekAudio() == nil,
      loader.queuedEnds().audioEnded
    else { return }
    stagesDrained = true
    guard let tail = try drain(), tail.frameCount > 0 else { return }
    try sink?.write(tail)
    ledger.append(itemStart: end - stageLag, itemEnd: end, frameCount: tail.frameCount)
    stageLag = .zero
    framesWritten += tail.frameCount
  }

  /// The item time at which audio next falls due (see `render(at:context:)`), without
  /// writing anything.
  func nextDue(after position: MediaTime) -> MediaTime? {
    guard device != nil else { return loader.peekAudio()?.pts }
    var candidates: [MediaTime] = []
    if let next = loader.peekAudio()?.pts {
      candidates.append(next - writeAhead - deviceStageLag)
    }
    if let writtenEnd {
      candidates.append(
        writtenEnd - deviceStageLag - writeAhead.multiplied(byRatio: 1, denominator: 2))
    }
    return candidates.min()
  }

  func isReady(at position: MediaTime) -> Bool {
    loader.peekAudio() != nil || loader.queuedEnds().audioEnded
  }

  var isEnded: Bool {
    let queued = loader.queuedEnds()
    guard queued.audioEnded && queued.audio == nil else { return false }
    guard let device else { return true }
    return device.progress().playedFrameCount >= ledger.frameCount
  }

  /// The item time being heard, for a clocked sink; nil before anything was written and
  /// once the device has played all of it with no more audio to come (the player's clock
  /// leads then). No more comes when the audio ended, or when what is written reaches the
  /// forward end or the next buffer starts at or after it: the heard position stops a
  /// latency short of the end, and the player's clock carries it there.
  func playbackPosition() -> MediaTime? {
    guard let device, !ledger.isEmpty else { return nil }
    let progress = device.progress()
    if progress.playedFrameCount >= ledger.frameCount && !moreAudioToWrite {
      return nil
    }
    return ledger.heardPosition(progress, sampleRate: sink?.format.sampleRate ?? 48_000)
  }

  /// Whether audio remains to be written before the end (the media's or the forward end).
  private var moreAudioToWrite: Bool {
    if let end = forwardEnd {
      if let writtenEnd, writtenEnd + PlaybackLoop.dueTolerance >= end { return false }
      if let next = loader.peekAudio(), next.pts >= end { return false }
    }
    return !loader.queuedEnds().audioEnded
  }

  /// Pauses or resumes a clocked sink with the playback (paused, stalled, waiting).
  func setPlaying(_ playing: Bool) {
    guard let device, devicePaused == playing else { return }
    devicePaused = !playing
    device.setPaused(!playing)
  }

  func reset(to position: MediaTime) {
    lastEnd = position
    writtenEnd = nil
    stageLag = .zero
    stagesDrained = false
    guard let device else { return }
    if deviceFlushed { framesPlayedBeforeFlush += device.progress().playedFrameCount }
    deviceFlushed = true
    device.flush()
    ledger = AudioOutputLedger()
  }

  func disable() {
    guard let device, deviceFlushed else { return }
    framesPlayedBeforeFlush += device.progress().playedFrameCount
    device.setPaused(true)
    device.flush()
    ledger = AudioOutputLedger()
  }
}
