import Foundation
import Playhead
import PlayheadTesting

/// `playhead play <path-or-url> [options]`: plays the media to its end.
struct PlayCommand: Command {
  static let usage = Usage.play

  /// What `play` prints.
  struct Output: Sendable {
    /// `--events`: one line per event.
    var events = false
    /// `--json`: JSON lines only.
    var json = false
    /// `--quiet`: errors (and `--events` lines) only.
    var quiet = false
  }

  /// The input as typed.
  var input: String
  var output = Output()
  /// `--fast`: play on a manual clock that jumps to each deadline.
  var fast = false
  var rate: Float?
  var startSeconds: Double?
  var durationSeconds: Double?
  /// `--preview S`: play only the first S seconds of the media (seed 003's preview).
  var previewSeconds: Double?
  var isVideoDisabled = false
  var isAudioDisabled = false
  /// `--snapshot FILE --at T`.
  var snapshot: (path: String, atSeconds: Double)?
  var wavPath: String?
  var framesDirectory: String?
  var everyNthFrame = 1
  /// `--max-bitrate`, `--max-pixels`, `--rendition`, `--start-bandwidth`, `--scene`.
  var stream = StreamOptions()
  /// `--header`, `--referer`, `--user-agent`, `--timeout`, `--retries`.
  var requests = RequestOptions()
  /// `--cache-dir DIR [--cache-max-mb N]`.
  var cache = CacheOptions()
  /// `--sign-key KEY [--sign-validity-seconds N]`.
  var signing = SignOptions()
  /// `--playlist FILE [--auto-advance] [--auto-play]`: play an SDK playlist instead.
  var playlist: PlaylistPlayback?
  /// `catalog:ACCOUNT/VIDEO_ID --policy-key K …`: fetch from the Playback API and play.
  var catalog: CatalogPlayback?
  /// `--subtitles LANG`: show the subtitles in LANG, printing each cue as it becomes active.
  var subtitles: String?
  /// `--sub-file FILE` (repeatable): WebVTT files shown as subtitle tracks of the media.
  var subtitleFiles: [SubtitleFile] = []
  /// `--audio LANG`: play the audio track (HLS rendition or file stream) in LANG.
  var audio: String?
  /// `--decrypt-key-hex HEX`: the key of an offline download encrypted at rest.
  var offlineKey: [UInt8]?
  /// `--audio-filter`, `--audio-channel`.
  var audioOptions = AudioOptions()
  /// `--burn-subtitles`: the `--snapshot` shows the subtitle cues at its time (the
  /// `--subtitles` language, else the first `--sub-file`).
  var burnsSubtitles = false
  /// `--no-window`, `--window`, `--keep-open`, `--fullscreen`, `--window-size`, `--gravity`,
  /// `--background`.
  var window = WindowRequest()
  /// `--record FILE [--record-secrets]`.
  var record = RecordOptions()
  /// `--seek-at CLOCK=TARGET`.
  var seekScript = SeekScript()
  /// The arguments as given (kept in a recording, for the replay).
  var arguments: [String] = []
  /// The recording `playhead replay` plays again: it is the player's network.
  var replay: SessionRecording?

  init(parsing arguments: [String]) throws(UsageError) {
    self.input = ""
    self.arguments = arguments
    var cursor = ArgumentCursor(arguments, verb: "play")
    var input: String?
    var snapshotPath: String?
    var snapshotAt: Double?
    var every: Int?
    var playlistPath: String?
    var autoAdvance = false
    var autoPlay = false
    var catalogOptions = CatalogOptions()
    while let token = cursor.next() {
      switch token {
      case .positional(let text):
        guard input == nil else { throw cursor.unexpected(text) }
        input = text
      case .option(let name, let inline):
        switch name {
        case "--fast", "--events", "--json", "--no-video", "--no-audio", "--quiet",
          "--burn-subtitles":
          try cursor.noValue(for: name, inline: inline)
          setFlag(name)
        case "--playlist":
          playlistPath = try ArgumentValue.path(
            cursor.value(for: name, inline: inline), option: name)
        case "--auto-advance":
          try cursor.noValue(for: name, inline: inline)
          autoAdvance = true
        case "--auto-play":
          try cursor.noValue(for: name, inline: inline)
          autoPlay = true
        case "--rate":
          let value = try cursor.value(for: name, inline: inline)
          guard let rate = Float(value), rate.isFinite, rate > 0 else {
            throw UsageError("option '--rate' needs a number greater than 0, not '\(value)'")
          }
          self.rate = rate
        case "--start":
          startSeconds = try ArgumentValue.seconds(
            cursor.value(for: name, inline: inline), option: name)
        case "--duration":
          durationSeconds = try ArgumentValue.positiveNumber(
            cursor.value(for: name, inline: inline), option: name)
        case "--preview":
          previewSeconds = try ArgumentValue.positiveNumber(
            cursor.value(for: name, inline: inline), option: name)
        case "--snapshot":
          snapshotPath = try ArgumentValue.path(
            cursor.value(for: name, inline: inline), option: name)
        case "--at":
          snapshotAt = try ArgumentValue.seconds(
            cursor.value(for: name, inline: inline), option: name)
        case "--wav":
          wavPath = try ArgumentValue.path(cursor.value(for: name, inline: inline), option: name)
        case "--frames":
          framesDirectory = try ArgumentValue.path(
            cursor.value(for: name, inline: inline), option: name)
        case "--subtitles":
          let value = try cursor.value(for: name, inline: inline)
          guard TrackLanguage.normalized(value) != nil else {
            throw UsageError(
              "option '--subtitles' needs a language tag such as 'en' or 'pt-BR', not '\(value)'")
          }
          subtitles = value
        case "--sub-file":
          subtitleFiles.append(try SubtitleFile(argument: cursor.value(for: name, inline: inline)))
        case "--audio":
          audio = try DownloadCommand.language(
            cursor.value(for: name, inline: inline), option: name)
        case "--decrypt-key-hex":
          offlineKey = try DownloadCommand.key(
            cursor.value(for: name, inline: inline), option: name)
        case "--every":
          every = try ArgumentValue.positiveInteger(
            cursor.value(for: name, inline: inline), option: name)
        case _ where WindowRequest.names.contains(name):
          try window.parse(name, inline: inline, cursor: &cursor)
        case _ where AudioOptions.names.contains(name):
          try audioOptions.parse(name, inline: inline, cursor: &cursor)
        case _ where StreamOptions.names.contains(name):
          try stream.parse(name, inline: inline, cursor: &cursor)
        case _ where RequestOptions.names.contains(name):
          try requests.parse(name, inline: inline, cursor: &cursor)
        case _ where CacheOptions.names.contains(name):
          try cache.parse(name, inline: inline, cursor: &cursor)
        case _ where SignOptions.names.contains(name):
          try signing.parse(name, inline: inline, cursor: &cursor)
        case _ where CatalogOptions.names.contains(name):
          try catalogOptions.parse(name, inline: inline, cursor: &cursor)
        case _ where RecordOptions.names.contains(name):
          try record.parse(name, inline: inline, cursor: &cursor)
        case _ where SeekScript.names.contains(name):
          try seekScript.parse(name, inline: inline, cursor: &cursor)
        default:
          throw cursor.unknown(name)
        }
      }
    }
    try cache.validate()
    try signing.validate()
    try record.validate()
    if let playlistPath {
      guard input == nil else {
        throw UsageError("give either a media path or URL or '--playlist FILE', not both")
      }
      guard snapshotPath == nil, snapshotAt == nil, startSeconds == nil, durationSeconds == nil
      else {
        throw UsageError(
          "options '--snapshot', '--at', '--start' and '--duration' do not apply to '--playlist'")
      }
      guard audio == nil else {
        throw UsageError("option '--audio' applies to a media path or URL, not to '--playlist'")
      }
      guard subtitleFiles.isEmpty else {
        throw UsageError(
          "option '--sub-file' applies to a media path or URL, not to '--playlist'")
      }
      playlist = PlaylistPlayback(path: playlistPath, autoAdvance: autoAdvance, autoPlay: autoPlay)
    } else if autoAdvance || autoPlay {
      throw UsageError("options '--auto-advance' and '--auto-play' go with '--playlist FILE'")
    }
    guard let input = input ?? playlistPath else { throw cursor.missingInput() }
    self.input = input
    catalog = try CatalogPlayback(input: input, options: catalogOptions)
    if catalog == nil && !catalogOptions.isEmpty {
      throw UsageError(
        "the Playback API options go with a 'catalog:ACCOUNT/VIDEO_ID' input")
    }
    if catalog != nil && audio != nil {
      throw UsageError("option '--audio' applies to a media path or URL, not to 'catalog:'")
    }
    if catalog != nil && !subtitleFiles.isEmpty {
      throw UsageError("option '--sub-file' applies to a media path or URL, not to 'catalog:'")
    }
    if catalog != nil
      && (snapshotPath != nil || snapshotAt != nil || startSeconds != nil
        || durationSeconds != nil)
    {
      throw UsageError(
        "options '--snapshot', '--at', '--start' and '--duration' do not apply to 'catalog:'")
    }
    switch (snapshotPath, snapshotAt) {
    case (let path?, let at?): snapshot = (path, at)
    case (nil, nil): snapshot = nil
    case (_?, nil): throw UsageError("option '--snapshot' needs '--at T'")
    case (nil, _?): throw UsageError("option '--at' goes with '--snapshot FILE'")
    }
    if let every {
      guard framesDirectory != nil else {
        throw UsageError("option '--every' goes with '--frames DIR'")
      }
      everyNthFrame = every
    }
    if isVideoDisabled && isAudioDisabled {
      throw UsageError("options '--no-video' and '--no-audio' leave nothing to play")
    }
    if !seekScript.seeks.isEmpty && durationSeconds != nil && startSeconds == nil {
      // Without --start, --duration waits for the item to be ready, off the clock; a
      // scripted seek could then come before or after playback starts.
      throw UsageError("option '--seek-at' with '--duration' needs '--start S'")
    }
    if isAudioDisabled && audio != nil {
      throw UsageError("option '--audio' cannot be used with '--no-audio'")
    }
    if isAudioDisabled && !audioOptions.isEmpty {
      throw UsageError(
        "options '--audio-filter' and '--audio-channel' cannot be used with '--no-audio'")
    }
    if isAudioDisabled && wavPath != nil {
      throw UsageError("option '--wav' cannot be used with '--no-audio'")
    }
    if isVideoDisabled && framesDirectory != nil {
      throw UsageError("option '--frames' cannot be used with '--no-video'")
    }
    try window.validate(videoDisabled: isVideoDisabled)
    if burnsSubtitles && (snapshot == nil || !showsSubtitles) {
      throw UsageError(
        "option '--burn-subtitles' goes with '--snapshot FILE --at T' and '--subtitles LANG' "
          + "or '--sub-file FILE'")
    }
  }

  /// Whether subtitles are shown: `--subtitles LANG` or a `--sub-file`.
  var showsSubtitles: Bool { subtitles != nil || !subtitleFiles.isEmpty }

  private mutating func setFlag(_ name: String) {
    switch name {
    case "--fast": fast = true
    case "--events": output.events = true
    case "--json": output.json = true
    case "--no-video": isVideoDisabled = true
    case "--no-audio": isAudioDisabled = true
    case "--burn-subtitles": burnsSubtitles = true
    default: output.quiet = true
    }
  }

  func run(console: Console) throws(PlayheadError) -> ExitCode {
    if let playlist { return try playlist.run(self, console: console) }
    if let catalog { return try catalog.run(self, console: console) }
    let url = try signing.signed(URLArgument.url(fromArgument: input))
    try IncompleteDownload.check(url)
    if let offlineKey { try OfflineKeyRegistry.shared.register(offlineKey) }
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
    let start = MediaTime(commandLineSeconds: startSeconds ?? 0)
    let duration = durationSeconds.map { MediaTime(commandLineSeconds: $0) }
    if let duration, startSeconds != nil { item.forwardPlaybackEndTime = start + duration }
    // Without --start, --duration counts from where playback starts, known once the item
    // is ready (a live stream starts near its edge); playback waits for that.
    let endsFromReady = duration != nil && startSeconds == nil
    if let previewSeconds { item.previewDuration = MediaTime(commandLineSeconds: previewSeconds) }
    let audioChoice = audio.map { AudioChoice(language: $0) }
    audioChoice?.apply(to: item)
    let player = Player(configuration: configuration)
    // With --audio, playback starts once the track in the language plays.
    let starter = PlayStart(
      player: player,
      conditions: (showsSubtitles ? 1 : 0) + (endsFromReady ? 1 : 0)
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
    for file in subtitleFiles { file.add(to: item) }
    let subtitleLines =
      showsSubtitles
      ? SubtitleLines(
        language: subtitles ?? subtitleFiles.first?.language ?? "und", output: output,
        console: console)
      : nil
    // In fast mode the commands reach the player together, at one clock time, so the
    // same input gives the same events every run (decision 0028).
    let textTracks = subtitleLines.map { lines in
      DirectSubtitles(
        player: player, contentURL: url, lines: lines, files: subtitleFiles,
        choosesByLanguage: subtitles != nil, queue: session.queue
      ) { starter.met() }
    }
    if let textTracks { screen?.controls.useTextTracks(textTracks.controller) }
    configuration.clock.runAsWorker {
      player.replaceCurrentItem(with: item)
      if startSeconds != nil {
        player.seek(
          to: start, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: nil)
      }
      if let rate { player.defaultRate = rate }
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
    var audioSink: (any AudioSink)?
    if let wavPath {
      audioSink = try WAVAudioSink(url: fileURL(forPath: wavPath))
    }
    var videoSink: (any VideoSink)?
    if let framesDirectory {
      videoSink = try ImageSequenceVideoSink(
        directory: fileURL(forPath: framesDirectory), everyNthFrame: everyNthFrame)
    }
    var configuration =
      fast
      ? PlayerConfiguration.fast(videoSink: videoSink, audioSink: audioSink)
      : PlayerConfiguration(videoSink: videoSink, audioSink: audioSink)
    configuration.isVideoDisabled = isVideoDisabled
    configuration.isAudioDisabled = isAudioDisabled
    audioOptions.apply(to: &configuration)
    requests.apply(to: &configuration.request)
    stream.apply(to: &configuration.hls)
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
      burning: burnsSubtitles
        ? SnapshotTaker.Subtitles(language: subtitles, files: subtitleFiles) : nil)
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
