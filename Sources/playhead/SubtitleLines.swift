import Foundation
import Playhead

/// `play --subtitles LANG`: the lines printed about the subtitle track — which one was
/// chosen, a failure to load it, and one line per cue as it becomes active.
///
/// Text: `subtitles: English [en]` (or `subtitles: none in LANG`), `cue 1.000s Second 1`
/// (the item time, then the cue's plain text, lines joined with " / "); a failure goes to
/// standard error as `playhead: subtitles: <message>`. JSON: `{"event":"cue","time":…,
/// "start":…,"end":…,"track":…,"language":…,"text":…}`, plus on the direct (non-playlist)
/// path `textTrackChanged` and `textTrackFailedToLoad` objects. Cue lines are printed even
/// with `--quiet`: they are what the option asks for.
struct SubtitleLines: Sendable {
  /// The language asked for.
  var language: String
  var output: OutputOptions
  let console: Console

  /// How far ahead subtitle segments are fetched: playback waits for them up to here.
  static let lookAheadSeconds = 60.0

  /// The text-track settings `--subtitles LANG` stands for: subtitles in LANG whatever the
  /// audio, else the stream's default track.
  static func configuration(language: String) -> TextTrackConfiguration {
    TextTrackConfiguration(
      preferences: TextTrackPreferences(languages: [language], mode: .always),
      segmentLookAheadSeconds: lookAheadSeconds)
  }

  /// A cue became active at `time`.
  func cue(
    time: MediaTime, start: MediaTime, end: MediaTime, plainText: String, track: String,
    language: String?
  ) {
    let flat = plainText.split(whereSeparator: \.isNewline).joined(separator: " / ")
    if output.json {
      console.line(
        JSONValue.object([
          JSONField("event", .string("cue")),
          JSONField("time", .seconds(time)),
          JSONField("start", .seconds(start)),
          JSONField("end", .seconds(end)),
          JSONField("track", .string(track)),
          JSONField("language", .text(language)),
          JSONField("text", .string(flat)),
        ]).encoded)
    } else {
      console.line("cue \(TimeText.seconds(time)) \(flat)")
    }
  }

  /// The track was chosen (nil: none). Printed in text mode unless `--quiet` or
  /// `--events` (whose own lines say it), and as JSON when `json` is true.
  func selection(_ option: TextTrackOption?, json: Bool) {
    if output.json {
      guard json else { return }
      console.line(
        JSONValue.object([
          JSONField("event", .string("textTrackChanged")),
          JSONField("track", .text(option?.id)),
          JSONField("language", .text(option?.language)),
          JSONField("label", .text(option?.label)),
        ]).encoded)
    } else if !output.quiet && !output.events {
      if let option {
        let language = option.language.map { " [\($0)]" } ?? ""
        console.line("subtitles: \(option.label)\(language)")
      } else {
        console.line("subtitles: none in \(language)")
      }
    }
  }

  /// The track (or a segment of it) failed to load; playback goes on.
  func failure(_ error: PlayheadError, json: Bool) {
    if output.json {
      guard json else { return }
      console.line(
        JSONValue.object([
          JSONField("event", .string("textTrackFailedToLoad")),
          JSONField("error", .string(error.message)),
          JSONField("errorCode", .string(error.code.rawValue)),
        ]).encoded)
    } else if !output.events {
      console.error("subtitles: \(error.message)")
    }
  }
}

/// Prints the subtitles of a player played directly (`play URL --subtitles LANG`) and
/// starts playback once the chosen track is loaded (or failed, or none was chosen), so
/// that no cue is missed at the start, even in fast mode.
final class DirectSubtitles: Sendable {
  let controller: TextTrackController
  private let lines: SubtitleLines
  /// Runs once, then is gone.
  private let startPlayback: Locked<(@Sendable () -> Void)?>

  /// Follows `player`'s text tracks, with `files` (`--sub-file`) as sidecar tracks; `start`
  /// runs once, on `queue`, when playback may begin.
  ///
  /// With `choosesByLanguage` (`--subtitles LANG`) the track in `lines.language` is chosen
  /// among the files and the media's own tracks; otherwise the first file is shown.
  init(
    player: Player, contentURL: URL, lines: SubtitleLines, files: [SubtitleFile] = [],
    choosesByLanguage: Bool = true, queue: DispatchQueue,
    start: @escaping @Sendable () -> Void
  ) {
    let configuration =
      choosesByLanguage
      ? SubtitleLines.configuration(language: lines.language)
      : TextTrackConfiguration(
        preferences: TextTrackPreferences(languages: [], mode: .forcedOnly),
        segmentLookAheadSeconds: SubtitleLines.lookAheadSeconds)
    controller = TextTrackController(
      player: player, sidecarTracks: files.map(\.textTrack), configuration: configuration,
      contentURL: contentURL)
    self.lines = lines
    startPlayback = Locked(start)
    controller.addObserver(queue: queue) { [self] event in handle(event) }
    if !choosesByLanguage, let first = controller.options.first {
      _ = controller.select(first)
    }
  }

  func close() {
    controller.close()
  }

  private func handle(_ event: TextTrackEvent) {
    switch event {
    case .selectionChanged(let option, _):
      lines.selection(option, json: true)
      if option == nil { begin() }
    case .loaded:
      begin()
    case .failed(_, let error):
      lines.failure(error, json: true)
      begin()
    case .cueEntered(let cue, let time):
      lines.cue(
        time: time, start: cue.start, end: cue.end, plainText: cue.plainText,
        track: cue.trackID, language: cue.language)
    case .cueExited, .audioChanged:
      break
    }
  }

  private func begin() {
    let start = startPlayback.withLock { start in
      defer { start = nil }
      return start
    }
    start?()
  }
}

/// Prints the subtitles of the controller's sessions (`play --playlist … --subtitles LANG`
/// and `play catalog:…`) from their text-track lifecycle events.
final class SessionSubtitles: PlaybackSessionConsumer, Sendable {
  private let lines: SubtitleLines

  init(lines: SubtitleLines) {
    self.lines = lines
  }

  func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
    switch lifecycleEvent.type {
    case .textCueEnter:
      guard let cue = lifecycleEvent.textCue else { return }
      lines.cue(
        time: lifecycleEvent.currentTime, start: cue.start, end: cue.end,
        plainText: cue.plainText, track: cue.trackID, language: cue.language)
    case .textTrackChanged:
      let id = lifecycleEvent.textTrackID
      lines.selection(session.textTracks?.options.first { $0.id == id }, json: false)
    case .textTrackFailedToLoad:
      if let error = lifecycleEvent.error { lines.failure(error, json: false) }
    default:
      break
    }
  }
}
