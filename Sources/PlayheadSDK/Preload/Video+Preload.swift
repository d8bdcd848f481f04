import Foundation
import PlayheadCore
import PlayheadEngine

extension MediaLoader {
  /// Adds a preload task for the source `policy` chooses for `video` (the seed's preload
  /// of a video rather than a URL) and returns its ID; see `addTask(_:listener:)`.
  ///
  /// Use the policy the playback controller plays with, so that the source preloaded is
  /// the one played. Throws `.noPlayableStreams` when the policy chooses no source; no
  /// task is added then.
  @discardableResult
  public func addTask(
    video: Video, config: PreloadConfig = PreloadConfig(),
    policy: SourceSelectionPolicy = .default, listener: (any PreloadListener)? = nil
  ) throws(PlayheadError) -> String {
    let source: Source
    do {
      source = try policy.chooseSource(for: video)
    } catch {
      throw error.playheadError
    }
    return addTask(PreloadTask(url: source.url, config: config), listener: listener)
  }
}

extension ListPlayer {
  /// Adds `video` at the end of the list, as the source `policy` chooses for it.
  ///
  /// Throws `.noPlayableStreams` when the policy chooses no source, and
  /// `.invalidArgument` for an empty or duplicate uid, as `add(url:uid:)` does.
  public func add(
    video: Video, uid: String, policy: SourceSelectionPolicy = .default
  ) throws(PlayheadError) {
    let source: Source
    do {
      source = try policy.chooseSource(for: video)
    } catch {
      throw error.playheadError
    }
    try add(url: source.url, uid: uid)
  }
}
