import CFFmpeg
import Foundation
import PlayheadCore
import PlayheadNet

/// Reads a container's streams and packets from a data source through libavformat.
///
/// A demuxer is used by one thread at a time; only `interrupt()` may be called from any
/// thread. After an interrupt the demuxer stays cancelled: every later call that reads
/// throws `.cancelled`.
///
/// ```swift
/// let demuxer = try Demuxer(source: MemoryDataSource(data: data), url: URL(string: "memory:")!)
/// while let packet = try demuxer.readPacket() { … }
/// ```
public final class Demuxer: @unchecked Sendable {
  // Unchecked Sendable: FFmpeg's context is not; one thread at a time uses the demuxer,
  // and `interrupt()`, the one call from any thread, only sets a `Locked` flag and cancels
  // the source.
  let format: FormatContext
  /// The source's URL, named in errors.
  public let url: URL
  private var cachedStreams: [StreamInfo]
  /// Packets read while looking for a keyframe after a seek, returned before new reads.
  var queuedPackets: [Packet] = []
  var queueHead = 0
  /// Decrypts sample-encrypted packets as they are read (nil: packets leave as read).
  /// Set before the first `readPacket()`; used on the reading thread only. A packet that
  /// still carries FFmpeg's encryption info after it (or with none set) is refused with
  /// `.decryptionFailed` naming the scheme and key ID: encrypted bytes never leave the
  /// demuxer.
  public var packetDecryptor: (any PacketDecrypting)?

  /// Opens the resource `reader` reads through a custom AVIOContext (the one adapter
  /// between data sources and FFmpeg) and probes its streams.
  ///
  /// FFmpeg reads only the bytes of `reader`: the container is probed from them, and a
  /// format outside `formats` (by default `.media`) is refused with `.unsupportedFormat`
  /// that says what it is ("an HLS playlist (M3U8)", "a DASH manifest (MPD)", …) before
  /// FFmpeg reads its header. FFmpeg may not open anything itself: its protocol whitelist
  /// is empty and every nested open (a manifest's segments, a reference to another file)
  /// is refused, failing the open or the read with `.unsupportedFormat` naming the URL.
  ///
  /// `formatHint` names an FFmpeg input format ("mpegts", "mp4", "png_pipe") to skip
  /// probing; it must be on `formats`. Throws the source's own error when a read fails
  /// (e.g. `.httpStatus`, `.timedOut`, `.cancelled`), `.emptySource` when there are no
  /// bytes, `.unsupportedFormat` for bytes FFmpeg does not recognise, that are truncated
  /// past use, or whose format is refused, and `.noPlayableStreams` when no audio or video
  /// stream can be decoded.
  ///
  /// `isSeekable` false makes demuxers read the bytes front to back, as they read a pipe:
  /// for a source whose bytes arrive in order while they are read (the segments of an HLS
  /// run), where the MP4 demuxer would otherwise visit every fragment of a seekable input
  /// before giving its first packet. `readMayWait` tells, without blocking, whether the
  /// next read may wait for bytes that have not arrived (`nextReadMayWait`); by default the
  /// reader's source's buffer says.
  public init(
    reader: DataSourceReader, formatHint: String? = nil, formats: ContainerFormats = .media,
    isSeekable: Bool = true, readMayWait: (@Sendable () -> Bool)? = nil
  ) throws(PlayheadError) {
    _ = MediaLibrary.configured
    let url = reader.url
    let io = try DataSourceIO(reader: reader, isSeekable: isSeekable, readMayWait: readMayWait)
    let inputFormat = try Self.inputFormat(
      hint: formatHint, formats: formats, io: io, url: url)
    guard let allocated = avformat_alloc_context() else {
      throw PlayheadError(.ioError, "Could not allocate a format context", url: url)
    }
    allocated.pointee.pb = io.context
    allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    allocated.pointee.interrupt_callback = AVIOInterruptCB(
      callback: dataSourceInterruptCallback,
      opaque: Unmanaged.passUnretained(io.state).toOpaque())
    allocated.pointee.opaque = Unmanaged.passUnretained(io.state).toOpaque()
    allocated.pointee.io_open = refusingNestedOpenCallback
    var options: OpaquePointer?
    av_dict_set(&options, "format_whitelist", formats.whitelist, 0)
    av_dict_set(&options, "protocol_whitelist", "", 0)
    var contextPointer: UnsafeMutablePointer<AVFormatContext>? = allocated
    // On failure avformat_open_input frees the context itself.
    let opened = avformat_open_input(&contextPointer, url.absoluteString, inputFormat, &options)
    av_dict_free(&options)
    guard opened >= 0, let context = contextPointer else {
      throw Self.openFailure(opened, io: io, url: url)
    }
    let format = FormatContext(raw: context, io: io)
    let probed = avformat_find_stream_info(context, nil)
    if probed < 0 {
      if let error = io.state.takePendingError() { throw error }
      if let refused = io.state.refusedNestedOpen(in: url) { throw refused }
      if io.state.isInterrupted {
        throw PlayheadError(.cancelled, "Opening \(url.absoluteString) was cancelled", url: url)
      }
      throw FFmpegError.make(
        .unsupportedFormat, "Could not read the streams of \(url.absoluteString)", code: probed,
        url: url)
    }
    // Probing tolerates read failures as an early end; a failing source still fails the open.
    if let error = io.state.takePendingError() { throw error }
    if io.state.isInterrupted {
      throw PlayheadError(.cancelled, "Opening \(url.absoluteString) was cancelled", url: url)
    }
    let streams = (0..<format.streamCount).compactMap { format.stream($0).map(StreamInfo.init) }
    let playable = streams.filter {
      ($0.kind == .audio || ($0.kind == .video && !$0.isAttachedPicture)) && $0.hasDecoder
    }
    if playable.isEmpty {
      let found = streams.map { "\($0.kind.rawValue) \($0.codecName)" }.joined(separator: ", ")
      throw PlayheadError(
        .noPlayableStreams,
        "No decodable audio or video stream in \(url.absoluteString)"
          + (found.isEmpty ? "" : " (found: \(found))"), url: url)
    }
    self.format = format
    self.url = url
    self.cachedStreams = streams
  }

  /// Opens `url` read through `source` (see `init(reader:…)`).
  public convenience init(
    source: any DataSource, url: URL, formatHint: String? = nil,
    formats: ContainerFormats = .media
  ) throws(PlayheadError) {
    try self.init(
      reader: DataSourceReader(source: source, request: DataRequest(url: url, purpose: .media)),
      formatHint: formatHint, formats: formats)
  }

  static func openFailure(_ code: Int32, io: DataSourceIO, url: URL) -> PlayheadError {
    if let error = io.state.takePendingError() { return error }
    if let refused = io.state.refusedNestedOpen(in: url) { return refused }
    if io.state.isInterrupted {
      return PlayheadError(.cancelled, "Opening \(url.absoluteString) was cancelled", url: url)
    }
    if io.state.bytesSeen == 0 && (io.state.reader.length == 0 || code == FFmpegError.eof) {
      return PlayheadError(.emptySource, "\(url.absoluteString) is empty", url: url)
    }
    return FFmpegError.make(
      .unsupportedFormat, "Could not open \(url.absoluteString)", code: code, url: url)
  }

  /// FFmpeg's name for the container, e.g. "mov,mp4,m4a,3gp,3g2,mj2", "mpegts", "mp3",
  /// "matroska,webm".
  public var containerName: String {
    guard let inputFormat = format.raw.pointee.iformat else { return "" }
    return String(cString: inputFormat.pointee.name)
  }

  /// The container's duration, or `.indefinite` when it does not know (live streams).
  public var duration: MediaTime {
    let value = format.raw.pointee.duration
    guard value != FFmpegError.noPTS, value >= 0 else { return .indefinite }
    return MediaTime(value: value, timescale: CFFmpeg_AV_TIME_BASE())
  }

  /// The container's first timestamp (`.zero` when unknown); packet times start here.
  public var startTime: MediaTime {
    let value = format.raw.pointee.start_time
    guard value != FFmpegError.noPTS else { return .zero }
    return MediaTime(value: value, timescale: CFFmpeg_AV_TIME_BASE())
  }

  /// Every stream in the container, in index order.
  ///
  /// Some containers (MPEG-TS) can announce streams after opening; the list then grows.
  public var streams: [StreamInfo] {
    if cachedStreams.count != format.streamCount {
      cachedStreams = (0..<format.streamCount).compactMap {
        format.stream($0).map(StreamInfo.init)
      }
    }
    return cachedStreams
  }

  /// The stream FFmpeg would pick for `kind`, or nil when there is none.
  ///
  /// For video, cover art (attached pictures) is never picked; a stream without a decoder
  /// is picked only when no other stream of the kind exists.
  public func bestStream(of kind: MediaKind) -> StreamInfo? {
    let all = streams
    let found = av_find_best_stream(format.raw, kind.avMediaType, -1, -1, nil, 0)
    if found >= 0, Int(found) < all.count {
      let candidate = all[Int(found)]
      if !(kind == .video && candidate.isAttachedPicture) { return candidate }
    }
    let candidates = all.filter { $0.kind == kind && !(kind == .video && $0.isAttachedPicture) }
    return candidates.first(where: \.hasDecoder) ?? candidates.first
  }

  /// Whether the next `readPacket()` may wait for bytes that have not arrived: no packet is
  /// held back for it and the source says its next read may wait (the `readMayWait` given
  /// at opening, else `DataSourceReader.nextReadMayWait`). A hint that never blocks.
  public var nextReadMayWait: Bool {
    guard queueHead >= queuedPackets.count else { return false }
    let state = format.io.state
    return state.readMayWait?() ?? state.reader.nextReadMayWait
  }

  /// The reader the demuxer reads through.
  public var reader: DataSourceReader { format.io.state.reader }

  /// Reads the next packet of any stream; nil at the end of the source.
  ///
  /// Throws the source's own error when a read fails, `.cancelled` after `interrupt()`.
  public func readPacket() throws(PlayheadError) -> Packet? {
    if queueHead < queuedPackets.count {
      let packet = queuedPackets[queueHead]
      queueHead += 1
      if queueHead == queuedPackets.count {
        queuedPackets.removeAll(keepingCapacity: true)
        queueHead = 0
      }
      return packet
    }
    return try readFromContainer()
  }

  /// Reads straight from libavformat, bypassing the seek queue.
  func readFromContainer() throws(PlayheadError) -> Packet? {
    guard let raw = av_packet_alloc() else {
      throw PlayheadError(.ioError, "Could not allocate a packet", url: url)
    }
    // A source error stays pending until a read fails: the failing callback may have run
    // while an earlier read still returned a buffered packet.
    while true {
      let result = av_read_frame(format.raw, raw)
      if result >= 0 {
        guard let stream = format.stream(Int(raw.pointee.stream_index)) else {
          av_packet_unref(raw)
          continue
        }
        let packet = Packet(raw: raw, timeBase: stream.pointee.time_base)
        if let packetDecryptor {
          try packetDecryptor.decrypt(packet, stream: streamInfo(packet.streamIndex))
        }
        try refuseEncrypted(packet)
        return packet
      }
      var pointer: UnsafeMutablePointer<AVPacket>? = raw
      av_packet_free(&pointer)
      if let error = format.io.state.takePendingError() { throw error }
      if let refused = format.io.state.refusedNestedOpen(in: url) { throw refused }
      if format.io.state.isInterrupted {
        throw PlayheadError(.cancelled, "Reading \(url.absoluteString) was cancelled", url: url)
      }
      if result == FFmpegError.eof { return nil }
      throw FFmpegError.make(
        .ioError, "Could not read a packet from \(url.absoluteString)", code: result, url: url)
    }
  }

  /// Makes any blocking call on this demuxer return promptly with `.cancelled`.
  ///
  /// Safe from any thread; also cancels the byte source. The demuxer cannot be used
  /// afterwards.
  public func interrupt() {
    format.io.state.interrupt()
  }

  /// The stream info at `index`, or an `.invalidArgument` error.
  func streamInfo(_ index: Int) throws(PlayheadError) -> StreamInfo {
    let all = streams
    guard index >= 0, index < all.count else {
      throw PlayheadError(
        .invalidArgument, "No stream \(index) in \(url.absoluteString) (\(all.count) streams)",
        url: url)
    }
    return all[index]
  }
}
