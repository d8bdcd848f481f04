/// Picks the media file a native player plays from a Linear's `<MediaFile>`s.
///
/// A file is playable when it needs no JavaScript (not VPAID, not
/// `application/javascript`) and its type is one of `supportedTypes` (case-insensitive; a
/// file without a type is taken as playable, since the demuxer sniffs content anyway).
/// Among playable files the one whose height is closest to `targetHeight` wins, then the
/// higher bitrate, then document order. No playable file is error 403.
public struct VASTMediaSelection: Sendable, Equatable {
  /// The MIME types Playhead's engine plays.
  public static let defaultSupportedTypes: Set<String> = [
    "video/mp4", "video/webm", "video/x-flv", "video/3gpp", "video/quicktime", "video/x-matroska",
    "video/mp2t",
    "video/ogg", "audio/mp4", "audio/mpeg", "application/x-mpegurl",
    "application/vnd.apple.mpegurl",
  ]

  public var supportedTypes: Set<String>
  /// The height the player would like (its window's), in pixels (default 720).
  public var targetHeight: Int

  public init(
    supportedTypes: Set<String> = VASTMediaSelection.defaultSupportedTypes,
    targetHeight: Int = 720
  ) {
    self.supportedTypes = Set(supportedTypes.map { $0.lowercased() })
    self.targetHeight = targetHeight
  }

  /// The files of `linear` that Playhead can play, in document order.
  public func playableFiles(of linear: VASTLinear) -> [VASTMediaFile] {
    linear.mediaFiles.filter { file in
      guard !file.needsJavaScript else { return false }
      guard let type = file.type?.lowercased() else { return true }
      return supportedTypes.contains(type)
    }
  }

  /// The file to play, or error 403 (no supported media file).
  public func choose(from linear: VASTLinear) -> Result<VASTMediaFile, VASTAdFailure> {
    let playable = playableFiles(of: linear)
    let best = playable.enumerated().min { left, right in
      let leftGap = abs((left.element.height ?? targetHeight) - targetHeight)
      let rightGap = abs((right.element.height ?? targetHeight) - targetHeight)
      if leftGap != rightGap { return leftGap < rightGap }
      let leftRate = left.element.bitrateKbps ?? 0
      let rightRate = right.element.bitrateKbps ?? 0
      if leftRate != rightRate { return leftRate > rightRate }
      return left.offset < right.offset
    }
    guard let best else {
      let types = linear.mediaFiles.map { $0.type ?? "?" }
      return .failure(
        VASTAdFailure(
          code: .unsupportedMedia,
          message: linear.mediaFiles.isEmpty
            ? "no media file" : "no supported media file among \(types.joined(separator: ", "))"))
    }
    return .success(best.element)
  }
}
