import CFuzzerDriver
import Foundation
import PlayheadCore
import PlayheadMedia

/// The executable's entry point (SwiftPM defines `main` as `DemuxerFuzzer_main`): hands the
/// command line to libFuzzer's driver.
@_cdecl("DemuxerFuzzer_main")
public func demuxerFuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  // FFmpeg's messages: only its panics.
  MediaLibrary.logger.logLevel = .critical
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    demuxerFuzzerTestOneInput(data.map(UnsafeRawPointer.init), size)
  }
}

/// The libFuzzer entry point: the input's bytes go through Playhead's public `Demuxer` over
/// a memory byte source (the custom AVIO path every Playhead read takes), as FFmpeg's own
/// `tools/target_dem_fuzzer.c` does for its demuxers.
///
/// The last `DemuxerFuzzInput.trailerLength` bytes (of inputs at least twice that long)
/// are not media: they choose how the source behaves (its read sizes, whether it is
/// seekable, knows its length or lies about it), a container hint, how many packets to read
/// and frames to decode, and whether to seek and convert. Then: open, read packets, decode
/// a bounded number of video (and audio) frames, convert one to RGBA, flush, close. A typed
/// error anywhere is a normal outcome; a trap, a crash, a hang or unbounded memory is a
/// finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func demuxerFuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = start.map { Data(bytes: $0, count: count) } ?? Data()
  let input = DemuxerFuzzInput(data)
  let source = FuzzDataSource(input)
  do {
    try exercise(
      Demuxer(source: source, url: source.url, formatHint: input.formatHint), input)
  } catch {
    precondition(!error.message.isEmpty, "an error without a message: \(error.code)")
  }
  return 0
}

/// Reads, decodes and converts within the input's bounds.
private func exercise(_ demuxer: Demuxer, _ input: DemuxerFuzzInput) throws(PlayheadError) {
  _ = (demuxer.containerName, demuxer.duration, demuxer.startTime, demuxer.streams)
  let video = demuxer.bestStream(of: .video).flatMap {
    try? demuxer.makeVideoDecoder(streamIndex: $0.index, threadCount: 1)
  }
  let audio =
    input.decodesAudio
    ? demuxer.bestStream(of: .audio).flatMap {
      try? demuxer.makeAudioDecoder(streamIndex: $0.index)
    }
    : nil
  var budget = FrameBudget(remaining: input.maxFrames, converts: input.converts)
  for index in 0..<input.maxPackets {
    if input.seeks, index == input.maxPackets / 2 {
      let middle =
        demuxer.duration.isNumeric
        ? demuxer.startTime
          + MediaTime(seconds: demuxer.duration.seconds / 2, preferredTimescale: 1000)
        : demuxer.startTime
      try? demuxer.seek(to: middle, streamIndex: nil)
      video?.flush()
      audio?.flush()
    }
    guard let packet = try demuxer.readPacket() else { break }
    _ = (
      packet.pts, packet.dts, packet.duration, packet.isKeyframe, packet.size, packet.bytePosition
    )
    if let video, packet.streamIndex == video.stream.index, budget.remaining > 0 {
      if (try? video.send(packet)) != nil { budget.drain(video) }
    } else if let audio, packet.streamIndex == audio.stream.index, budget.remaining > 0 {
      if (try? audio.send(packet)) != nil { budget.drain(audio) }
    }
  }
  if let video, (try? video.send(nil)) != nil { budget.drain(video) }
  if let audio, (try? audio.send(nil)) != nil { budget.drain(audio) }
  _ = (video?.rejectedPacketCount, audio?.rejectedPacketCount)
}

/// How many frames may still be decoded, and the converters that touch them.
private struct FrameBudget {
  var remaining: Int
  let converts: Bool
  let converter = VideoConverter()
  let resampler = AudioResampler(output: .cd)
  var converted = 0

  mutating func drain(_ decoder: VideoDecoder) {
    while remaining > 0, let frame = try? decoder.receiveFrame() {
      remaining -= 1
      _ = (
        frame.pts, frame.duration, frame.width, frame.height, frame.isKeyframe,
        frame.pixelFormatName
      )
      if converts, converted < 2 {
        converted += 1
        _ = try? converter.convert(
          frame, width: converted == 1 ? 48 : nil, height: 27,
          gravity: VideoGravity.allCases[converted % VideoGravity.allCases.count])
      }
    }
  }

  mutating func drain(_ decoder: AudioDecoder) {
    while remaining > 0, let frame = try? decoder.receiveFrame() {
      remaining -= 1
      _ = (
        frame.pts, frame.duration, frame.sampleCount, frame.sampleRate, frame.channels,
        frame.sampleFormatName
      )
      if converts { _ = try? resampler.convert(frame) }
    }
  }
}
