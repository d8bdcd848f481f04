import Foundation

/// Where the picture of one thumbnail is: an image URL and, for a sprite sheet, the
/// region of it.
public struct ThumbnailReference: Sendable, Hashable, CustomStringConvertible {
  /// The image, absolute and without the fragment (several references share one sprite
  /// sheet URL, which is also the loader's cache key).
  public var imageURL: URL
  /// The region of the image; nil for the whole image.
  public var region: ThumbnailRegion?

  public init(imageURL: URL, region: ThumbnailRegion? = nil) {
    self.imageURL = imageURL
    self.region = region
  }

  /// The URL with its `#xywh=` fragment, as a thumbnails file writes it.
  public var description: String {
    guard let region else { return imageURL.absoluteString }
    return "\(imageURL.absoluteString)#\(region)"
  }

  /// Reads a cue payload: an image URL, absolute or relative to `base`, optionally with a
  /// `#xywh=` fragment.
  ///
  /// The payload is trimmed; only its first non-empty line counts (more lines are a
  /// reason in `.failure`, as is an empty payload). `allowedSchemes` lists the schemes the
  /// resolved URL may have (lowercase). Returns `.failure` with a one-line reason for an
  /// empty payload, text that is not a URL, a scheme not allowed, or a malformed fragment.
  public static func parse(payload: String, relativeTo base: URL?, allowedSchemes: Set<String>)
    -> Result<ThumbnailReference, ThumbnailRegionError>
  {
    let lines = payload.split(whereSeparator: \.isNewline).map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
    guard let text = lines.first else {
      return .failure(ThumbnailRegionError("the cue has no image URL"))
    }
    if lines.count > 1 {
      return .failure(ThumbnailRegionError("the cue has \(lines.count) lines; expected one URL"))
    }
    let quoted = text.count > 60 ? "\(text.prefix(60))…" : text
    guard !text.contains(where: \.isWhitespace),
      let url = URL(string: text, relativeTo: base)?.absoluteURL
    else {
      return .failure(ThumbnailRegionError("'\(quoted)' is not a URL"))
    }
    guard let scheme = url.scheme?.lowercased(), allowedSchemes.contains(scheme) else {
      let allowed = allowedSchemes.sorted().joined(separator: ", ")
      return .failure(
        ThumbnailRegionError(
          "'\(quoted)' has scheme '\(url.scheme ?? "")'; allowed here: \(allowed)"))
    }
    var region: ThumbnailRegion?
    if let fragment = url.fragment {
      switch ThumbnailRegion.parse(fragment: fragment.removingPercentEncoding ?? fragment) {
      case .success(let parsed): region = parsed
      case .failure(let error): return .failure(error)
      }
    }
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
      return .failure(ThumbnailRegionError("'\(quoted)' is not a URL"))
    }
    components.fragment = nil
    guard let imageURL = components.url else {
      return .failure(ThumbnailRegionError("'\(quoted)' is not a URL"))
    }
    return .success(ThumbnailReference(imageURL: imageURL, region: region))
  }
}
