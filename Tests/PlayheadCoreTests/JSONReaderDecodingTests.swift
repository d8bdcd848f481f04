import Foundation
import PlayheadCore
import XCTest

/// `JSONReader.decode`: `Codable` state files go through the reader first, and a wrong
/// shape is named by its field.
final class JSONReaderDecodingTests: XCTestCase {
  private struct Manifest: Codable, Equatable {
    struct File: Codable, Equatable {
      var path: String
      var length: Int64
    }
    enum Kind: String, Codable { case hls, progressive }
    var kind: Kind
    var source: URL
    var files: [File]
    var note: String?
  }

  private let sample = Manifest(
    kind: .hls, source: URL(string: "https://cdn.example.com/a b/master.m3u8?x=1")!,
    files: [.init(path: "a.ts", length: 1 << 40), .init(path: "é.ts", length: 0)], note: nil)

  private func message(_ text: String, limits: JSONReader.Limits = .standard) -> String? {
    do {
      _ = try JSONReader.decode(Manifest.self, from: Data(text.utf8), limits: limits)
      XCTFail("decoded \(text.prefix(80))")
      return nil
    } catch {
      XCTAssertEqual(error.code, .malformedJSON)
      XCTAssertFalse(error.message.contains("\n"), error.message)
      return error.message
    }
  }

  func testDecode_whatJSONEncoderWrote_decodesEqual() throws {
    let data = try JSONEncoder().encode(sample)
    XCTAssertEqual(try JSONReader.decode(Manifest.self, from: data), sample)
    let pretty = JSONEncoder()
    pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
    XCTAssertEqual(try JSONReader.decode(Manifest.self, from: pretty.encode(sample)), sample)
  }

  func testDecode_aWrongShape_namesTheField() throws {
    XCTAssertEqual(
      message(
        #"{"kind": "hls", "source": "https://a.example/", "files": [{"path": "a", "length": 1}, {"path": "b"}]}"#
      ),
      "missing field files[1].length")
    XCTAssertEqual(
      message(#"{"kind": 3, "source": "https://a.example/", "files": []}"#),
      "field kind is not a string")
    XCTAssertEqual(
      message(
        #"{"kind": "hls", "source": "https://a.example/", "files": [{"path": "a", "length": "9"}]}"#
      ),
      "field files[0].length is not a whole number")
    XCTAssertEqual(
      message(#"{"kind": "hls", "source": "https://a.example/", "files": null}"#),
      "field files is null, not an array")
    XCTAssertEqual(message("[]"), "the top-level value is not an object")
    XCTAssertEqual(
      message(#"{"kind": "dash", "source": "https://a.example/", "files": []}"#)?.hasPrefix(
        "field kind has an invalid value"), true)
  }

  /// The reader's rules hold before Foundation sees the bytes: depth, duplicate keys
  /// (which `JSONDecoder` alone would accept), UTF-8.
  func testDecode_textTheReaderRefuses_neverReachesTheDecoder() throws {
    let deep =
      #"{"kind": "hls", "source": "https://a.example/", "files": [], "x": "#
      + JSONTestDocuments.nestedArrays(depth: 500) + "}"
    XCTAssertEqual(message(deep)?.hasPrefix("nested deeper than 64 levels at line 1"), true)
    let twice =
      #"{"kind": "hls", "kind": "progressive", "source": "https://a.example/", "files": []}"#
    XCTAssertNoThrow(try JSONDecoder().decode(Manifest.self, from: Data(twice.utf8)))
    XCTAssertEqual(
      message(twice),
      #"the key "kind" appears twice in one object at line 1, column 17 (byte offset 16)"#)
    XCTAssertEqual(message("")?.hasPrefix("the text is empty"), true)
  }
}
