import Foundation
import PlayheadCore
import PlayheadNet

/// Settings of a `TextTrackController` (and of the sidecar-subtitles session provider,
/// which makes one per session).
public struct TextTrackConfiguration: Sendable {
  /// How the track is chosen when the item becomes ready.
  public var preferences: TextTrackPreferences
  /// Languages of the audio rendition to play, most preferred first: when the item becomes
  /// ready, the first AUTOSELECT or DEFAULT rendition in the first of them that has one
  /// replaces the engine's start choice (an exact tag wins over a language-only match).
  /// Empty (the default) keeps the engine's choice.
  public var preferredAudioLanguages: [String]
  /// Kept for compatibility: cue times now come from the engine's text renderer, which
  /// announces every enter and exit at its own item time, so nothing is checked on an
  /// interval.
  public var progressInterval: MediaTime
  /// How far ahead of the play position HLS subtitle segments are fetched, in seconds; nil
  /// (the default) fetches the whole rendition, nearest segments first.
  public var segmentLookAheadSeconds: Double?
  /// Where WebVTT files, subtitle playlists and segments are loaded from
  /// (`PlayerItem.textNetwork`); nil uses the player's data-source stack (the HLS stream's
  /// loader: its cache, headers and retries).
  public var network: (any DataSourceFactory)?

  public init(
    preferences: TextTrackPreferences = TextTrackPreferences(),
    preferredAudioLanguages: [String] = [],
    progressInterval: MediaTime = MediaTime(value: 1, timescale: 4),
    segmentLookAheadSeconds: Double? = nil, network: (any DataSourceFactory)? = nil
  ) {
    self.preferences = preferences
    self.preferredAudioLanguages = preferredAudioLanguages
    self.progressInterval = progressInterval
    self.segmentLookAheadSeconds = segmentLookAheadSeconds
    self.network = network
  }

  /// The look-ahead as a time; nil for none (a negative or non-finite value is none).
  var lookAhead: MediaTime? {
    guard let seconds = segmentLookAheadSeconds, seconds.isFinite, seconds >= 0 else {
      return nil
    }
    return MediaTime(seconds: seconds, preferredTimescale: 1000)
  }
}
