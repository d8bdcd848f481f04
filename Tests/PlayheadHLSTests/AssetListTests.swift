import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// The interstitial asset-list JSON reader.
final class AssetListTests: XCTestCase {
  private let url = URL(string: "https://ads.example.com/breaks/list.json")!

  private func read(_ text: String, limits: AssetList.Limits = .default) throws(AssetListError)
    -> AssetList
  {
    try AssetList(data: Data(text.utf8), url: url, limits: limits)
  }

  private func failure(_ text: String, limits: AssetList.Limits = .default) -> AssetListError? {
    do throws(AssetListError) {
      _ = try read(text, limits: limits)
      return nil
    } catch {
      return error
    }
  }

  func testAssets_areResolvedTimedAndKeepTheirOtherFields() throws {
    let list = try read(
      #"{"ASSETS":[{"URI":"one/a.m3u8","DURATION":15.015,"X-AD-ID":"a1"},"#
        + #"{"URI":"https://cdn.example.com/b.m3u8","DURATION":30}],"SKIP-CONTROL":{"OFFSET":5}}"#)
    XCTAssertEqual(list.assets.count, 2)
    XCTAssertEqual(list.assets[0].uri.absoluteString, "https://ads.example.com/breaks/one/a.m3u8")
    XCTAssertEqual(list.assets[0].duration, time(15_015, 1000))
    XCTAssertEqual(list.assets[0].otherFields, ["X-AD-ID": .string("a1")])
    XCTAssertEqual(list.assets[1].uri.absoluteString, "https://cdn.example.com/b.m3u8")
    XCTAssertEqual(list.totalDuration, time(45_015, 1000))
    XCTAssertEqual(list.otherFields, ["SKIP-CONTROL": .object(["OFFSET": .number(5)])])
    XCTAssertEqual(try read(#"{"ASSETS":[]}"#).assets, [], "an empty list is valid")
  }

  func testMalformedDocuments_areTypedErrors() {
    XCTAssertEqual(failure(#"[1,2]"#), .missingAssets)
    XCTAssertEqual(failure(#"{"assets":[]}"#), .missingAssets)
    XCTAssertEqual(failure(#"{"ASSETS":{}}"#), .missingAssets)
    guard case .malformedJSON? = failure(#"{"ASSETS":[}"#) else { return XCTFail() }
    guard case .malformedJSON? = failure("") else { return XCTFail() }
    guard case .malformedJSON? = failure(#"{"ASSETS":[],"ASSETS":[]}"#) else {
      return XCTFail("a repeated key is refused")
    }
    let cases: [(String, Int, String)] = [
      (#"{"ASSETS":[7]}"#, 0, "not an object"),
      (#"{"ASSETS":[{"DURATION":1}]}"#, 0, "no string URI"),
      (#"{"ASSETS":[{"URI":"a","DURATION":1},{"URI":3,"DURATION":1}]}"#, 1, "no string URI"),
      (#"{"ASSETS":[{"URI":"a"}]}"#, 0, "DURATION"),
      (#"{"ASSETS":[{"URI":"a","DURATION":-1}]}"#, 0, "DURATION"),
      (#"{"ASSETS":[{"URI":"a","DURATION":"5"}]}"#, 0, "DURATION"),
      (#"{"ASSETS":[{"URI":"file:///etc/passwd","DURATION":1}]}"#, 0, "scheme 'file'"),
      (#"{"ASSETS":[{"URI":"","DURATION":1}]}"#, 0, "empty"),
    ]
    for (text, index, reason) in cases {
      guard case .invalidAsset(let at, let message)? = failure(text) else {
        XCTFail("\(text): \(String(describing: failure(text)))")
        continue
      }
      XCTAssertEqual(at, index, text)
      XCTAssertTrue(message.contains(reason), "\(text): \(message)")
    }
  }

  func testHostileDocuments_areRefusedWithinTheLimits() {
    let deep =
      #"{"ASSETS":[],"X":"# + String(repeating: "[", count: 100_000)
      + String(repeating: "]", count: 100_000) + "}"
    guard case .malformedJSON(let message)? = failure(deep) else {
      return XCTFail("\(String(describing: failure(deep)))")
    }
    XCTAssertTrue(message.contains("deeper than 16"), message)
    let huge = #"{"ASSETS":[],"X":""# + String(repeating: "x", count: 2 << 20) + #""}"#
    XCTAssertEqual(failure(huge), .tooLarge(byteCount: huge.utf8.count, limit: 1 << 20))
    let asset = #"{"URI":"a.m3u8","DURATION":1}"#
    let many = #"{"ASSETS":["# + Array(repeating: asset, count: 11).joined(separator: ",") + "]}"
    XCTAssertEqual(
      failure(many, limits: AssetList.Limits(maxAssets: 10)), .tooManyAssets(count: 11, limit: 10))
    XCTAssertNotNil(try? read(many, limits: AssetList.Limits(maxAssets: 11)))
  }
}
