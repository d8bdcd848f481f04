import Foundation
import PlayheadCore
import PlayheadMedia

/// What one step of decoding produced.
struct DecodeOutput {
  var videoFrames: [TimedVideoFrame] = []
  var audioBuffers: [AudioBuffer] = []
  /// Set once the video (or audio) decoder has been drained at the end of the stream.
  var videoEnded = false
  var audioEnded = false
  /// Item time up to which packets have been demuxed.
  var demuxedUpTo: MediaTime?
  /// Where the current seek landed, once decided.
  var resolvedSeekTime: MediaTime?
  var recoverableErrors: [PlayheadError] = []
  /// Audio sample frames that came out of the decoder (before resampling).
  var audioSamplesDecoded = 0
  /// Events of the file's text subtitle streams demuxed in this step, on the item timeline.
  var textEvents: [EmbeddedTextEvent] = []
}

/// The demuxer, decoders and resampler of one item, used only by its loader thread.
///
/// Places every frame on the item's timeline (stream time minus the container's start
/// time) and applies the accurate-seek rule: after a seek to `target` with zero
/// tolerance the first frame kept is the one with the greatest time ≤ `target`.
final class DecodePipeline {
  let demuxer: Demuxer
  let videoStream: StreamInfo?
  /// The audio stream decoded; `switchAudio(toStream:at:seekPending:)` changes it.
  private(set) var audioStream: StreamInfo?
  private let videoDecoder: VideoDecoder?
  private var audioDecoder: AudioDecoder?
  private var resampler: AudioResampler?
  private let audioFormat: AudioOutputFormat
  private let audioChannel: AudioChannelMode
  private let startTime: MediaTime
  /// The item time of the container's start (0 for progressive media; the first
  /// segment's start for a run of HLS segments).
  let itemStart: MediaTime
  let nominalFrameDuration: MediaTime
  private var nextAudioTime: MediaTime?
  private var filter: SeekFilter?
  private var consecutiveDecodeErrors = 0
  /// Re-bases unmarked timestamp jumps (decided on packets, applied to frames); nil when
  /// the run's timestamps are taken as they are.
  private var rebaser: TimestampRebaser?
  /// The decoders of the text subtitle streams read along (a file's subtitle streams).
  private var textDecoders: [Int: SubtitleDecoder] = [:]
  /// Text events read back before a seek's target, handed over with the next step.
  private var prerollTextEvents: [EmbeddedTextEvent] = []

  /// Opens decoders for the streams `settings` enables. With `requiresStream` false a run
  /// with none of them (a variant without video whose audio comes from an alternate
  /// rendition) makes a pipeline that is finished at once. With a
  /// `timestampJumpThreshold`, a timestamp that jumps by more than it (backwards or
  /// forwards) is re-based so that its stream goes on where it was (`TimestampRebaser`).
  /// `audioStreamIndex` names the audio stream to decode (one of a file's audio streams);
  /// nil, or an index that is not an audio stream, decodes the demuxer's default one.
  /// The text subtitle streams in `textStreamIndexes` are decoded as they are demuxed
  /// (`DecodeOutput.textEvents`); one whose decoder cannot open is left out.
  init(
    demuxer: Demuxer, settings: LoaderSettings, itemStart: MediaTime = .zero,
    requiresStream: Bool = true, timestampJumpThreshold: MediaTime? = nil,
    audioStreamIndex: Int? = nil, textStreamIndexes: [Int] = []
  ) throws(PlayheadError) {
    self.demuxer = demuxer
    self.itemStart = itemStart
    rebaser = timestampJumpThreshold.map(TimestampRebaser.init(threshold:))
    let video = settings.decodesVideo ? demuxer.bestStream(of: .video) : nil
    let chosenAudio = audioStreamIndex.flatMap { Self.audioStream($0, of: demuxer) }
    let audio = settings.decodesAudio ? chosenAudio ?? demuxer.bestStream(of: .audio) : nil
    if video == nil && audio == nil && requiresStream {
      throw PlayheadError(
        .noPlayableStreams,
        "no stream to play in \(demuxer.containerName) media with the enabled outputs"
          + (settings.decodesVideo ? "" : " (video disabled)")
          + (settings.decodesAudio ? "" : " (audio disabled)"))
    }
    videoStream = video
    audioStream = audio
    videoDecoder = try video.map { stream throws(PlayheadError) in
      try demuxer.makeVideoDecoder(
        streamIndex: stream.index, threadCount: settings.decoderThreadCount)
    }
    audioDecoder = try audio.map { stream throws(PlayheadError) in
      try demuxer.makeAudioDecoder(streamIndex: stream.index)
    }
    audioFormat = settings.audioFormat
    audioChannel = settings.audioChannel
    resampler = audio.map { [audioFormat, audioChannel] _ in
      AudioResampler(output: audioFormat, channelMode: audioChannel)
    }
    startTime = demuxer.startTime.isNumeric ? demuxer.startTime : .zero
    if let rate = video?.frameRate, rate > 0, rate.isFinite {
      nominalFrameDuration = MediaTime(seconds: 1 / rate, preferredTimescale: 90_000)
    } else {
      nominalFrameDuration = MediaTime(value: 40, timescale: 1000)
    }
    for index in textStreamIndexes {
      textDecoders[index] = try? demuxer.makeSubtitleDecoder(streamIndex: index)
    }
  }

  /// Whether the video (audio) decoder of this run has given all it has.
  var isVideoDrained: Bool { videoDecoder == nil || videoDrained }
  var isAudioDrained: Bool { audioDecoder == nil || audioDrained }

  /// Whether the run's audio has all been given: its input ended without an error and the
  /// audio decoder drained (the video may still hold frames in its decoder).
  var hasGivenAllAudio: Bool {
    demuxEnded && terminalError == nil && isAudioDrained
  }

  /// Whether every decoder of this run has been drained: the run has given all it has.
  var isFinished: Bool {
    (videoDecoder == nil || videoDrained) && (audioDecoder == nil || audioDrained)
  }

  /// The item time of a stream timestamp.
  func itemTime(_ pts: MediaTime) -> MediaTime { pts - startTime + itemStart }

  /// How many unmarked timestamp jumps this run re-based.
  var rebasedJumpCount: Int { rebaser?.jumpCount ?? 0 }

  /// The item time of a decoded sample of `stream`, re-based past unmarked jumps.
  private func placedTime(_ pts: MediaTime, duration: MediaTime, stream: Int) -> MediaTime {
    let time = itemTime(pts)
    guard var rebaser else { return time }
    let shift = rebaser.shift(forFrameAt: time, duration: duration, stream: stream)
    self.rebaser = rebaser
    return time + shift
  }

  /// Applies the accurate-seek rule to a run that already starts at or before the
  /// target (a run of HLS segments opened at the target's segment).
  func filter(from request: SeekRequest) {
    filter = SeekFilter(request: request, hasVideo: videoStream != nil)
  }

  /// Stops decoding audio (an alternate rendition takes over): queued audio packets and
  /// audio held for a seek are dropped, and the audio stream counts as drained.
  func disableAudio() {
    while takePacket(from: &audioPackets) != nil {}
    pendingAudio.removeAll()
    audioDrained = true
  }

  /// Drops decoded audio before `time` (where an alternate rendition's audio starts to
  /// play) without deciding where a seek lands.
  func startAudio(at time: MediaTime) {
    audioFloor = time
  }

  /// Moves decoding to `request.target`, keyframe first, then filters up to the target.
  ///
  /// With text subtitle streams read along, the packets of `ProgressiveText.seekPreroll`
  /// before the target are read first (not decoded, but for the subtitles), so that a cue
  /// that started before the keyframe and is still showing at the target is found.
  func seek(_ request: SeekRequest) throws(PlayheadError) {
    let streamIndex = videoStream?.index ?? audioStream?.index
    let containerTarget = request.target - itemStart + startTime
    if !textDecoders.isEmpty {
      prerollText(before: containerTarget, streamIndex: streamIndex)
    }
    try demuxer.seek(to: containerTarget, streamIndex: streamIndex)
    videoDecoder?.flush()
    audioDecoder?.flush()
    _ = try? resampler?.flush()
    nextAudioTime = nil
    videoPackets.removeAll()
    audioPackets.removeAll()
    queuedPacketBytes = 0
    demuxEnded = false
    videoDrained = false
    audioDrained = false
    lastVideoTime = nil
    lastVideoPacket = nil
    videoResync = nil
    videoFloor = nil
    audioFloor = nil
    pendingAudio.removeAll()
    filter = SeekFilter(request: request, hasVideo: videoStream != nil)
    // The demuxer jumped on purpose: the timestamps after it are not a jump to re-base.
    rebaser = rebaser.map { TimestampRebaser(threshold: $0.threshold) }
  }

  /// Reads the packets from the keyframe before `target` less the preroll up to `target`
  /// (container time) and keeps the subtitle events among them. A failure to read there
  /// only leaves those cues out: the seek itself follows.
  private func prerollText(before target: MediaTime, streamIndex: Int?) {
    var bytes = 0
    do throws(PlayheadError) {
      try demuxer.seek(to: target - ProgressiveText.seekPreroll, streamIndex: streamIndex)
      while bytes < Self.packetByteLimit, let packet = try demuxer.readPacket() {
        if packet.pts.isNumeric && packet.pts >= target { break }
        bytes += packet.size
        prerollTextEvents += textEvents(of: packet) ?? []
      }
    } catch {
      return
    }
  }

  /// The events of `packet` on the item timeline when it is a packet of a text stream read
  /// along; nil for other packets.
  private func textEvents(of packet: Packet) -> [EmbeddedTextEvent]? {
    guard let decoder = textDecoders[packet.streamIndex] else { return nil }
    return decoder.decode(packet).map { event in
      let start = itemTime(event.start)
      let end = event.end.map(itemTime) ?? start + ProgressiveText.fallbackCueDuration
      return EmbeddedTextEvent(
        streamIndex: packet.streamIndex, start: start, end: end, text: event.text)
    }
  }

  /// Decodes the audio of stream `index` from `time` on instead of the current audio
  /// stream (another audio stream of the same file), without disturbing the video.
  ///
  /// The demuxer moves back to the keyframe at or before `time`; the video packets read
  /// again, up to the last one demuxed before the switch, are dropped, so the video decoder
  /// goes on where it was; the new stream's audio before `time` is dropped. With
  /// `seekPending` only the decoder changes (the seek that follows moves everything), and a
  /// seek that has not decided where it lands starts again. Throws, changing nothing, when
  /// `index` is not an audio stream or its decoder cannot open; a failed demuxer seek
  /// throws too.
  func switchAudio(toStream index: Int, at time: MediaTime, seekPending: Bool)
    throws(PlayheadError)
  {
    guard let stream = Self.audioStream(index, of: demuxer) else {
      throw PlayheadError(
        .invalidArgument, "stream \(index) of \(demuxer.url.absoluteString) is not audio",
        url: demuxer.url)
    }
    let decoder = try demuxer.makeAudioDecoder(streamIndex: index)
    let pendingFilter = filter
    if !seekPending && pendingFilter == nil {
      try demuxer.seek(
        to: time - itemStart + startTime, streamIndex: videoStream?.index ?? index)
    }
    audioStream = stream
    audioDecoder = decoder
    resampler = AudioResampler(output: audioFormat, channelMode: audioChannel)
    nextAudioTime = nil
    while takePacket(from: &audioPackets) != nil {}
    pendingAudio.removeAll()
    audioDrained = false
    if seekPending { return }
    if let pendingFilter {
      try seek(pendingFilter.request)
      return
    }
    demuxEnded = false
    audioFloor = time
    guard let videoDecoder, !videoDrained, let last = lastVideoPacket else { return }
    if last.canTell {
      videoResync = last
    } else {
      // Nothing tells which packets were read: decode the video again from the keyframe
      // and drop the frames up to the last one decoded.
      videoDecoder.flush()
      while takePacket(from: &videoPackets) != nil {}
      videoFloor = lastVideoTime
    }
  }

  /// The audio stream with container index `index`, if there is one.
  private static func audioStream(_ index: Int, of demuxer: Demuxer) -> StreamInfo? {
    demuxer.streams.first { $0.index == index && $0.kind == .audio }
  }

  /// Compressed packets demuxed but not yet decoded, per stream.
  private var videoPackets: [Packet] = []
  private var audioPackets: [Packet] = []
  private var queuedPacketBytes = 0
  private var demuxEnded = false
  /// A read error that ended the input early; reported once the decoders are drained.
  private(set) var terminalError: PlayheadError?
  private var videoDrained = false
  private var audioDrained = false
  /// The last video packet demuxed since the last seek.
  private var lastVideoPacket: PacketMark?
  /// After an audio stream switch moved the demuxer back: the video packets up to here
  /// were read before, and are dropped.
  private var videoResync: PacketMark?
  /// After a switch that could not tell the packets read before: video frames up to here
  /// were delivered before, and are dropped.
  private var videoFloor: MediaTime?
  /// Compressed bytes held while looking for the packets of a stream that is needed;
  /// past this the needed stream is taken to have ended (a stream that stops early).
  static let packetByteLimit = 64 << 20

  /// Does one unit of work towards the streams that are `need`ed: decodes one queued
  /// packet of a needed stream, drains a needed decoder at the end, or demuxes one packet.
  func step(needVideo: Bool, needAudio: Bool) throws(PlayheadError) -> DecodeOutput {
    var output = DecodeOutput()
    output.textEvents = prerollTextEvents
    prerollTextEvents = []
    let wantsVideo = needVideo && videoDecoder != nil && !videoDrained
    let wantsAudio = needAudio && audioDecoder != nil && !audioDrained
    if demuxEnded && (wantsVideo || wantsAudio) {
      // The end of the input: what is left is decoded one packet a step, as before the
      // end, so the decoded queues stay within their bounds (decoding it all at once held
      // every frame still queued, about 18 MB more at 1080p); then each decoder drains.
      return try finishInput(wantsVideo: wantsVideo, wantsAudio: wantsAudio, adding: output)
    }
    // Past the packet limit the needed stream is taken to have ended early.
    let overLimit = queuedPacketBytes > Self.packetByteLimit
    if wantsVideo, let videoDecoder {
      if let packet = takePacket(from: &videoPackets) {
        sendRecoverably(packet, to: videoDecoder.send, into: &output)
        try receiveVideo(into: &output)
        return try checked(output)
      }
      if overLimit {
        try drainVideo(into: &output)
        return output
      }
    }
    if wantsAudio, let audioDecoder {
      if let packet = takePacket(from: &audioPackets) {
        sendRecoverably(packet, to: audioDecoder.send, into: &output)
        try receiveAudio(into: &output)
        return try checked(output)
      }
      if overLimit {
        try drainAudio(into: &output)
        return output
      }
    }
    guard !demuxEnded, wantsVideo || wantsAudio else { return output }
    // The queues are looked at first: asking the source takes its locks, once a packet.
    if !(videoPackets.isEmpty && audioPackets.isEmpty), demuxer.nextReadMayWait,
      try decodeQueuedPacket(into: &output)
    {
      return try checked(output)
    }
    let packet: Packet?
    do throws(PlayheadError) {
      packet = try demuxer.readPacket()
    } catch {
      if error.code == .cancelled { throw error }
      // Keep what was decoded so far: drain as at the end, then report the error.
      terminalError = error
      demuxEnded = true
      return output
    }
    guard let packet else {
      demuxEnded = true
      return output
    }
    if let events = textEvents(of: packet) {
      // Subtitles are read along; their packets say nothing of how far the media is read.
      output.textEvents += events
      return output
    }
    if let resync = videoResync, packet.streamIndex == videoStream?.index {
      // Read again after an audio stream switch: the video decoder has had it.
      if resync.covers(packet) { return output }
      videoResync = nil
    }
    let decoded =
      (videoDecoder != nil && packet.streamIndex == videoStream?.index)
      || (audioDecoder != nil && packet.streamIndex == audioStream?.index)
    var shift = MediaTime.zero
    if decoded, var rebaser {
      // Decode order: the DTS runs forward within a stream where the PTS may not.
      let order = packet.dts.isNumeric ? packet.dts : packet.pts
      shift = rebaser.shift(
        forPacketAt: itemTime(order), duration: packet.duration, stream: packet.streamIndex)
      self.rebaser = rebaser
    }
    if packet.pts.isNumeric {
      let end = packet.duration.isNumeric ? packet.pts + packet.duration : packet.pts
      output.demuxedUpTo = itemTime(end) + shift
    }
    if videoDecoder != nil && packet.streamIndex == videoStream?.index && !videoDrained {
      videoPackets.append(packet)
      lastVideoPacket = PacketMark(packet)
      queuedPacketBytes += packet.size
    } else if audioDecoder != nil && packet.streamIndex == audioStream?.index && !audioDrained {
      audioPackets.append(packet)
      queuedPacketBytes += packet.size
    }
    return output
  }

  /// Before a read that may wait for bytes still on their way: decodes one packet already
  /// demuxed for the stream that is not needed now (the video's, read along while the
  /// audio was wanted), so that what arrived is ready when it is needed, rather than held
  /// back while the read waits. False when no such packet is queued.
  private func decodeQueuedPacket(into output: inout DecodeOutput) throws(PlayheadError) -> Bool {
    if let videoDecoder, !videoDrained, let packet = takePacket(from: &videoPackets) {
      sendRecoverably(packet, to: videoDecoder.send, into: &output)
      try receiveVideo(into: &output)
      return true
    }
    if let audioDecoder, !audioDrained, let packet = takePacket(from: &audioPackets) {
      sendRecoverably(packet, to: audioDecoder.send, into: &output)
      try receiveAudio(into: &output)
      return true
    }
    return false
  }

  /// Removes the oldest packet of a stream's queue, keeping the byte count.
  private func takePacket(from packets: inout [Packet]) -> Packet? {
    guard !packets.isEmpty else { return nil }
    let packet = packets.removeFirst()
    queuedPacketBytes -= packet.size
    return packet
  }

  private func checked(_ output: DecodeOutput) throws(PlayheadError) -> DecodeOutput {
    if consecutiveDecodeErrors > 50 {
      throw output.recoverableErrors.last
        ?? PlayheadError(.decodeFailed, "too many consecutive decode errors")
    }
    return output
  }

  private func sendRecoverably(
    _ packet: Packet, to send: (Packet?) throws(PlayheadError) -> Void,
    into output: inout DecodeOutput
  ) {
    do throws(PlayheadError) {
      try send(packet)
      consecutiveDecodeErrors = 0
    } catch {
      consecutiveDecodeErrors += 1
      output.recoverableErrors.append(error)
    }
  }

  /// One step after the input ended, adding to `output`: decodes the next queued packet
  /// of a wanted stream, or drains its decoder once none is left. The run is finished when
  /// both are drained (`isFinished`), so the next run, if any, starts from a clean state.
  ///
  /// When the video is drained, what is left of the audio (a fraction of a second, small)
  /// is decoded and drained with it, wanted or not: playback may wait for a first video
  /// frame that never came, with the audio queue full, and must still learn that the run
  /// ended.
  private func finishInput(wantsVideo: Bool, wantsAudio: Bool, adding output: DecodeOutput)
    throws(PlayheadError) -> DecodeOutput
  {
    var output = output
    if wantsVideo, let videoDecoder {
      if let packet = takePacket(from: &videoPackets) {
        sendRecoverably(packet, to: videoDecoder.send, into: &output)
        try receiveVideo(into: &output)
        return try checked(output)
      }
      try drainVideo(into: &output)
      if let audioDecoder, !audioDrained {
        while let packet = takePacket(from: &audioPackets) {
          sendRecoverably(packet, to: audioDecoder.send, into: &output)
          try receiveAudio(into: &output)
        }
        try drainAudio(into: &output)
      }
      return output
    }
    if wantsAudio, let audioDecoder {
      if let packet = takePacket(from: &audioPackets) {
        sendRecoverably(packet, to: audioDecoder.send, into: &output)
        try receiveAudio(into: &output)
        return try checked(output)
      }
      try drainAudio(into: &output)
    }
    return output
  }

  private func drainVideo(into output: inout DecodeOutput) throws(PlayheadError) {
    guard let videoDecoder else { return }
    try? videoDecoder.send(nil)
    try receiveVideo(into: &output)
    videoDrained = true
    output.videoEnded = true
    finishFilter(into: &output)
  }

  private func drainAudio(into output: inout DecodeOutput) throws(PlayheadError) {
    guard let audioDecoder, let resampler else { return }
    try? audioDecoder.send(nil)
    try receiveAudio(into: &output)
    if let tail = try resampler.flush(), tail.frameCount > 0 {
      place(tail, into: &output)
    }
    audioDrained = true
    output.audioEnded = true
    if videoStream == nil { finishFilter(into: &output) }
  }

  private func receiveVideo(into output: inout DecodeOutput) throws(PlayheadError) {
    guard let videoDecoder else { return }
    while let frame = try videoDecoder.receiveFrame() {
      let duration =
        frame.duration.isNumeric && frame.duration > .zero ? frame.duration : nominalFrameDuration
      let time =
        frame.pts.isNumeric
        ? placedTime(frame.pts, duration: duration, stream: videoDecoder.stream.index)
        : (lastVideoTime.map { $0 + nominalFrameDuration } ?? .zero)
      if let floor = videoFloor {
        if time <= floor { continue }
        videoFloor = nil
      }
      lastVideoTime = time
      let timed = TimedVideoFrame(frame: frame, time: time, duration: duration)
      if var active = filter {
        let accepted = active.offer(timed)
        filter = active.isVideoDone ? nil : active
        if let resolved = active.resolvedTime, output.resolvedSeekTime == nil {
          output.resolvedSeekTime = resolved
          trimPendingAudio(of: &output, from: resolved)
        }
        output.videoFrames.append(contentsOf: accepted)
        if !active.isVideoDone { continue }
      } else {
        output.videoFrames.append(timed)
      }
    }
  }

  private var lastVideoTime: MediaTime?
  private var audioFloor: MediaTime?
  private var pendingAudio: [AudioBuffer] = []

  private func receiveAudio(into output: inout DecodeOutput) throws(PlayheadError) {
    guard let audioDecoder, let resampler else { return }
    while let frame = try audioDecoder.receiveFrame() {
      output.audioSamplesDecoded += frame.sampleCount
      let buffer = try resampler.convert(frame)
      if frame.pts.isNumeric {
        let frameTime = placedTime(
          frame.pts, duration: frame.duration, stream: audioDecoder.stream.index)
        if let expected = nextAudioTime {
          let drift = frameTime - expected
          if drift > MediaTime(value: 1, timescale: 10)
            || drift < MediaTime(value: -1, timescale: 10)
          {
            nextAudioTime = frameTime
          }
        } else {
          nextAudioTime = frameTime
        }
      }
      guard buffer.frameCount > 0 else { continue }
      place(buffer, into: &output)
    }
  }

  /// Stamps `buffer` with its item time and queues it, applying the seek floor.
  private func place(_ buffer: AudioBuffer, into output: inout DecodeOutput) {
    var stamped = buffer
    let time = nextAudioTime ?? .zero
    stamped.pts = time
    nextAudioTime = time + buffer.mediaDuration
    if let active = filter {
      if !active.hasVideo {
        // Audio-only: the seek lands exactly on the target.
        filter = nil
        output.resolvedSeekTime = active.request.target
        audioFloor = active.request.target
      } else if active.resolvedTime == nil {
        // Keep until the video decides where the seek lands.
        pendingAudio.append(stamped)
        return
      }
    }
    if let floor = audioFloor ?? output.resolvedSeekTime {
      guard let trimmed = stamped.trimmed(from: floor) else { return }
      stamped = trimmed
    }
    output.audioBuffers.append(stamped)
  }

  private func trimPendingAudio(of output: inout DecodeOutput, from time: MediaTime) {
    audioFloor = time
    output.audioBuffers.append(contentsOf: pendingAudio.compactMap { $0.trimmed(from: time) })
    pendingAudio.removeAll()
  }

  private func finishFilter(into output: inout DecodeOutput) {
    guard var active = filter else { return }
    output.videoFrames.append(contentsOf: active.finish())
    let resolved = active.resolvedTime ?? active.request.target
    if output.resolvedSeekTime == nil { output.resolvedSeekTime = resolved }
    trimPendingAudio(of: &output, from: resolved)
    filter = nil
  }
}

/// The accurate-seek rule for video frames decoded after a seek.
struct SeekFilter {
  let request: SeekRequest
  let hasVideo: Bool
  private var candidate: TimedVideoFrame?
  private(set) var resolvedTime: MediaTime?
  private(set) var isVideoDone = false

  init(request: SeekRequest, hasVideo: Bool) {
    self.request = request
    self.hasVideo = hasVideo
  }

  /// Offers one decoded frame; returns the frames to queue (possibly none yet).
  mutating func offer(_ frame: TimedVideoFrame) -> [TimedVideoFrame] {
    let target = request.target
    let lower = target - request.toleranceBefore
    let upper = target + request.toleranceAfter
    let exact = request.toleranceBefore == .zero && request.toleranceAfter == .zero
    if frame.time <= target && (exact || frame.time < lower) {
      candidate = frame
      return []
    }
    isVideoDone = true
    if !exact && frame.time >= lower && frame.time <= upper {
      resolvedTime = frame.time
      return [frame]
    }
    resolvedTime = target
    return (candidate.map { [$0] } ?? []) + [frame]
  }

  /// The stream ended during the seek: keep the best candidate.
  mutating func finish() -> [TimedVideoFrame] {
    guard !isVideoDone else { return [] }
    isVideoDone = true
    resolvedTime = request.target
    return candidate.map { [$0] } ?? []
  }
}

extension AudioBuffer {
  /// The buffer without the samples at or after `time`; nil when nothing is left.
  func trimmed(before time: MediaTime) -> AudioBuffer? {
    if pts >= time { return nil }
    if pts + mediaDuration <= time { return self }
    let keep = (time - pts).convertScale(Int32(format.sampleRate), rounding: .roundHalfAwayFromZero)
      .value
    let keepFrames = Int(min(Int64(frameCount), max(0, keep)))
    if keepFrames <= 0 { return nil }
    var copy = self
    copy.samples = samples.subdata(in: 0..<(keepFrames * format.bytesPerFrame))
    copy.frameCount = keepFrames
    return copy
  }

  /// The buffer without the samples before `time`; nil when nothing is left.
  func trimmed(from time: MediaTime) -> AudioBuffer? {
    let end = pts + mediaDuration
    if end <= time { return nil }
    if pts >= time { return self }
    let skip = (time - pts).convertScale(Int32(format.sampleRate), rounding: .roundHalfAwayFromZero)
      .value
    let skipFrames = Int(min(Int64(frameCount), max(0, skip)))
    if skipFrames >= frameCount { return nil }
    var copy = self
    copy.samples = samples.subdata(in: (skipFrames * format.bytesPerFrame)..<samples.count)
    copy.frameCount = frameCount - skipFrames
    copy.pts = pts + MediaTime(value: Int64(skipFrames), timescale: Int32(format.sampleRate))
    return copy
  }
}
