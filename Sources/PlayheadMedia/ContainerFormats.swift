import CFFmpeg
import Foundation
import PlayheadCore

/// The FFmpeg input formats a `Demuxer` may open; every other format is refused after
/// probing, before FFmpeg reads its header.
///
/// A name matches an FFmpeg demuxer when it equals one of the demuxer's comma-separated
/// names ("mp4" matches "mov,mp4,m4a,3gp,3g2,mj2"). The list exists because some of
/// FFmpeg's demuxers open further resources by themselves (HLS and DASH manifests, concat
/// scripts, image sequences): Playhead plays HLS with its own engine and never lets FFmpeg
/// fetch or open anything (see docs/decisions/0018-ffmpeg-reads-only-what-playhead-hands-it.md).
///
/// ```swift
/// let demuxer = try Demuxer(source: source)  // .media: MP4, TS, MKV/WebM, MP3, AAC, …
/// ```
public struct ContainerFormats: Sendable, Equatable, CustomStringConvertible {
  /// The allowed FFmpeg input-format names.
  public let names: [String]

  /// Allows the FFmpeg input formats named in `names` (e.g. `["mpegts", "mp4"]`).
  public init(_ names: [String]) {
    self.names = names
  }

  /// The progressive containers Playhead plays: MP4/MOV (and M4A, 3GP), MPEG-TS,
  /// Matroska/WebM, MP3, AAC (ADTS), FLAC, WAV and Ogg.
  public static let media = ContainerFormats([
    "mov", "mp4", "m4a", "3gp", "3g2", "mj2", "mpegts", "matroska", "webm", "mp3", "aac", "flac",
    "wav", "ogg",
  ])

  /// A single PNG picture (for decoding images, never for playback).
  public static let pngImage = ContainerFormats(["png_pipe"])

  /// Whether FFmpeg's demuxer called `formatName` (comma-separated aliases allowed) is
  /// on the list.
  public func allows(_ formatName: String) -> Bool {
    let aliases = formatName.split(separator: ",").map(String.init)
    return aliases.contains { names.contains($0) }
  }

  /// The list as FFmpeg's `format_whitelist` option wants it.
  var whitelist: String { names.joined(separator: ",") }

  public var description: String { names.joined(separator: ", ") }

  /// Says what a refused FFmpeg input format is, for error messages: "an HLS playlist
  /// (M3U8)", "a DASH manifest (MPD)", "an image (piped png sequence)", …
  static func describe(_ format: UnsafePointer<AVInputFormat>) -> String {
    let name = String(cString: format.pointee.name)
    let longName = format.pointee.long_name.map { String(cString: $0) } ?? name
    switch name {
    case "hls": return "an HLS playlist (M3U8)"
    case "dash": return "a DASH manifest (MPD)"
    case "concat": return "an ffconcat script"
    case "image2": return "an image sequence"
    case "sdp": return "an SDP session description"
    case "webm_dash_manifest": return "a WebM DASH manifest"
    default:
      if name.hasSuffix("_pipe") { return "an image (\(longName))" }
      return "\(longName) (FFmpeg's '\(name)' format)"
    }
  }
}
