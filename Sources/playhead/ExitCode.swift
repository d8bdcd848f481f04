import Playhead

/// The tool's exit statuses.
///
/// A `PlayheadError` maps through its category: sources that cannot be opened or read
/// give 3, media that cannot be played gives 4, caller errors give 2.
enum ExitCode: Int32, Sendable {
  /// The command did what it was asked (for `play`: the item played to its end).
  case success = 0
  /// A playlist is empty or has a fatal parse error (printed with its line number), for
  /// `playlist` and for the playlists `play`, `probe` and the other verbs load.
  case invalidPlaylist = 1
  /// The command line was wrong: unknown verb or option, missing or bad value.
  case usage = 2
  /// The input could not be opened or read (missing file, directory, HTTP error,
  /// unsupported URL scheme), or an output file could not be written.
  case source = 3
  /// The media is unsupported or undecodable.
  case media = 4
  /// Playback was interrupted with Ctrl-C (128 + SIGINT).
  case interrupted = 130

  /// The status for `error`, by its category.
  init(_ error: PlayheadError) {
    if error.code == .invalidPlaylist {
      self = .invalidPlaylist
      return
    }
    switch error.category {
    case .source: self = .source
    case .media: self = .media
    case .usage: self = .usage
    }
  }
}
