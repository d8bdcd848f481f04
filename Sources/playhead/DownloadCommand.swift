import Foundation
import Playhead

/// `playhead download <url> --out DIR [options]`: downloads a stream or file for offline
/// playback, with a progress bar; a second run into the same DIR resumes it.
struct DownloadCommand: Command {
  static let usage = Usage.download
  /// The manager's state folder inside DIR (index and plans).
  static let stateFolder = ".playhead-download"

  var input: String
  /// The folder to fill (`--out DIR`).
  var outputPath = ""
  /// `--out DIR`, `--rendition N`, `--max-bitrate BPS`, `--encrypt-key-hex HEX`.
  var options = DownloadOptions()
  /// `--audio LANG`, `--subtitles LANG`.
  var tracks = TrackOptions()
  /// `--json`, `--quiet`.
  var output = OutputOptions()
  /// `--header`, `--referer`, `--user-agent`, `--timeout`, `--retries`.
  var requests = RequestOptions()
  /// `--sign-key KEY [--sign-validity-seconds N]`.
  var signing = SignOptions()
  /// `--key KID:KEY`, `--license-url URL`: the keys a protected DASH download keeps.
  var keys = KeyOptions()

  /// The option groups `download` takes.
  private static var optionGroups: [OptionSlot<DownloadCommand>] {
    [
      .group(\.options), .group(\.tracks, names: ["--audio", "--subtitles"]),
      .group(\.output, names: ["--json", "--quiet"]), .group(\.requests), .group(\.signing), .group(\.keys),
    ]
  }

  init(parsing arguments: [String]) throws(UsageError) {
    self.input = ""
    var cursor = ArgumentCursor(arguments, verb: "download")
    let input = try cursor.readInput(into: &self, groups: Self.optionGroups)
    guard let input else { throw cursor.missingInput() }
    guard let outputPath = options.outputPath else {
      throw UsageError("option '--out DIR' is required (see 'playhead download --help')")
    }
    if options.variantIndex != nil && options.maxBitrate != nil {
      throw UsageError("give either '--rendition N' or '--max-bitrate BPS', not both")
    }
    try signing.validate()
    self.input = input
    self.outputPath = outputPath
  }

  /// The variant and renditions to download.
  var selection: DownloadSelection {
    var selection = DownloadSelection()
    selection.variantIndex = options.variantIndex
    selection.maxBitrate = options.maxBitrate
    selection.audioLanguage = tracks.audio
    selection.subtitleLanguage = tracks.subtitles
    return selection
  }

  func run(console: Console) throws(PlayheadError) -> ExitCode {
    let url = try signing.signed(URLArgument.url(fromArgument: input))
    let folder = fileURL(forPath: outputPath).standardizedFileURL
    var configuration = DownloadConfiguration()
    requests.apply(to: &configuration.request)
    signing.apply(to: &configuration)
    try keys.apply(to: &configuration)
    let root = folder.appendingPathComponent(Self.stateFolder)
    // A folder with other files and no download state is refused before anything is made.
    if !FileManager.default.fileExists(atPath: root.path) { try Self.requireEmpty(folder) }
    let lock = try FolderLock(directory: root)
    defer { lock.release() }
    let manager = try DownloadManager(rootDirectory: root, configuration: configuration)
    let reporter = DownloadReporter(console: console, json: output.json, quiet: output.quiet)
    manager.addObserver { event in reporter.show(event) }
    let id: DownloadID
    if let existing = manager.downloads.first(where: {
      $0.folderURL.standardizedFileURL.path == folder.path
    }) {
      // A signed URL is signed anew on each run: the resource is what must match (the
      // stored URL, re-signed when it has expired, is the one the resume uses).
      guard signing.sameResource(existing.sourceURL, url) else {
        throw PlayheadError(
          .invalidArgument,
          "\(folder.path) holds a download of \(existing.sourceURL.absoluteString); use another --out folder"
        )
      }
      id = existing.id
      if existing.state == .completed {
        let asset = try manager.offlineAsset(for: id)
        try asset.verify(checksums: false)
        reporter.finished(asset, alreadyComplete: true)
        return .success
      }
      reporter.note("resuming the download in \(folder.path)")
      if existing.state == .requested { try manager.select(selection, for: id) }
      try manager.resume(id, encryptionKey: options.encryptionKey)
    } else {
      try Self.requireEmpty(folder)
      let info = try manager.prepare(url: url, folderURL: folder)
      id = info.id
      try manager.select(selection, for: id)
      try manager.start(id, encryptionKey: options.encryptionKey)
    }
    guard let record = manager.waitUntilStopped(id) else {
      throw PlayheadError(.invalidState, "the download disappeared")
    }
    reporter.drain(manager)
    switch record.state {
    case .completed:
      reporter.finished(try manager.offlineAsset(for: id), alreadyComplete: false)
      return .success
    default:
      let error =
        record.failure?.error
        ?? PlayheadError(.invalidState, "the download stopped (\(record.state.rawValue))")
      throw PlayheadError(
        error.code,
        "\(error.message) (the files so far are kept; run the same command again to resume)",
        url: error.url, httpStatusCode: error.httpStatusCode)
    }
  }

  /// Throws `.invalidArgument` when `folder` holds anything (other than the state folder).
  static func requireEmpty(_ folder: URL) throws(PlayheadError) {
    let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    let other = contents.filter { $0 != stateFolder }
    guard other.isEmpty else {
      throw PlayheadError(
        .invalidArgument,
        "\(folder.path) is not empty and holds no download; give an empty or new --out folder")
    }
  }
}

/// Prints a download's events: a progress bar on standard error, or JSON lines.
final class DownloadReporter: Sendable {
  // Events arrive on one queue.
  private let console: Console
  private let json: Bool
  private let quiet: Bool
  private let lastPercent = Locked(-1)

  init(console: Console, json: Bool, quiet: Bool) {
    self.console = console
    self.json = json
    self.quiet = quiet
  }

  func show(_ event: DownloadEvent) {
    switch event {
    case .prepared(_, let info):
      if json {
        line([
          JSONField("event", .string("prepared")), JSONField("kind", .string(info.kind.rawValue)),
          JSONField("tracks", .integer(Int64(info.tracks.count))),
          JSONField("duration", info.durationSeconds.map { .number($0) } ?? .null),
        ])
      } else if !quiet {
        console.line(
          "prepared \(info.sourceURL.absoluteString): \(info.kind.rawValue), \(info.tracks.count) track(s)"
        )
      }
    case .downloadingProgress(_, let progress):
      if json {
        line([
          JSONField("event", .string("progress")),
          JSONField("percent", .integer(Int64(progress.percent))),
          JSONField("downloadedBytes", .integer(progress.downloadedBytes)),
          JSONField("expectedBytes", .integer(progress.expectedBytes)),
          JSONField("completedFiles", .integer(Int64(progress.completedFiles))),
          JSONField("totalFiles", .integer(Int64(progress.totalFiles))),
        ])
      } else if !quiet && changed(progress.percent) {
        console.progress(Self.bar(progress))
      }
    case .processingProgress(_, let percent):
      if json {
        line([
          JSONField("event", .string("processing")),
          JSONField("percent", .integer(Int64(percent))),
        ])
      }
    case .failed(_, let error):
      if json {
        line([
          JSONField("event", .string("failed")), JSONField("code", .string(error.code.rawValue)),
          JSONField("error", .string(error.message)),
        ])
      } else {
        console.clearProgress()
      }
    case .stateChanged, .completed:
      break
    }
  }

  /// Waits until every event sent so far has been printed.
  func drain(_ manager: DownloadManager) {
    manager.waitForPendingEvents()
  }

  func note(_ text: String) {
    if !json && !quiet { console.line(text) }
  }

  func finished(_ asset: OfflineAsset, alreadyComplete: Bool) {
    let manifest = asset.manifest
    if json {
      line([
        JSONField("event", .string("completed")),
        JSONField("folder", .string(asset.folderURL.path)),
        JSONField("files", .integer(Int64(manifest.files.count))),
        JSONField("bytes", .integer(manifest.totalBytes)),
        JSONField("encrypted", .bool(asset.isEncrypted)),
        JSONField("alreadyComplete", .bool(alreadyComplete)),
      ])
    } else if !quiet {
      console.clearProgress()
      console.line(
        (alreadyComplete ? "already complete: " : "completed: ")
          + "\(asset.folderURL.path) (\(manifest.files.count) files, \(manifest.totalBytes) bytes; \(manifest.selectionSummary))"
      )
    }
  }

  private func changed(_ percent: Int) -> Bool {
    lastPercent.withLock { lastPercent in
      guard percent != lastPercent else { return false }
      lastPercent = percent
      return true
    }
  }

  private func line(_ fields: [JSONField]) {
    console.line(JSONValue.object(fields).encoded)
  }

  /// `  [##########----------]  50%  1.2 MB / 2.4 MB  6/12 files`.
  static func bar(_ progress: DownloadProgress) -> String {
    let width = 20
    let filled = progress.percent * width / 100
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let percent = String(progress.percent)
    let padded = String(repeating: " ", count: max(0, 3 - percent.count)) + percent
    return "  [\(bar)] \(padded)%  \(megabytes(progress.downloadedBytes)) / "
      + "\(megabytes(progress.expectedBytes))  \(progress.completedFiles)/\(progress.totalFiles) files"
  }

  static func megabytes(_ bytes: Int64) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_000_000)
  }
}
