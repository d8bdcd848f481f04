import Foundation
import Playhead

/// Recognises a folder that `playhead download` has started to fill but not finished, so
/// that `play` and `probe` say so, with the command that resumes it, instead of "is a
/// directory".
enum IncompleteDownload {
  /// The part of the download index this check reads.
  private struct Index: Decodable {
    var downloads: [DownloadRecord]
  }

  /// Throws `.isDirectory` with the resume command line when `url` is a local folder that
  /// holds a download's state but no completed download; does nothing otherwise.
  static func check(_ url: URL) throws(PlayheadError) {
    guard url.isFileURL else { return }
    let folder = url.standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return }
    let manifest = folder.appendingPathComponent(OfflineManifest.fileName)
    guard !FileManager.default.fileExists(atPath: manifest.path) else { return }
    let stateFolder = folder.appendingPathComponent(DownloadCommand.stateFolder)
    guard FileManager.default.fileExists(atPath: stateFolder.path) else { return }
    let indexURL = stateFolder.appendingPathComponent("downloads.json")
    let record = FileManager.default.contents(atPath: indexURL.path)
      .flatMap { try? JSONReader.decode(Index.self, from: $0, limits: .localState) }?
      .downloads.first { $0.folderURL.standardizedFileURL.path == folder.path }
    // Without a record the download never got past preparing; its URL is not known.
    let source = record.map { quoted($0.sourceURL.absoluteString) } ?? "URL"
    let state = record.map { " (state: \($0.state.rawValue))" } ?? ""
    throw PlayheadError(
      .isDirectory,
      "\(folder.path) holds a download that is not complete\(state); resume it with: "
        + "playhead download \(source) --out \(quoted(folder.path))", url: folder)
  }

  /// `text` as one shell word: as it is when it is plain, else in single quotes.
  static func quoted(_ text: String) -> String {
    let plain = CharacterSet(
      charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,")
    if !text.isEmpty, text.unicodeScalars.allSatisfy({ plain.contains($0) }) { return text }
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
