import Foundation
import PlayheadCore

/// What a resource's first bytes say it is, whatever its name or Content-Type.
public enum SniffedContent: Sendable, Equatable {
  /// An HLS playlist: `#EXTM3U` first (after an optional UTF-8 byte-order mark and
  /// white space). Playhead plays it with its own HLS engine.
  case hlsPlaylist
  /// A DASH manifest: an XML document whose first element is `MPD`.
  case dashManifest
  /// An FFmpeg concat script (`ffconcat version …`).
  case ffconcatScript
  /// Anything else: media for the demuxer, which decides whether it is a container
  /// Playhead plays.
  case media

  /// What the content is, for messages ("a DASH manifest (MPD)").
  public var description: String {
    switch self {
    case .hlsPlaylist: return "an HLS playlist (M3U8)"
    case .dashManifest: return "a DASH manifest (MPD)"
    case .ffconcatScript: return "an ffconcat script"
    case .media: return "media"
    }
  }

  /// The `.unsupportedFormat` error for content Playhead never plays (a DASH manifest,
  /// an ffconcat script) at `url`; nil for HLS playlists and media.
  public func refusal(at url: URL) -> PlayheadError? {
    switch self {
    case .hlsPlaylist, .media: return nil
    case .dashManifest, .ffconcatScript:
      return PlayheadError(
        .unsupportedFormat,
        "\(url.absoluteString) is \(description), which Playhead does not play (it plays HLS, "
          + "and MP4/MOV, MPEG-TS, Matroska/WebM, MP3, AAC, FLAC, WAV and Ogg files)", url: url)
    }
  }
}

/// Tells playlists and manifests from media by their content (mpv's and browsers' rule:
/// content is sniffed, not trusted by its name).
///
/// ```swift
/// let content = try ContentSniffer.sniff(reader)
/// if content == .hlsPlaylist { /* play with the HLS engine */ }
/// ```
public enum ContentSniffer {
  /// How many leading bytes `sniff` reads at most.
  public static let headBytes = 1024

  /// What `head`, a resource's first bytes, is.
  public static func classify(_ head: Data) -> SniffedContent {
    let bytes = [UInt8](head.prefix(headBytes))
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    while start < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[start]) { start += 1 }
    let text = bytes[start...]
    if text.starts(with: Array("#EXTM3U".utf8)) { return .hlsPlaylist }
    if text.starts(with: Array("ffconcat version".utf8)) { return .ffconcatScript }
    if text.first == UInt8(ascii: "<"), firstElementName(of: Array(text)) == "mpd" {
      return .dashManifest
    }
    return .media
  }

  /// Reads the first bytes of `reader`'s resource (up to `headBytes`, fewer at its end)
  /// and says what they are. The reader keeps them, so that a demuxer reading from the
  /// start afterwards fetches nothing twice.
  ///
  /// Throws the source's own error when its first read fails.
  public static func sniff(_ reader: DataSourceReader) throws(PlayheadError) -> SniffedContent {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: headBytes, alignment: 1)
    defer { buffer.deallocate() }
    var filled = 0
    while filled < headBytes {
      let read = try reader.read(
        into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), at: Int64(filled))
      if read <= 0 { break }
      filled += read
    }
    return classify(Data(buffer[..<filled]))
  }

  /// The lowercased local name of the first element of an XML text, skipping the XML
  /// declaration, processing instructions, comments and a DOCTYPE; nil when none starts
  /// within the bytes.
  static func firstElementName(of bytes: [UInt8]) -> String? {
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<") else {
        index += 1
        continue
      }
      let next = index + 1 < bytes.count ? bytes[index + 1] : 0
      if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") {
        let close: [UInt8] =
          bytes[index...].starts(with: Array("<!--".utf8)) ? Array("-->".utf8) : [UInt8(ascii: ">")]
        guard let end = find(close, in: bytes, from: index + 2) else { return nil }
        index = end + close.count
        continue
      }
      var end = index + 1
      while end < bytes.count, !" \t\r\n/>".utf8.contains(bytes[end]) { end += 1 }
      let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self).lowercased()
      return name.split(separator: ":").last.map(String.init) ?? name
    }
    return nil
  }

  private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard needle.count <= bytes.count else { return nil }
    var index = start
    while index + needle.count <= bytes.count {
      if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }
}
