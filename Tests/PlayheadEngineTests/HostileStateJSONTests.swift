import Foundation
import PlayheadCore
import PlayheadEngine
import XCTest

/// The engine's JSON inputs (list-player strategy parameters, offline manifests, the
/// download index) go through the bounded reader: hostile text is a typed error naming the
/// problem and where it is, never a trap, a hang or a raw decoder dump.
final class HostileStateJSONTests: XCTestCase {
  private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-hostile-json-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
  }

  private func error(_ body: () throws(PlayheadError) -> Void) -> PlayheadError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  func testStrategyParam_hostileJSON_isInvalidArgumentWithTheReason() throws {
    let deep = String(repeating: "[", count: 100_000)
    let cases: [(json: String, message: String)] = [
      (
        deep,
        "the strategy parameter is not JSON: nested deeper than 64 levels at line 1, column 65 (byte offset 64)"
      ),
      (
        #"{"offset": 1e999}"#,
        "the strategy parameter is not JSON: the number 1e999 is too large (beyond ±1.8e308, the range of a double) at line 1, column 12 (byte offset 11)"
      ),
      (
        #"{"offset": "200", "offset": "5"}"#,
        #"the strategy parameter is not JSON: the key "offset" appears twice in one object at line 1, column 19 (byte offset 18)"#
      ),
      (
        #"{"offset": 1e300}"#,
        #"the dynamic preload offset must be a whole number of milliseconds ≥ 0 in {"offset": 1e300}"#
      ),
      ("[1]", "the strategy parameter is not a JSON object: [1]"),
    ]
    for (json, message) in cases {
      let refused = error { () throws(PlayheadError) in
        _ = try ListPlayer.DynamicPreload(json: json)
      }
      XCTAssertEqual(refused?.code, .invalidArgument, String(json.prefix(40)))
      XCTAssertEqual(refused?.message, message)
    }
    // A huge parameter is not echoed whole into the message.
    let huge =
      #"{"algorithm": "sub", "offset": "x"#
      + String(repeating: "9", count: 1_000_000) + #""}"#
    let refused = error { () throws(PlayheadError) in _ = try ListPlayer.DynamicPreload(json: huge)
    }
    XCTAssertEqual(refused?.code, .invalidArgument)
    XCTAssertLessThan(refused?.message.count ?? .max, 200)
    XCTAssertEqual(try ListPlayer.DynamicPreload(json: #"{"offset": 250}"#).offsetMs, 250)
  }

  /// A manifest with a value nested 500 deep (or otherwise hostile) is refused, naming
  /// where; a folder with it never opens as a download.
  func testOfflineManifest_hostileJSON_isUnsupportedFormatWithTheReason() throws {
    let manifest = OfflineManifest(
      sourceURL: "https://cdn.example.com/a.mp4", kind: .progressive, playbackPath: "media.mp4",
      durationSeconds: 10, selectionSummary: "file",
      files: [.init(path: "media.mp4", length: 10, sha256: "00", role: .media, isEncrypted: false)],
      encryption: nil, completedAtSeconds: 1)
    let written = String(decoding: manifest.encoded(), as: UTF8.self)
    XCTAssertEqual(try OfflineManifest.decode(Data(written.utf8)), manifest)
    let deep =
      "{\"x\": " + String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
      + "," + written.dropFirst()
    let twice = "{\"kind\": \"hls\"," + written.dropFirst()
    let cases: [(text: String, problem: String)] = [
      (deep, "nested deeper than 64 levels at line 1, column 70 (byte offset 69)"),
      (twice, #"the key "kind" appears twice in one object at line"#),
      (written.replacingOccurrences(of: "\"files\"", with: "\"filez\""), "missing field files"),
      (
        written.replacingOccurrences(of: "\"length\" : 10", with: "\"length\" : \"ten\""),
        "field files[0].length is not a whole number"
      ),
    ]
    for (text, problem) in cases {
      let folder = try temporaryDirectory()
      let url = folder.appendingPathComponent(OfflineManifest.fileName)
      try Data(text.utf8).write(to: url)
      let refused = error { () throws(PlayheadError) in _ = try OfflineAsset(folderURL: folder) }
      XCTAssertEqual(refused?.code, .unsupportedFormat, problem)
      let expected =
        "the offline manifest \(url.standardizedFileURL.path) does not decode: \(problem)"
      XCTAssertTrue(
        refused?.message.hasPrefix(expected) ?? false,
        "\(refused?.message ?? "no error")\nexpected: \(expected)")
      XCTAssertNil(OfflineAsset.resolve(folder))
    }
  }

  func testDownloadIndex_nested500Deep_isRefusedWhenTheManagerOpens() throws {
    let root = try temporaryDirectory()
    let index = root.appendingPathComponent("downloads.json")
    let deep = #"{"formatVersion": 1, "downloads": "# + String(repeating: "[", count: 500)
    try Data(deep.utf8).write(to: index)
    let refused = error { () throws(PlayheadError) in _ = try DownloadManager(rootDirectory: root) }
    XCTAssertEqual(refused?.code, .unsupportedFormat)
    XCTAssertEqual(
      refused?.message,
      "the download index \(index.standardizedFileURL.path) does not decode: nested deeper than 64 levels at line 1, column 98 (byte offset 97)"
    )
  }
}
