import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadNet

/// What `prepare` loaded from an HLS URL: the master playlist (if any) and every media
/// playlist it names (variants and renditions), by URL.
struct PreparedHLS: Sendable {
  var url: URL
  var master: MasterPlaylist?
  var media: [URL: MediaPlaylist]
  /// The Common Encryption key IDs a DASH manifest names (empty for HLS).
  var contentKeyIDs: [[UInt8]] = []
  /// The ClearKey licence server a DASH manifest names over http(s).
  var licenseURL: URL?
}

/// Loads an HLS stream's playlists, lists its tracks and turns a selection into a
/// `DownloadPlan` with local playlists.
///
/// A DASH manifest is prepared through its translation (`DASHPlaylistSource`): its
/// download is a local HLS stream of the chosen Representations' segments, which the
/// segment engine plays as it played the MPD.
struct HLSDownloadPlanner {
  let loader: DataLoader
  /// The translated MPD, once `prepare` found one.
  private var source: DASHPlaylistSource?

  init(loader: DataLoader) {
    self.loader = loader
  }

  /// Loads `url` and, for a master playlist, the media playlists of its variants and of
  /// its audio and subtitle renditions. Live playlists throw `.unsupportedFormat`.
  mutating func prepare(_ url: URL) throws(PlayheadError) -> PreparedHLS {
    let top = try load(url)
    switch top {
    case .media(let media):
      try requireVOD(media)
      return PreparedHLS(url: url, master: nil, media: [url: media])
    case .master(let master):
      guard !master.variants.isEmpty else {
        throw PlayheadError(
          .unsupportedFormat, "the master playlist \(url.absoluteString) has no variants",
          url: url)
      }
      var media: [URL: MediaPlaylist] = [:]
      var urls = master.variants.map(\.uri)
      urls += master.renditions.filter { $0.type == .audio || $0.type == .subtitles }
        .compactMap(\.uri)
      for mediaURL in urls where media[mediaURL] == nil {
        guard case .media(let playlist) = try load(mediaURL) else {
          throw PlayheadError(
            .unsupportedFormat, "expected a media playlist at \(mediaURL.absoluteString)",
            url: mediaURL)
        }
        try requireVOD(playlist)
        media[mediaURL] = playlist
      }
      var prepared = PreparedHLS(url: url, master: master, media: media)
      if let source {
        prepared.contentKeyIDs = source.contentKeyIDs
        prepared.licenseURL = source.clearKeyLicenseURL.flatMap {
          ["http", "https"].contains($0.scheme?.lowercased()) ? $0 : nil
        }
      }
      return prepared
    }
  }

  private mutating func load(_ url: URL) throws(PlayheadError) -> Playlist {
    if let source, let translated = try source.playlist(at: url, loader: loader) {
      return translated.playlist
    }
    let response = try loader.load(DataRequest(url: url, purpose: .playlist))
    if ContentSniffer.classify(response.data) == .dashManifest {
      let translation = try DASHPlaylistSource(manifestURL: url, manifestData: response.data)
      source = translation
      if let translated = try translation.playlist(at: url, loader: loader) {
        return translated.playlist
      }
    }
    do {
      return try PlaylistParser.parse(response.data, url: url)
    } catch {
      throw PlayheadError(
        .unsupportedFormat, "bad playlist \(url.absoluteString): \(error)", url: url)
    }
  }

  private func requireVOD(_ media: MediaPlaylist) throws(PlayheadError) {
    guard media.endList || media.playlistType == .vod else {
      throw PlayheadError(
        .unsupportedFormat,
        "\(media.url.absoluteString) is a live playlist; only VOD streams can be downloaded",
        url: media.url)
    }
  }

  // MARK: Tracks

  /// The tracks of a prepared stream: variants, then audio, then subtitle renditions.
  static func mediaInfo(_ prepared: PreparedHLS, id: DownloadID) -> DownloadMediaInfo {
    var tracks: [DownloadTrack] = []
    let duration = prepared.media.values.map { $0.totalDuration.seconds }.max()
    guard let master = prepared.master else {
      let media = prepared.media[prepared.url]
      tracks.append(
        DownloadTrack(
          trackIndex: 0, kind: .video, variantIndex: 0, isDefault: true,
          estimatedSizeBytes: media.flatMap(exactSize)))
      return DownloadMediaInfo(
        id: id, sourceURL: prepared.url, kind: .hls, durationSeconds: duration, tracks: tracks)
    }
    for (index, variant) in master.variants.enumerated() {
      let media = prepared.media[variant.uri]
      var size = media.flatMap(exactSize)
      if size == nil, let seconds = media?.totalDuration.seconds {
        // A bandwidth past what an Int64 byte count can hold gives no guess (never a trap).
        size = Int64(
          exactly: (Double(variant.averageBandwidth ?? variant.bandwidth) * seconds / 8)
            .rounded(.down))
      }
      tracks.append(
        DownloadTrack(
          trackIndex: tracks.count, kind: .video, variantIndex: index,
          bandwidth: variant.bandwidth, width: variant.resolution?.width,
          height: variant.resolution?.height, codecs: variant.codecs, isDefault: index == 0,
          estimatedSizeBytes: size))
    }
    for type in [RenditionType.audio, .subtitles] {
      for rendition in master.renditions where rendition.type == type && rendition.uri != nil {
        let media = rendition.uri.flatMap { prepared.media[$0] }
        tracks.append(
          DownloadTrack(
            trackIndex: tracks.count, kind: type == .audio ? .audio : .subtitles,
            language: rendition.language, name: rendition.name, isDefault: rendition.isDefault,
            estimatedSizeBytes: media.flatMap(exactSize)))
      }
    }
    return DownloadMediaInfo(
      id: id, sourceURL: prepared.url, kind: .hls, durationSeconds: duration, tracks: tracks)
  }

  /// The exact size of a playlist whose segments all carry byte ranges; nil otherwise
  /// (also when the ranges add up past `Int64.max`).
  private static func exactSize(_ media: MediaPlaylist) -> Int64? {
    var total: Int64 = 0
    for segment in media.segments {
      guard let length = segment.byteRange?.length else { return nil }
      let (sum, overflow) = total.addingReportingOverflow(length)
      if overflow { return nil }
      total = sum
    }
    return media.segments.isEmpty ? nil : total
  }

  // MARK: Plan

  /// The plan for `selection`: the chosen media playlists rewritten to local files under
  /// `video/`, `audio/` and `subtitles/`, a local master playlist, and one unit per
  /// segment, initialisation section and key.
  static func plan(
    _ prepared: PreparedHLS, selection: DownloadSelection, encryptionKeyID: String?
  ) throws(PlayheadError) -> DownloadPlan {
    var builder = PlanBuilder()
    guard let master = prepared.master else {
      guard let media = prepared.media[prepared.url] else {
        throw PlayheadError(.invalidState, "the prepared playlist is missing", url: prepared.url)
      }
      let path = try builder.add(media, folder: "video", role: .segment)
      try builder.requireCountableTotal(url: prepared.url)
      return DownloadPlan(
        kind: .hls, playbackPath: path, durationSeconds: media.totalDuration.seconds,
        selectionSummary: "media playlist", units: builder.units, playlists: builder.playlists,
        encryptionKeyID: encryptionKeyID)
    }
    let variantIndex = try chooseVariant(master, selection: selection, url: prepared.url)
    var variant = master.variants[variantIndex]
    guard let variantMedia = prepared.media[variant.uri] else {
      throw PlayheadError(.invalidState, "the variant playlist was not prepared", url: variant.uri)
    }
    var summary = "variant \(variantIndex) (\(variant.bandwidth) bit/s"
    summary += variant.resolution.map { ", \($0)" } ?? ""
    summary += ")"
    variant.uriString = try builder.add(variantMedia, folder: "video", role: .segment)
    var renditions: [Rendition] = []
    if let group = variant.audioGroup {
      let candidates = master.renditions.filter { $0.type == .audio && $0.groupID == group }
      if var audio = try chooseRendition(
        candidates, language: selection.audioLanguage, kind: "audio", url: prepared.url)
      {
        if let uri = audio.uri {
          guard let media = prepared.media[uri] else {
            throw PlayheadError(.invalidState, "the audio playlist was not prepared", url: uri)
          }
          audio.uriString = try builder.add(media, folder: "audio", role: .segment)
        }
        audio.isDefault = true
        audio.autoselect = true
        summary += ", audio \(audio.language ?? audio.name)"
        renditions.append(audio)
      }
    }
    if let group = variant.subtitlesGroup {
      if let language = selection.subtitleLanguage {
        let candidates = master.renditions.filter { $0.type == .subtitles && $0.groupID == group }
        if var subtitles = try chooseRendition(
          candidates, language: language, kind: "subtitle", url: prepared.url),
          let uri = subtitles.uri, let media = prepared.media[uri]
        {
          subtitles.uriString = try builder.add(media, folder: "subtitles", role: .subtitle)
          summary += ", subtitles \(subtitles.language ?? subtitles.name)"
          renditions.append(subtitles)
        }
      } else {
        variant.subtitlesGroup = nil
        variant.attributes["SUBTITLES"] = nil
      }
    } else if let language = selection.subtitleLanguage {
      throw PlayheadError(
        .invalidArgument,
        "no subtitle rendition in language '\(language)' for variant \(variantIndex)",
        url: prepared.url)
    }
    renditions += master.renditions.filter { $0.type == .closedCaptions }
    var local = master
    local.url = prepared.url
    local.variants = [variant]
    local.iFrameVariants = []
    local.renditions = renditions
    local.sessionData = local.sessionData.filter { $0.uriString == nil }
    local.sessionKeys = []
    local.contentSteering = nil
    builder.playlists.append(
      LocalPlaylist(path: "master.m3u8", text: PlaylistWriter.write(local)))
    try builder.requireCountableTotal(url: prepared.url)
    return DownloadPlan(
      kind: .hls, playbackPath: "master.m3u8",
      durationSeconds: variantMedia.totalDuration.seconds, selectionSummary: summary,
      units: builder.units, playlists: builder.playlists, encryptionKeyID: encryptionKeyID)
  }

  /// The variant index the selection names (see `DownloadSelection`).
  static func chooseVariant(_ master: MasterPlaylist, selection: DownloadSelection, url: URL)
    throws(PlayheadError) -> Int
  {
    let variants = master.variants
    if let index = selection.variantIndex {
      guard variants.indices.contains(index) else {
        throw PlayheadError(
          .invalidArgument,
          "variant \(index) does not exist; the stream has \(variants.count) (0–\(variants.count - 1))",
          url: url)
      }
      return index
    }
    let ordered = variants.indices.sorted { variants[$0].bandwidth < variants[$1].bandwidth }
    guard let highest = ordered.last, let lowest = ordered.first else {
      throw PlayheadError(.unsupportedFormat, "the master playlist has no variants", url: url)
    }
    if let cap = selection.maxBitrate {
      return ordered.last { variants[$0].bandwidth <= cap } ?? lowest
    }
    return highest
  }

  /// The rendition in `language` (an error when none), else the default, else the first.
  static func chooseRendition(
    _ candidates: [Rendition], language: String?, kind: String, url: URL
  ) throws(PlayheadError) -> Rendition? {
    if let language {
      if let match = candidates.first(where: { languageMatches($0.language, language) }) {
        return match
      }
      let available = candidates.compactMap(\.language)
      throw PlayheadError(
        .invalidArgument,
        "no \(kind) rendition in language '\(language)' (available: \(available.isEmpty ? "none" : available.joined(separator: ", ")))",
        url: url)
    }
    return candidates.first(where: \.isDefault) ?? candidates.first
  }

  /// Whether two language tags share their primary subtag (case-insensitive).
  static func languageMatches(_ tag: String?, _ wanted: String) -> Bool {
    guard let tag else { return false }
    func primary(_ text: String) -> String {
      String(text.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
    }
    return tag.lowercased() == wanted.lowercased() || primary(tag) == primary(wanted)
  }
}

/// Collects units and rewritten playlists, giving each remote file one local name.
private struct PlanBuilder {
  var units: [DownloadUnit] = []
  var playlists: [LocalPlaylist] = []

  /// Rewrites `media` into `folder/index.m3u8`: segments become `folder/segNNNNN.ext`
  /// (byte ranges split into files), initialisation sections `folder/initN.ext`, AES-128
  /// keys `folder/keyN.key`. Returns the playlist's path.
  mutating func add(_ media: MediaPlaylist, folder: String, role: OfflineManifest.Role)
    throws(PlayheadError) -> String
  {
    var local = media
    var keyNames: [String: String] = [:]
    var mapNames: [String: String] = [:]
    var segments: [MediaSegment] = []
    let count = max(1, media.segments.count)
    for (index, original) in media.segments.enumerated() {
      var segment = original
      segment.keys = try segment.keys.map { key throws(PlayheadError) in
        try localKey(key, folder: folder, names: &keyNames)
      }
      if var map = segment.map {
        let identity = "\(map.uri.absoluteString)|\(map.byteRange?.description ?? "")"
        let name: String
        if let known = mapNames[identity] {
          name = known
        } else {
          name = "init\(mapNames.count)." + Self.fileExtension(of: map.uri, fallback: "mp4")
          mapNames[identity] = name
          units.append(
            DownloadUnit(
              source: map.uri, rangeOffset: map.byteRange?.offset,
              rangeLength: map.byteRange?.length, path: "\(folder)/\(name)",
              role: .initializationSection, expectedLength: map.byteRange?.length))
        }
        map.keys = try map.keys.map { key throws(PlayheadError) in
          try localKey(key, folder: folder, names: &keyNames)
        }
        map.uriString = name
        map.byteRange = nil
        segment.map = map
      }
      let name =
        String(format: "seg%05d.", index)
        + Self.fileExtension(of: original.uri, fallback: role == .subtitle ? "vtt" : "ts")
      if !original.gap {
        units.append(
          DownloadUnit(
            source: original.uri, rangeOffset: original.byteRange?.offset,
            rangeLength: original.byteRange?.length, path: "\(folder)/\(name)", role: role,
            expectedLength: original.byteRange?.length,
            estimatedLength: original.byteRange?.length ?? Self.estimate(media, count: count)))
      }
      segment.uriString = name
      segment.byteRange = nil
      segment.parts = []
      segments.append(segment)
    }
    local.segments = segments
    local.trailingParts = []
    local.preloadHints = []
    local.renditionReports = []
    local.serverControl = nil
    local.partTargetDuration = nil
    let path = "\(folder)/index.m3u8"
    playlists.append(LocalPlaylist(path: path, text: PlaylistWriter.write(local)))
    return path
  }

  /// The key with its URI made local (AES-128 keys are downloaded once per playlist
  /// folder; `data:` and key-system keys stay as they are); other methods than NONE and
  /// AES-128 throw `.unsupportedFormat`.
  private mutating func localKey(
    _ key: EncryptionKey, folder: String, names: inout [String: String]
  ) throws(PlayheadError) -> EncryptionKey {
    switch key.method {
    case .none:
      return key
    case .aes128:
      // A data: key is inline and a key-system key is the content-key provider's: both are
      // kept as they are, with nothing to download.
      if key.keyFormat == "identity" && !key.isLoadable { return key }
      guard key.keyFormat == "identity", let uri = key.uri else {
        throw PlayheadError(
          .unsupportedFormat,
          "AES-128 keys of format '\(key.keyFormat)' cannot be downloaded (only 'identity')")
      }
      var local = key
      if let known = names[uri.absoluteString] {
        local.uriString = known
      } else {
        let name = "key\(names.count).key"
        names[uri.absoluteString] = name
        units.append(
          DownloadUnit(
            source: uri, path: "\(folder)/\(name)", role: .key, expectedLength: nil,
            estimatedLength: 16))
        local.uriString = name
      }
      return local
    default:
      throw PlayheadError(
        .unsupportedFormat,
        "\(key.method.rawValue) (DRM) streams cannot be downloaded; only clear and AES-128 ones")
    }
  }

  /// A per-segment size guess from the playlist's `EXT-X-BITRATE`, else nil (also when
  /// the guess does not fit an Int64).
  private static func estimate(_ media: MediaPlaylist, count: Int) -> Int64? {
    guard let segment = media.segments.first, let kilobits = segment.bitrate else { return nil }
    return Int64(exactly: (Double(kilobits) * 1000 / 8 * segment.duration.seconds).rounded(.down))
  }

  /// Throws `.unsupportedFormat` when the units' sizes add up past `Int64.max` (byte
  /// ranges or bitrates no real stream has), so that progress totals never overflow.
  func requireCountableTotal(url: URL) throws(PlayheadError) {
    var total: Int64 = 0
    for unit in units {
      let (sum, overflow) = total.addingReportingOverflow(unit.countedLength)
      guard !overflow else {
        throw PlayheadError(
          .unsupportedFormat,
          "the playlist's byte ranges or bitrates add up to more bytes than can be counted",
          url: url)
      }
      total = sum
    }
  }

  /// The lowercase path extension of `url` when it is a short alphanumeric one.
  static func fileExtension(of url: URL, fallback: String) -> String {
    let ext = url.pathExtension.lowercased()
    guard !ext.isEmpty, ext.count <= 5, ext.allSatisfy({ $0.isLetter || $0.isNumber }) else {
      return fallback
    }
    return ext
  }
}
