import Foundation

/// The peer conformance corpus in `shared/interop/hls-webvtt-peers` (playlists and WebVTT
/// files from other projects' test suites, each with the peer's expectation beside it).
///
/// It is read where it lies, never copied into the project: from the package root (found
/// from this file's path) upwards, the first folder holding `shared/interop` is used, so
/// the lookup works from the main checkout and from any worktree under it. A missing corpus
/// is an error, so that a test over it fails instead of passing on nothing.
public enum PeerCorpus {
  /// One case: an input file and its expectation file.
  public struct Case: Sendable {
    /// `folder/name` without the extension, e.g. `hls.js/parses-EXT-X-MAP-URI`.
    public var id: String
    public var input: URL
    public var expectation: URL
    /// Whether the expectation says the input was changed on purpose (`DERIVED`).
    public var isDerived: Bool
  }

  /// The corpus folder, found by walking up from the package root.
  public static func folder(from file: String = #filePath) throws -> URL {
    try interopFolder("hls-webvtt-peers", from: file)
  }

  /// The folder `shared/interop/<name>` (a peer corpus), found by walking up from `file`'s
  /// folder; a missing one throws, naming what was looked for.
  public static func interopFolder(_ name: String, from file: String = #filePath) throws -> URL {
    var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
    while directory.path != "/" {
      let candidate = directory.appendingPathComponent("shared/interop/\(name)")
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
        isDirectory.boolValue
      {
        return candidate
      }
      directory = directory.deletingLastPathComponent()
    }
    throw CocoaError(
      .fileNoSuchFile,
      userInfo: [
        NSLocalizedDescriptionKey:
          "no shared/interop/\(name) above \(file) (the peer corpus must be beside the checkout)"
      ])
  }

  /// Every case whose input ends with `.\(fileExtension)`, sorted by id.
  public static func cases(withExtension fileExtension: String, file: String = #filePath) throws
    -> [Case]
  {
    let root = try folder(from: file)
    var result: [Case] = []
    for project in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() {
      let projectFolder = root.appendingPathComponent(project)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: projectFolder.path)) ?? []
      for name in names.sorted() where name.hasSuffix("." + fileExtension) {
        let base = String(name.dropLast(fileExtension.count + 1))
        let candidates = ["expect.txt", "expect.json"].map {
          projectFolder.appendingPathComponent("\(base).\($0)")
        }
        guard
          let expectation = candidates.first(where: {
            FileManager.default.fileExists(atPath: $0.path)
          })
        else { continue }
        let head = (try? String(contentsOf: expectation, encoding: .utf8))?.prefix(8) ?? ""
        result.append(
          Case(
            id: "\(project)/\(base)", input: projectFolder.appendingPathComponent(name),
            expectation: expectation, isDerived: head.hasPrefix("DERIVED")))
      }
    }
    return result
  }
}
