import Foundation
import PlayheadCore
import PlayheadDASH
import PlayheadHLS

/// An MPD as the segment engine's playlist model (decision 0056): a master playlist with
/// one variant per video Representation (by rank of bandwidth, held across Periods), one
/// audio rendition per audio AdaptationSet, one subtitle rendition per text set (a WebVTT
/// file, or `wvtt`/`stpp` in fMP4 under its initialization section), and a
/// media playlist per variant or rendition whose segments run through every Period, a
/// discontinuity at each boundary.
///
/// Playlists are named by URLs of the manifest with a `#dash:` fragment (`#dash:v2`,
/// `#dash:a0`, `#dash:t1`); nothing loads them over the network, `DASHPlaylistSource`
/// answers for them. An MPD with no video plays its first audio set's Representations as
/// the variants.
struct DASHTranslation: Sendable {
  let mpd: MPD
  /// The manifest's URL (without fragment), the base of the playlist names.
  let manifestURL: URL
  let master: MasterPlaylist
  /// What each playlist plays: the Representation of each Period it runs through.
  let tracks: [String: [DASHTrackPart]]

  /// The group names the master uses.
  static let audioGroup = "dash-audio"
  static let subtitleGroup = "dash-text"

  /// The name of the playlist `key` (`v0`, `a1`, `t0`).
  static func playlistURL(_ key: String, manifest: URL) -> URL {
    URL(string: "#dash:\(key)", relativeTo: manifest)?.absoluteURL ?? manifest
  }

  /// The key of `url` when it names one of `manifest`'s playlists.
  static func key(of url: URL, manifest: URL) -> String? {
    guard let fragment = url.fragment, fragment.hasPrefix("dash:") else { return nil }
    var bare = URLComponents(url: url, resolvingAgainstBaseURL: true)
    bare?.fragment = nil
    guard bare?.url?.absoluteString == manifest.absoluteString else { return nil }
    return String(fragment.dropFirst(5))
  }

  /// Translates `mpd`, loaded from `manifestURL`.
  ///
  /// Throws `.noPlayableStreams` when no Period has a video or audio AdaptationSet with a
  /// Representation.
  init(mpd: MPD, manifestURL: URL) throws(PlayheadError) {
    self.mpd = mpd
    var bare = URLComponents(url: manifestURL, resolvingAgainstBaseURL: true)
    bare?.fragment = nil
    let manifest = bare?.url ?? manifestURL
    self.manifestURL = manifest
    let periods = mpd.periods.enumerated().map {
      DASHPeriodSets(index: $0.offset, period: $0.element)
    }
    guard let firstPlayable = periods.first(where: { $0.main != nil }),
      let main = firstPlayable.main
    else {
      throw PlayheadError(
        .noPlayableStreams,
        "the MPD \(manifestURL.absoluteString) has no video or audio Representation to play",
        url: manifestURL)
    }
    let mainIsVideo = main.component == .video
    var tracks: [String: [DASHTrackPart]] = [:]
    // Variants: the main set's Representations by bandwidth; in every Period the one of the
    // same rank (the nearest when a Period has fewer).
    let ladder = main.representations.sorted { $0.bandwidth < $1.bandwidth }
    for rank in ladder.indices {
      tracks["v\(rank)"] = periods.compactMap { sets in
        guard let set = sets.main else { return nil }
        let sorted = set.representations.sorted { $0.bandwidth < $1.bandwidth }
        return DASHTrackPart(
          period: sets.index, representation: sorted[min(rank, sorted.count - 1)])
      }
    }
    // Audio renditions (only beside video): every audio set of the first Period, matched in
    // later Periods by language and label, else by position; its highest Representation.
    var renditions: [Rendition] = []
    let audioSets = mainIsVideo ? firstPlayable.audio : []
    for (position, set) in audioSets.enumerated() {
      let key = "a\(position)"
      tracks[key] = periods.compactMap { sets in
        guard let match = sets.matchingAudio(set, position: position),
          let representation = match.representations.max(by: { $0.bandwidth < $1.bandwidth })
        else { return nil }
        return DASHTrackPart(period: sets.index, representation: representation)
      }
      renditions.append(
        Rendition(
          type: .audio, groupID: Self.audioGroup,
          name: set.displayName(fallback: "Audio \(position + 1)"), language: set.language,
          isDefault: position == 0, autoselect: true,
          channels: nil, uri: Self.playlistURL(key, manifest: manifest), baseURL: manifest))
    }
    // Subtitles: WebVTT files and fMP4 text (wvtt, stpp) of the first Period.
    let textSets = firstPlayable.text.filter(\.isPlayableText)
    for (position, set) in textSets.enumerated() {
      let key = "t\(position)"
      tracks[key] = periods.compactMap { sets in
        guard let match = sets.matchingText(set, position: position),
          let representation = match.representations.first
        else { return nil }
        return DASHTrackPart(period: sets.index, representation: representation)
      }
      renditions.append(
        Rendition(
          type: .subtitles, groupID: Self.subtitleGroup,
          name: set.displayName(fallback: "Subtitles \(position + 1)"), language: set.language,
          isDefault: false, autoselect: true,
          uri: Self.playlistURL(key, manifest: manifest), baseURL: manifest))
    }
    let defaultAudio = audioSets.first?.representations.max { $0.bandwidth < $1.bandwidth }
    let variants = ladder.enumerated().map { rank, representation in
      let codecs = [representation.codecs, defaultAudio?.codecs].compactMap { $0 }
      return Variant(
        uri: Self.playlistURL("v\(rank)", manifest: manifest),
        bandwidth: representation.bandwidth + (defaultAudio?.bandwidth ?? 0),
        codecs: codecs.isEmpty ? nil : codecs.joined(separator: ","),
        resolution: representation.width.flatMap { width in
          representation.height.map { Resolution(width: width, height: $0) }
        },
        frameRate: representation.frameRate.flatMap(Self.frameRate),
        audioGroup: audioSets.isEmpty ? nil : Self.audioGroup,
        subtitlesGroup: textSets.isEmpty ? nil : Self.subtitleGroup,
        stableVariantID: representation.id)
    }
    master = MasterPlaylist(
      url: manifest, independentSegments: true, variants: variants, renditions: renditions)
    self.tracks = tracks
  }

  /// The first ClearKey licence server a Representation's ContentProtection names.
  var clearKeyLicenseURL: URL? {
    for period in mpd.periods {
      for set in period.adaptationSets {
        for representation in set.representations {
          if let url = representation.contentProtections.lazy.compactMap(\.licenseURL).first {
            return url
          }
        }
      }
    }
    return nil
  }

  /// `30000/1001` or `25` as frames per second.
  static func frameRate(_ text: String) -> Double? {
    let parts = text.split(separator: "/")
    guard let numerator = parts.first.flatMap({ Double($0) }) else { return nil }
    guard parts.count == 2 else { return numerator }
    guard let denominator = Double(parts[1]), denominator > 0 else { return nil }
    return numerator / denominator
  }
}

/// The Representation a playlist plays in one Period.
struct DASHTrackPart: Sendable {
  let period: Int
  let representation: MPDRepresentation
}

/// A Period's AdaptationSets sorted by what they carry.
struct DASHPeriodSets {
  let index: Int
  let video: [MPDAdaptationSet]
  let audio: [MPDAdaptationSet]
  let text: [MPDAdaptationSet]

  init(index: Int, period: MPDPeriod) {
    self.index = index
    let playable = period.adaptationSets.filter { !$0.representations.isEmpty }
    video = playable.filter { $0.component == .video }
    audio = playable.filter { $0.component == .audio }
    text = playable.filter { $0.component == .text }
  }

  /// The set the variants come from: the main video set (Role main, else the first), else
  /// the first audio set.
  var main: MPDAdaptationSet? {
    video.first(where: \.isMain) ?? video.first ?? audio.first(where: \.isMain) ?? audio.first
  }

  /// The audio set that continues `set` (the `position`th of the first Period) here.
  func matchingAudio(_ set: MPDAdaptationSet, position: Int) -> MPDAdaptationSet? {
    Self.match(set, position: position, in: audio)
  }

  /// The text set that continues `set` here.
  func matchingText(_ set: MPDAdaptationSet, position: Int) -> MPDAdaptationSet? {
    Self.match(set, position: position, in: text.filter(\.isPlayableText))
  }

  private static func match(
    _ set: MPDAdaptationSet, position: Int, in candidates: [MPDAdaptationSet]
  ) -> MPDAdaptationSet? {
    if let same = candidates.first(where: { $0.language == set.language && $0.labels == set.labels }
    ) {
      return same
    }
    guard !candidates.isEmpty else { return nil }
    return candidates[min(position, candidates.count - 1)]
  }
}
