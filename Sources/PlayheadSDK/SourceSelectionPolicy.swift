import Foundation

/// Chooses which of a video's sources a session plays.
///
/// Use `.default`, `.hls(preferringScheme:)`, `.dash(preferringScheme:)` or
/// `.custom { video in … }`. A policy that returns
/// `nil` means the video has no playable source; `chooseSource(for:)` turns that into the
/// typed error `.noPlayableSource`.
public struct SourceSelectionPolicy: Sendable {
  private let choose: @Sendable (Video) -> Source?

  /// A policy from a closure; `nil` from it means "no playable source".
  public init(_ choose: @escaping @Sendable (Video) -> Source?) {
    self.choose = choose
  }

  /// A policy from a closure, spelled as in `options.sourceSelectionPolicy = .custom { … }`.
  public static func custom(_ choose: @escaping @Sendable (Video) -> Source?)
    -> SourceSelectionPolicy
  {
    SourceSelectionPolicy(choose)
  }

  /// The default policy, `hls(preferringScheme: "https")`, in the order seed 001 gives:
  ///
  /// 1. the first HLS source whose URL scheme is `https`;
  /// 2. else the first HLS source whose scheme is `http`;
  /// 3. else the first MP4 source;
  /// 4. else the first source of any kind.
  ///
  /// It returns `nil` only for a video without sources. HLS sources of other schemes (such as
  /// `file`) are not preferred over MP4; they are chosen in step 4 when they come first.
  public static let `default` = hls(preferringScheme: "https")

  /// The policy preferring HLS over `scheme`: the first HLS source with that scheme, else the
  /// first HLS source over `http`, else the first MP4 source, else the first source.
  ///
  /// `scheme` is matched without regard to case. With `scheme` `http` steps 1 and 2 coincide.
  public static func hls(preferringScheme scheme: String) -> SourceSelectionPolicy {
    let preferred = scheme.lowercased()
    return SourceSelectionPolicy { video in
      let sources = video.sources
      return sources.first { $0.deliveryMethod == .hls && $0.scheme == preferred }
        ?? sources.first { $0.deliveryMethod == .hls && $0.scheme == "http" }
        ?? sources.first { $0.deliveryMethod == .mp4 }
        ?? sources.first
    }
  }

  /// The policy preferring DASH: the first DASH source over `scheme`, else the first DASH
  /// source over `http`, then as `hls(preferringScheme:)` (HLS, MP4, any source).
  ///
  /// Not the default (seed 001 ranks HLS first); for catalogues whose DASH renditions are
  /// the better ones (more languages, CENC protection shared with other platforms).
  public static func dash(preferringScheme scheme: String = "https") -> SourceSelectionPolicy {
    let preferred = scheme.lowercased()
    let fallback = hls(preferringScheme: scheme)
    return SourceSelectionPolicy { video in
      let sources = video.sources
      return sources.first { $0.deliveryMethod == .dash && $0.scheme == preferred }
        ?? sources.first { $0.deliveryMethod == .dash && $0.scheme == "http" }
        ?? fallback.source(for: video)
    }
  }

  /// The source this policy chooses for `video`, or `nil` when it chooses none.
  public func source(for video: Video) -> Source? {
    choose(video)
  }

  /// The source this policy chooses for `video`.
  ///
  /// Throws `.noPlayableSource` ("no playable source for video …") when the policy returns
  /// `nil`; the message names the video's ID or name when it has one.
  public func chooseSource(for video: Video) throws(PlayheadSDKError) -> Source {
    if let source = choose(video) { return source }
    let label = video.id.map { "video \($0)" } ?? video.name.map { "video \"\($0)\"" } ?? "video"
    throw PlayheadSDKError(
      .noPlayableSource,
      "no playable source for \(label): the source-selection policy chose none of its "
        + "\(video.sources.count) source(s)")
  }
}
