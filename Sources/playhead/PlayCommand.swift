import Foundation
import Playhead

/// `playhead play <path-or-url> [options]`: plays the media to its end.
struct PlayCommand: Command {
  static let usage = Usage.play

  /// The input as typed.
  var input: String
  /// `--events`, `--json`, `--quiet`.
  var output = OutputOptions()
  /// `--fast`, `--rate`, `--start`, `--duration`, `--preview`, `--no-video`, `--no-audio`.
  var playback = PlaybackOptions()
  /// `--snapshot FILE --at T [--burn-subtitles]`.
  var snapshotOptions = SnapshotOptions()
  /// `--snapshot FILE --at T`, checked.
  var snapshot: (path: String, atSeconds: Double)?
  /// `--wav FILE`, `--frames DIR [--every N]`.
  var sinks = SinkOptions()
  /// `--subtitles`, `--sub-file`, `--audio`, `--decrypt-key-hex`.
  var tracks = TrackOptions()
  /// `--playlist FILE [--auto-advance] [--auto-play]`.
  var playlistOptions = PlaylistOptions()
  /// `--max-bitrate`, `--max-pixels`, `--rendition`, `--start-bandwidth`, `--scene`.
  var stream = StreamOptions()
  /// `--key KID:KEY`, `--license-url URL`.
  var keys = KeyOptions()
  /// `--header`, `--referer`, `--user-agent`, `--timeout`, `--retries`.
  var requests = RequestOptions()
  /// `--cache-dir DIR [--cache-max-mb N]`.
  var cache = CacheOptions()
  /// `--sign-key KEY [--sign-validity-seconds N]`.
  var signing = SignOptions()
  /// The Playback API options of a `catalog:` input.
  var catalogOptions = CatalogOptions()
  /// `--audio-filter`, `--audio-channel`.
  var audioOptions = AudioOptions()
  /// `--no-window`, `--window`, `--keep-open`, `--fullscreen`, `--window-size`, `--gravity`,
  /// `--background`.
  var window = WindowRequest()
  /// `--playlist FILE [--auto-advance] [--auto-play]`: play an SDK playlist instead.
  var playlist: PlaylistPlayback?
  /// `catalog:ACCOUNT/VIDEO_ID --policy-key K …`: fetch from the Playback API and play.
  var catalog: CatalogPlayback?
  /// `--record FILE [--record-secrets]`.
  var record = RecordOptions()
  /// `--ad-tag URL [--ad-timeout MS] [--seek-mode M]`.
  var adOptions = AdOptions()
  /// `--seek-at CLOCK=TARGET`.
  var seekScript = SeekScript()
  /// The arguments as given (kept in a recording, for the replay).
  var arguments: [String] = []
  /// The recording `playhead replay` plays again: it is the player's network.
  var replay: SessionRecording?

  /// The option groups `play` takes.
  private static var optionGroups: [OptionSlot<PlayCommand>] {
    [
      .group(\.output), .group(\.playback),
      .group(\.snapshotOptions, names: SnapshotOptions.playNames), .group(\.sinks),
      .group(\.tracks), .group(\.playlistOptions), .group(\.window), .group(\.audioOptions),
      .group(\.stream), .group(\.keys), .group(\.requests), .group(\.cache), .group(\.signing),
      .group(\.catalogOptions), .group(\.record), .group(\.seekScript), .group(\.adOptions),
    ]
  }

  init(parsing arguments: [String]) throws(UsageError) {
    self.input = ""
    self.arguments = arguments
    var cursor = ArgumentCursor(arguments, verb: "play")
    let input = try cursor.readInput(into: &self, groups: Self.optionGroups)
    try cache.validate()
    try signing.validate()
    try record.validate()
    let hasSnapshot = snapshotOptions.path != nil || snapshotOptions.atSeconds != nil
    let hasRange = hasSnapshot || playback.startSeconds != nil || playback.durationSeconds != nil
    if let playlistPath = playlistOptions.path {
      guard input == nil else {
        throw UsageError("give either a media path or URL or '--playlist FILE', not both")
      }
      guard !hasRange else {
        throw UsageError(
          "options '--snapshot', '--at', '--start' and '--duration' do not apply to '--playlist'")
      }
      guard tracks.audio == nil else {
        throw UsageError("option '--audio' applies to a media path or URL, not to '--playlist'")
      }
      guard tracks.subtitleFiles.isEmpty else {
        throw UsageError(
          "option '--sub-file' applies to a media path or URL, not to '--playlist'")
      }
      playlist = PlaylistPlayback(
        path: playlistPath, autoAdvance: playlistOptions.autoAdvance,
        autoPlay: playlistOptions.autoPlay)
    } else if playlistOptions.autoAdvance || playlistOptions.autoPlay {
      throw UsageError("options '--auto-advance' and '--auto-play' go with '--playlist FILE'")
    }
    guard let input = input ?? playlistOptions.path else { throw cursor.missingInput() }
    self.input = input
    catalog = try CatalogPlayback(input: input, options: catalogOptions)
    if catalog == nil && !catalogOptions.isEmpty {
      throw UsageError(
        "the Playback API options go with a 'catalog:ACCOUNT/VIDEO_ID' input")
    }
    if catalog != nil && tracks.audio != nil {
      throw UsageError("option '--audio' applies to a media path or URL, not to 'catalog:'")
    }
    if catalog != nil && !tracks.subtitleFiles.isEmpty {
      throw UsageError("option '--sub-file' applies to a media path or URL, not to 'catalog:'")
    }
    if catalog != nil && hasRange {
      throw UsageError(
        "options '--snapshot', '--at', '--start' and '--duration' do not apply to 'catalog:'")
    }
    if adOptions.tag == nil && (adOptions.isStitched || adOptions.interstitials == false) {
      throw UsageError("options '--ads-stitched' and '--no-interstitials' go with '--ad-tag URL'")
    }
    if !adOptions.isOn && !adOptions.isEmpty {
      throw UsageError(
        "options '--ad-timeout' and '--seek-mode' go with '--ad-tag URL' or '--interstitials'")
    }
    if adOptions.isOn
      && (hasSnapshot || playback.durationSeconds != nil || catalog != nil)
    {
      throw UsageError(
        "options '--ad-tag' and '--interstitials' do not go with '--snapshot', '--at',"
          + " '--duration' or 'catalog:'")
    }
    snapshot = try snapshotOptions.playSnapshot()
    try sinks.validate()
    try playback.validate()
    if !seekScript.seeks.isEmpty && playback.durationSeconds != nil
      && playback.startSeconds == nil
    {
      // Without --start, --duration waits for the item to be ready, off the clock; a
      // scripted seek could then come before or after playback starts.
      throw UsageError("option '--seek-at' with '--duration' needs '--start S'")
    }
    if playback.isAudioDisabled && tracks.audio != nil {
      throw UsageError("option '--audio' cannot be used with '--no-audio'")
    }
    if playback.isAudioDisabled && !audioOptions.isEmpty {
      throw UsageError(
        "options '--audio-filter' and '--audio-channel' cannot be used with '--no-audio'")
    }
    if playback.isAudioDisabled && sinks.wavPath != nil {
      throw UsageError("option '--wav' cannot be used with '--no-audio'")
    }
    if playback.isVideoDisabled && sinks.framesDirectory != nil {
      throw UsageError("option '--frames' cannot be used with '--no-video'")
    }
    try window.validate(videoDisabled: playback.isVideoDisabled)
    if snapshotOptions.burnsSubtitles && (snapshot == nil || !tracks.showsSubtitles) {
      throw UsageError(
        "option '--burn-subtitles' goes with '--snapshot FILE --at T' and '--subtitles LANG' "
          + "or '--sub-file FILE'")
    }
  }

  func run(console: Console) throws(PlayheadError) -> ExitCode {
    if let playlist { return try playlist.run(self, console: console) }
    if let ads = adOptions.configuration() {
      // Ads play through the SDK's controller and its ads plug-in.
      let url = try signing.signed(URLArgument.url(fromArgument: input))
      return try PlaylistPlayback.play(
        [PlayheadSDK.Video(url: url)], autoAdvance: true, autoPlay: true, command: self,
        console: console, ads: ads, startSeconds: playback.startSeconds)
    }
    if let catalog { return try catalog.run(self, console: console) }
    let url = try signing.signed(URLArgument.url(fromArgument: input))
    try IncompleteDownload.check(url)
    if let offlineKey = tracks.offlineKey { try OfflineKeyRegistry.shared.register(offlineKey) }
    if let snapshot {
      try takeSnapshot(snapshot, of: url, console: console)
    }
    var configuration = try makeConfiguration()
    let recorder = try record.recorder(
      arguments: arguments, media: url, clock: configuration.clock)
    configuration.recorder = recorder
    let screen = try openScreen(for: url, console: console)
    screen?.install(in: &configuration)
    let item = PlayerItem(asset: Asset(url: url))
    let start = MediaTime(commandLineSeconds: playback.startSeconds ?? 0)
    let duration = playback.durationSeconds.map { MediaTime(commandLineSeconds: $0) }
    if let duration, playback.startSeconds != nil { item.forwardPlaybackEndTime = start + duration }
    // Without --start, --duration counts from where playback starts, known once the item
    // is ready (a live stream starts near its edge); playback waits for that.
    let endsFromReady = duration != nil && playback.startSeconds == nil
    if let previewSeconds = playback.previewSeconds {
      item.previewDuration = MediaTime(commandLineSeconds: previewSeconds)
    }
    let audioChoice = tracks.audio.map { AudioChoice(language: $0) }
    audioChoice?.apply(to: item)
    let player = Player(configuration: configuration)
    // With --audio, playback starts once the track in the language plays.
    let starter = PlayStart(
      player: player,
      conditions: (tracks.showsSubtitles ? 1 : 0) + (endsFromReady ? 1 : 0)
        + (audioChoice == nil ? 0 : 1))
    let session = PlaySession(
      player: player, item: item, output: output, console: console,
      renditionIndex: stream.renditionIndex, audio: audioChoice,
      keepsOpen: screen != nil && window.keepsOpen, recorder: recorder
    ) { starter.met() }
    session.begin()
    screen?.controls.attach(player: player, item: item, session: session)
    if endsFromReady, let duration { starter.endAfter(duration, of: item, on: session.queue) }
    // With --subtitles or --sub-file, playback starts once the subtitle track is loaded.
    for file in tracks.subtitleFiles { file.add(to: item) }
    let subtitleLines =
      tracks.showsSubtitles
      ? SubtitleLines(
        language: tracks.subtitles ?? tracks.subtitleFiles.first?.language ?? "und", output: output,
        console: console)
      : nil
    // In fast mode the commands reach the player together, at one clock time, so the
    // same input gives the same events every run (decision 0028).
    let textTracks = subtitleLines.map { lines in
      DirectSubtitles(
        player: player, contentURL: url, lines: lines, files: tracks.subtitleFiles,
        choosesByLanguage: tracks.subtitles != nil, queue: session.queue
      ) { starter.met() }
    }
    if let textTracks { screen?.controls.useTextTracks(textTracks.controller) }
    configuration.clock.runAsWorker {
      if playback.startSeconds != nil {
        // Opens at the start time: nothing before it is fetched.
        player.replaceCurrentItem(with: item, startingAt: start)
      } else {
        player.replaceCurrentItem(with: item)
      }
      if let rate = playback.rate { player.defaultRate = rate }
      seekScript.start(on: player, from: session.clockOrigin, recorder: recorder)
      starter.begin()
    }
    let outcome = session.waitForOutcome()
    textTracks?.close()
    player.close()
    screen?.close()
    let status = session.end(outcome)
    do {
      try recorder?.finish()
    } catch {
      console.error(error.message)
      return status == .success ? ExitCode(error) : status
    }
    return status
  }

  /// The player's configuration: clock, sinks, disabled tracks, HLS and HTTP settings,
  /// disk cache, URL signing.
  func makeConfiguration() throws(PlayheadError) -> PlayerConfiguration {
    let audioSink = try sinks.makeAudioSink()
    let videoSink = try sinks.makeVideoSink()
    var configuration =
      playback.fast
      ? PlayerConfiguration.fast(videoSink: videoSink, audioSink: audioSink)
      : PlayerConfiguration(videoSink: videoSink, audioSink: audioSink)
    configuration.isVideoDisabled = playback.isVideoDisabled
    configuration.isAudioDisabled = playback.isAudioDisabled
    audioOptions.apply(to: &configuration)
    requests.apply(to: &configuration.request)
    stream.apply(to: &configuration.hls)
    try keys.apply(to: &configuration.hls)
    configuration.cache = try cache.open()
    signing.apply(to: &configuration)
    if let replay {
      // The recording is the network; nothing is cached, so every transfer is replayed.
      configuration.network = ReplayingNetwork(recording: replay, clock: configuration.clock)
      configuration.cache = nil
    }
    return configuration
  }

  /// Writes the `--snapshot` file with a player of its own, before playback starts.
  private func takeSnapshot(
    _ request: (path: String, atSeconds: Double), of url: URL, console: Console
  ) throws(PlayheadError) {
    let shot = try SnapshotTaker.take(
      url: url, at: MediaTime(commandLineSeconds: request.atSeconds), width: nil, height: nil,
      gravity: .fit,
      burning: snapshotOptions.burnsSubtitles
        ? SnapshotTaker.Subtitles(language: tracks.subtitles, files: tracks.subtitleFiles) : nil)
    try shot.write(toPath: request.path)
    if output.json {
      console.line(
        JSONValue.object([
          JSONField("event", .string("snapshot")),
          JSONField("file", .string(request.path)),
          JSONField("time", .number(JSONValue.rounded(request.atSeconds, places: 6))),
          JSONField("width", .integer(Int64(shot.width))),
          JSONField("height", .integer(Int64(shot.height))),
        ]).encoded)
    } else if !output.quiet {
      console.line("snapshot: \(request.path) (\(shot.width)x\(shot.height))")
    }
  }
}
