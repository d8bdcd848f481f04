import Foundation

/// Chooses the media file of a linear ad that this player plays best.
///
/// Playable: MP4, WebM, MPEG-TS, MP3/AAC audio, and HLS playlists; a file whose
/// `apiFramework` is set (VPAID, SIMID) or whose type is JavaScript or Flash needs a script
/// runtime and is never chosen. Among the playable files: those within the bandwidth
/// estimate (when known) first, then the one whose picture is closest in size to the
/// viewport, then the higher bit rate, then document order.
public enum AdMediaSelection: Sendable, Equatable {
  /// This file plays.
  case media(AdMediaFile)
  /// Every file needs a script runtime (IAB 403, VPAID/SIMID refused).
  case needsScriptRuntime
  /// No file has a type this player plays (IAB 403).
  case noSupportedType

  /// The choice among `files` for a viewport of the given size; `bandwidthBitsPerSecond`
  /// is the player's estimate, nil when none.
  public static func choose(
    from files: [AdMediaFile], viewportWidth: Int, viewportHeight: Int,
    bandwidthBitsPerSecond: Double?
  ) -> AdMediaSelection {
    let runnable = files.filter { !needsScriptRuntime($0) }
    if runnable.isEmpty { return files.isEmpty ? .noSupportedType : .needsScriptRuntime }
    let playable = runnable.filter(isPlayableType)
    guard !playable.isEmpty else { return .noSupportedType }
    let viewportArea = max(1, viewportWidth) * max(1, viewportHeight)
    func fits(_ file: AdMediaFile) -> Bool {
      guard let bandwidth = bandwidthBitsPerSecond, bandwidth > 0, let kbps = file.bitrateKbps
      else { return true }
      return Double(kbps) * 1000 <= bandwidth
    }
    func sizeDistance(_ file: AdMediaFile) -> Int {
      guard file.width > 0, file.height > 0 else { return Int.max / 2 }
      return abs(file.width * file.height - viewportArea)
    }
    let ranked = playable.enumerated().sorted { lhs, rhs in
      let (a, b) = (lhs.element, rhs.element)
      if fits(a) != fits(b) { return fits(a) }
      if sizeDistance(a) != sizeDistance(b) { return sizeDistance(a) < sizeDistance(b) }
      if (a.bitrateKbps ?? 0) != (b.bitrateKbps ?? 0) {
        return (a.bitrateKbps ?? 0) > (b.bitrateKbps ?? 0)
      }
      return lhs.offset < rhs.offset
    }
    return .media(ranked[0].element)
  }

  /// Whether `file` needs a script runtime (VPAID, SIMID, JavaScript, Flash).
  public static func needsScriptRuntime(_ file: AdMediaFile) -> Bool {
    if let framework = file.apiFramework?.trimmingCharacters(in: .whitespaces),
      !framework.isEmpty
    {
      return true
    }
    let type = file.mimeType.lowercased()
    return type.contains("javascript") || type.contains("shockwave") || type.contains("flash")
  }

  /// Whether the engine plays `file`'s type (by MIME type, else by the URL's extension).
  public static func isPlayableType(_ file: AdMediaFile) -> Bool {
    let type = file.mimeType.lowercased().trimmingCharacters(in: .whitespaces)
    let playable = [
      "video/mp4", "video/webm", "video/mp2t", "video/quicktime", "video/x-matroska",
      "audio/mp4", "audio/mpeg", "audio/aac", "application/x-mpegurl",
      "application/vnd.apple.mpegurl", "audio/mpegurl",
    ]
    if playable.contains(type) { return true }
    if !type.isEmpty { return false }
    let known = ["mp4", "m4v", "webm", "ts", "mov", "mkv", "m4a", "mp3", "aac", "m3u8"]
    return known.contains(file.url.pathExtension.lowercased())
  }
}
