import CFFmpeg
import Foundation
import PlayheadCore

extension Demuxer {
  /// The input format to open `io` with: the hint, or what probing the bytes found; either
  /// must be on `formats`.
  ///
  /// Probing reads through the custom I/O and rewinds it (FFmpeg keeps the probed bytes),
  /// so the open that follows reads nothing twice.
  static func inputFormat(
    hint: String?, formats: ContainerFormats, io: DataSourceIO, url: URL
  ) throws(PlayheadError) -> UnsafePointer<AVInputFormat> {
    let format: UnsafePointer<AVInputFormat>
    if let hint {
      guard let found = av_find_input_format(hint) else {
        throw PlayheadError(
          .invalidArgument, "Unknown container format hint \"\(hint)\"", url: url)
      }
      format = found
    } else {
      var probed: UnsafePointer<AVInputFormat>?
      let score = av_probe_input_buffer2(io.context, &probed, url.absoluteString, nil, 0, 0)
      guard score >= 0, let probed else {
        throw openFailure(score < 0 ? score : FFmpegError.invalidData, io: io, url: url)
      }
      format = probed
    }
    let name = String(cString: format.pointee.name)
    guard formats.allows(name) else {
      throw PlayheadError(
        .unsupportedFormat,
        "\(url.absoluteString) is \(ContainerFormats.describe(format)), which Playhead does "
          + "not let FFmpeg open (allowed containers: \(formats))", url: url)
    }
    return format
  }
}

extension DataSourceIOState {
  /// The error for a nested open that FFmpeg attempted and that was refused, if any.
  func refusedNestedOpen(in url: URL) -> PlayheadError? {
    guard let refused = refusedNestedURL else { return nil }
    return PlayheadError(
      .unsupportedFormat,
      "\(url.absoluteString) made FFmpeg try to open '\(refused)' by itself; Playhead refuses "
        + "every resource FFmpeg would open on its own", url: url)
  }
}

/// FFmpeg's `io_open`: refuses every nested open (a manifest's segments, a reference to
/// another file), remembering the first URL for the error. Playhead hands FFmpeg the only
/// bytes it may read.
let refusingNestedOpenCallback:
  @convention(c) (
    UnsafeMutablePointer<AVFormatContext>?,
    UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
    UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?
  ) -> Int32 = { context, _, url, _, _ in
    if let opaque = context?.pointee.opaque {
      let state = Unmanaged<DataSourceIOState>.fromOpaque(opaque).takeUnretainedValue()
      state.noteRefusedNestedURL(url.map { String(cString: $0) } ?? "(no URL)")
    }
    return CFFmpeg_AVERROR(EPERM)
  }
