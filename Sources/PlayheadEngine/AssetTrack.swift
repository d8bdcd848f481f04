import Foundation
import PlayheadCore
import PlayheadMedia

/// One track of an asset: a video, audio, subtitle or data stream and its properties.
public struct AssetTrack: Sendable, Equatable, Identifiable {
  /// The container's stream index.
  public var id: Int
  public var kind: MediaKind
  /// FFmpeg's codec name (`h264`, `aac`, `vp9`, …).
  public var codec: String
  /// Width and height in pixels (video only).
  public var naturalSize: (width: Int, height: Int)? {
    guard let width, let height else { return nil }
    return (width, height)
  }
  public var width: Int?
  public var height: Int?
  /// Frames per second (video only).
  public var nominalFrameRate: Double?
  /// Bits per second, when the container states it.
  public var estimatedDataRate: Int?
  public var sampleRate: Int?
  public var channels: Int?
  /// ISO 639 language code, when tagged.
  public var languageCode: String?
  /// The track's title (a Matroska track name such as "Commentary"), when tagged.
  public var title: String?
  /// The track's duration, when the container states it.
  public var duration: MediaTime
  /// Frames in the track, when the container states it.
  public var frameCount: Int?
  /// Whether the container flags the track as the default of its kind.
  public var isDefault: Bool
  /// Whether the container flags the track as forced (subtitles for foreign-language
  /// parts only).
  public var isForced: Bool
  /// Whether the track is subtitles carried as text, which the player can show (a
  /// subtitle rendition of the item); bitmap subtitles are listed only.
  public var isTextSubtitle: Bool

  init(_ info: StreamInfo) {
    id = info.index
    kind = info.kind
    codec = info.codecName
    width = info.width
    height = info.height
    nominalFrameRate = info.frameRate
    estimatedDataRate = info.bitRate
    sampleRate = info.sampleRate
    channels = info.channels
    languageCode = info.language
    title = info.title
    duration = info.duration
    frameCount = info.frameCount
    isDefault = info.isDefault
    isForced = info.isForced
    isTextSubtitle = info.isTextSubtitle && info.hasDecoder
  }

  public static func == (lhs: AssetTrack, rhs: AssetTrack) -> Bool {
    lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.codec == rhs.codec && lhs.width == rhs.width
      && lhs.height == rhs.height && lhs.nominalFrameRate == rhs.nominalFrameRate
      && lhs.estimatedDataRate == rhs.estimatedDataRate && lhs.sampleRate == rhs.sampleRate
      && lhs.channels == rhs.channels && lhs.languageCode == rhs.languageCode
      && lhs.title == rhs.title
      && lhs.duration == rhs.duration && lhs.frameCount == rhs.frameCount
      && lhs.isDefault == rhs.isDefault && lhs.isForced == rhs.isForced
      && lhs.isTextSubtitle == rhs.isTextSubtitle
  }
}
