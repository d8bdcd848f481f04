import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

extension DownloadManager {
  /// The body of a download's thread: plan, fetch every file, process, complete.
  ///
  /// With a refresh handler, one refresher serves the run: playlists, files and resumed
  /// ranges are sent on their fresh URLs, while the plan keeps the original ones.
  func run(_ id: DownloadID, control: DownloadControl, key: [UInt8]?) {
    do throws(PlayheadError) {
      let refresher = makeRefresher(for: id, sourceURL: try existing(id).sourceURL)
      control.register(refresher: refresher)
      var plan = try makePlan(id, key: key, refresher: refresher)
      try fetchAll(id, plan: &plan, control: control, key: key, refresher: refresher)
      if control.isCancelled { return }
      try process(id, plan: plan, control: control)
    } catch {
      if control.isCancelled { return }
      finish(id, control: control, state: .error, failure: error, announcing: .failed(id, error))
    }
  }

  /// The saved plan, or a new one from the selection (saved before any file is fetched).
  private func makePlan(_ id: DownloadID, key: [UInt8]?, refresher: SourceRefresher?)
    throws(PlayheadError) -> DownloadPlan
  {
    if let plan = try loadPlan(id) { return plan }
    let record = try existing(id)
    let keyID = try key.map { key throws(PlayheadError) in try OfflineKeyRegistry.keyID(for: key) }
    var plan: DownloadPlan
    if Self.isStream(record) {
      var loaded = state.withLock { $0.prepared[id] }
      if loaded == nil {
        var planner = HLSDownloadPlanner(
          loader: playlistLoader(for: record.sourceURL, refresher: refresher))
        loaded = try planner.prepare(record.sourceURL)
      }
      guard let loaded else {
        throw PlayheadError(.invalidState, "the stream was not prepared", url: record.sourceURL)
      }
      plan = try HLSDownloadPlanner.plan(
        loaded, selection: record.selection, encryptionKeyID: keyID)
      if !loaded.contentKeyIDs.isEmpty {
        let loader = playlistLoader(for: record.sourceURL, refresher: refresher)
        let licenseURL = configuration.clearKeyLicenseURL ?? loaded.licenseURL
        var license: (@Sendable ([[UInt8]]) throws(PlayheadError) -> [[UInt8]: [UInt8]])?
        if let licenseURL {
          license = { keyIDs throws(PlayheadError) in
            try ClearKeyLicense.keys(for: keyIDs, from: licenseURL, loader: loader)
          }
        }
        let resolver = SampleKeyResolver(
          configured: configuration.sampleKeySource, provider: configuration.contentKeyProvider,
          license: license)
        if let text = try OfflineContentKeys.text(for: loaded.contentKeyIDs, resolver: resolver) {
          plan.playlists.append(LocalPlaylist(path: OfflineContentKeys.fileName, text: text))
        }
      }
    } else {
      guard let info = record.mediaInfo else {
        throw PlayheadError(.invalidState, "the file was not prepared", url: record.sourceURL)
      }
      plan = ProgressiveDownloadPlanner.plan(info, encryptionKeyID: keyID)
    }
    // A network source's playlists may name only network files (never local ones).
    if !record.sourceURL.isFileURL,
      let local = plan.units.first(where: {
        !["http", "https"].contains($0.source.scheme?.lowercased() ?? "")
      })
    {
      throw PlayheadError(
        .unsupportedScheme,
        "the playlist names \(local.source.absoluteString); a network stream may name only http(s) files",
        url: local.source)
    }
    if keyID != nil {
      plan.encryptionSalt = SHA256.hex((0..<16).map { _ in UInt8.random(in: 0...255) })
    }
    try AtomicFile.makeDirectory(record.folderURL)
    try savePlan(plan, id: id)
    return plan
  }

  /// Fetches every unit not yet complete on disk, with retries; saves each length as soon
  /// as it is known.
  private func fetchAll(
    _ id: DownloadID, plan: inout DownloadPlan, control: DownloadControl, key: [UInt8]?,
    refresher: SourceRefresher?
  ) throws(PlayheadError) {
    let record = try existing(id)
    let folder = record.folderURL
    let fetcher = DownloadFetcher(
      stack: dataStack(for: record.sourceURL, refresher: refresher, retries: false))
    // A file longer than its unit counts as nothing: it is not complete, and the fetcher
    // starts it again.
    var onDisk: [Int64] = plan.units.map { unit in
      let size = AtomicFile.size(of: folder.appendingPathComponent(unit.path)) ?? 0
      return size > (unit.expectedLength ?? Int64.max) ? 0 : size
    }
    func isComplete(_ index: Int) -> Bool {
      let unit = plan.units[index]
      guard let expected = unit.expectedLength, onDisk[index] == expected else { return false }
      // An empty unit (a zero-length byte range) is complete once its empty file exists.
      return expected > 0 || AtomicFile.size(of: folder.appendingPathComponent(unit.path)) != nil
    }
    var sinceReport = 0
    // Until every length is known, the media info's estimate is the floor of the total.
    let estimate = record.progress.expectedBytes
    func report() {
      let counted = zip(plan.units, onDisk).reduce(Int64(0)) { $0 + max($1.0.countedLength, $1.1) }
      let allKnown = plan.units.allSatisfy { $0.expectedLength != nil }
      let progress = DownloadProgress(
        downloadedBytes: onDisk.reduce(0, +),
        expectedBytes: allKnown ? counted : max(counted, estimate),
        completedFiles: plan.units.indices.filter(isComplete).count,
        totalFiles: plan.units.count)
      state.withLock { state in
        if var current = state.records[id], state.running[id] === control {
          current.progress = progress
          state.records[id] = current
        }
      }
      deliver(.downloadingProgress(id, progress))
    }
    report()
    for index in plan.units.indices where !isComplete(index) {
      if control.isCancelled { return }
      let unit = plan.units[index]
      let cipher =
        try plan.isEncrypted(unit) && key != nil
        ? OfflineFileCipher.cipher(
          key: key ?? [], salt: plan.encryptionSalt ?? "", path: unit.path) : nil
      var attempt = 0
      while true {
        do throws(PlayheadError) {
          let length = try fetcher.fetch(
            unit, folder: folder, cipher: cipher, control: control,
            learned: { (length: Int64) throws(PlayheadError) in
              if plan.units[index].expectedLength != length {
                plan.units[index].expectedLength = length
                try savePlan(plan, id: id)
              }
            },
            progress: { count in
              onDisk[index] += Int64(count)
              sinceReport += count
              if sinceReport >= configuration.progressIntervalBytes {
                sinceReport = 0
                report()
              }
            })
          onDisk[index] = length
          break
        } catch {
          if control.isCancelled || error.code == .cancelled { throw error }
          onDisk[index] = AtomicFile.size(of: folder.appendingPathComponent(unit.path)) ?? 0
          attempt += 1
          // A refresh that failed is not tried again: the handler already answered.
          guard error.category == .source, error.code != .sourceExpired,
            attempt <= configuration.request.effectiveRetryCount
          else { throw error }
          let delayMs = min(
            configuration.request.retryMaxDelayMs,
            configuration.request.retryBaseDelayMs << min(attempt - 1, 16))
          if control.waitCancelled(seconds: Double(max(0, delayMs)) / 1000) { throw error }
        }
      }
      sinceReport = 0
      report()
      state.withLock { saveIndexQuietly(&$0) }
    }
  }

  /// Verifies every file against its expected length, hashes it, writes the playlists and
  /// the manifest (last), and completes the download.
  private func process(_ id: DownloadID, plan: DownloadPlan, control: DownloadControl)
    throws(PlayheadError)
  {
    let record = try existing(id)
    let folder = record.folderURL
    var files: [OfflineManifest.File] = []
    let steps = plan.units.count + plan.playlists.count + 1
    deliver(.processingProgress(id, percent: 0))
    for (index, unit) in plan.units.enumerated() {
      if control.isCancelled { return }
      let url = folder.appendingPathComponent(unit.path)
      let size = AtomicFile.size(of: url)
      guard let expected = unit.expectedLength, size == expected else {
        // A file that is not what it should be is fetched again on resume.
        try? FileManager.default.removeItem(at: url)
        throw PlayheadError(
          .ioError,
          "\(unit.path) has \(size.map(String.init) ?? "no") bytes, expected \(unit.expectedLength.map(String.init) ?? "a known length"); it will be fetched again on resume",
          url: url)
      }
      let digest = SHA256.hex(try SHA256.digest(ofFileAt: url))
      files.append(
        OfflineManifest.File(
          path: unit.path, length: expected, sha256: digest, role: unit.role,
          isEncrypted: plan.isEncrypted(unit)))
      deliver(.processingProgress(id, percent: (index + 1) * 100 / steps))
    }
    for playlist in plan.playlists {
      if control.isCancelled { return }
      let data = Data(playlist.text.utf8)
      try AtomicFile.write(data, to: folder.appendingPathComponent(playlist.path))
      files.append(
        OfflineManifest.File(
          path: playlist.path, length: Int64(data.count),
          sha256: SHA256.hex(try SHA256.digest(data)), role: .playlist, isEncrypted: false))
    }
    for directory in Set(plan.units.map { ($0.path as NSString).deletingLastPathComponent }) {
      try AtomicFile.syncDirectory(
        directory.isEmpty ? folder : folder.appendingPathComponent(directory))
    }
    let manifest = OfflineManifest(
      sourceURL: record.sourceURL.absoluteString, kind: plan.kind,
      playbackPath: plan.playbackPath, durationSeconds: plan.durationSeconds,
      selectionSummary: plan.selectionSummary, files: files,
      encryption: plan.encryptionKeyID.map {
        OfflineManifest.Encryption(
          scheme: OfflineFileCipher.scheme, keyID: $0, salt: plan.encryptionSalt ?? "")
      },
      completedAtSeconds: Date().timeIntervalSince1970)
    if control.isCancelled { return }
    try AtomicFile.write(
      manifest.encoded(), to: folder.appendingPathComponent(OfflineManifest.fileName))
    deliver(.processingProgress(id, percent: 100))
    let asset = try OfflineAsset(folderURL: folder)
    finish(id, control: control, state: .completed, failure: nil, announcing: .completed(id, asset))
  }
}
