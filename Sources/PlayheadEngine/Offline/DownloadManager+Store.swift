import Foundation
import PlayheadCore

/// The manager's persisted index: every download record, in the order they were added.
struct DownloadIndex: Codable, Sendable {
  static let fileName = "downloads.json"
  static let currentFormatVersion = 1
  var formatVersion = DownloadIndex.currentFormatVersion
  var downloads: [DownloadRecord]
}

extension DownloadManager {
  var indexURL: URL { rootDirectory.appendingPathComponent(DownloadIndex.fileName) }

  func planURL(_ id: DownloadID) -> URL {
    rootDirectory.appendingPathComponent("plans").appendingPathComponent("\(id.rawValue).json")
  }

  /// Reads the index; a missing file is an empty index, a damaged one throws
  /// `.unsupportedFormat` (it is never silently dropped).
  static func loadIndex(_ url: URL) throws(PlayheadError) -> [DownloadRecord] {
    guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
    let index: DownloadIndex
    do {
      index = try JSONReader.decode(DownloadIndex.self, from: data, limits: .localState)
    } catch {
      throw PlayheadError(
        .unsupportedFormat, "the download index \(url.path) does not decode: \(error.message)",
        url: url)
    }
    guard index.formatVersion == DownloadIndex.currentFormatVersion else {
      throw PlayheadError(
        .unsupportedFormat,
        "the download index \(url.path) has format version \(index.formatVersion)", url: url)
    }
    return index.downloads
  }

  /// Writes the index of `state` atomically (call inside `state.withLock`, so writes keep
  /// their order).
  func saveIndex(_ state: State) throws(PlayheadError) {
    let index = DownloadIndex(downloads: state.order.compactMap { state.records[$0] })
    try AtomicFile.write(Self.encode(index), to: indexURL)
  }

  /// Saves the index, turning a failure into the record's error (call inside
  /// `state.withLock`).
  func saveIndexQuietly(_ state: inout State) {
    do {
      try saveIndex(state)
    } catch {
      state.lastSaveError = error
    }
  }

  func loadPlan(_ id: DownloadID) throws(PlayheadError) -> DownloadPlan? {
    let url = planURL(id)
    guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
    do {
      return try JSONReader.decode(DownloadPlan.self, from: data, limits: .localState)
    } catch {
      throw PlayheadError(
        .unsupportedFormat, "the download plan \(url.path) does not decode: \(error.message)",
        url: url)
    }
  }

  func savePlan(_ plan: DownloadPlan, id: DownloadID) throws(PlayheadError) {
    try AtomicFile.write(Self.encode(plan), to: planURL(id))
  }

  static func encode<T: Encodable>(_ value: T) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return (try? encoder.encode(value)) ?? Data()
  }

  /// Removes the files a plan wrote (units, playlists, manifest) and the plan; a folder
  /// the manager made itself is removed whole.
  func removeFiles(of record: DownloadRecord) {
    let plan = try? loadPlan(record.id)
    let folder = record.folderURL
    if folder.standardizedFileURL.path.hasPrefix(ownedFoldersURL.standardizedFileURL.path + "/") {
      try? FileManager.default.removeItem(at: folder)
    } else {
      let paths =
        (plan?.units.map(\.path) ?? []) + (plan?.playlists.map(\.path) ?? [])
        + [OfflineManifest.fileName]
      var subfolders = Set<String>()
      for path in paths {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(path))
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty { subfolders.insert(parent) }
      }
      for subfolder in subfolders.sorted(by: { $0.count > $1.count }) {
        let url = folder.appendingPathComponent(subfolder)
        if (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.isEmpty == true {
          try? FileManager.default.removeItem(at: url)
        }
      }
    }
    try? FileManager.default.removeItem(at: planURL(record.id))
  }

  /// Where downloads without a folder of their own go: `<root>/media/<id>`.
  var ownedFoldersURL: URL { rootDirectory.appendingPathComponent("media") }
}
