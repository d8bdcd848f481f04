import Foundation
import PlayheadNet
import XCTest

/// MD5 and CDN type-A signing, checked against digests computed independently by the
/// system's `md5sum` and the RFC 1321 test suite.
final class URLSigningTests: XCTestCase {
  /// `md5sum` of `text` (coreutils), the independent reference.
  private func systemMD5(_ text: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/md5sum")
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let line = String(decoding: data, as: UTF8.self)
    return String(line.prefix(32))
  }

  func testMD5MatchesTheRFCTestSuite() {
    let suite = [
      ("", "d41d8cd98f00b204e9800998ecf8427e"),
      ("a", "0cc175b9c0f1b6a831c399e269772661"),
      ("abc", "900150983cd24fb0d6963f7d28e17f72"),
      ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
      ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
      (
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        "d174ab98d277d9f5a5611c2c9f419d9f"
      ),
      (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ]
    for (text, expected) in suite {
      XCTAssertEqual(MD5.hex(text), expected, "\"\(text)\"")
    }
  }

  func testMD5MatchesMd5sumAcrossBlockBoundaries() throws {
    for length in [55, 56, 57, 63, 64, 65, 119, 120, 1000] {
      let text = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
      XCTAssertEqual(MD5.hex(text), try systemMD5(text), "length \(length)")
    }
    XCTAssertEqual(MD5.hex("é/ü-漢字"), try systemMD5("é/ü-漢字"))
  }

  func testTypeASignatureIsTheSeedsFormula() throws {
    let signer = CDNTypeASigner(key: "secret")
    let url = try XCTUnwrap(URL(string: "https://cdn.example.com/video/index.m3u8"))
    let signed = try signer.sign(url, expiry: 1_700_000_000)
    let hash = try systemMD5("/video/index.m3u8-1700000000-0-0-secret")
    XCTAssertEqual(
      signed.absoluteString,
      "https://cdn.example.com/video/index.m3u8?auth_key=1700000000-0-0-\(hash)")
    XCTAssertEqual(signer.expiry(of: signed), 1_700_000_000)
    XCTAssertTrue(signer.verifies(signed))
    XCTAssertFalse(CDNTypeASigner(key: "other").verifies(signed))
    XCTAssertTrue(signer.isExpired(signed, now: 1_700_000_001))
    XCTAssertFalse(signer.isExpired(signed, now: 1_700_000_000))
    XCTAssertFalse(signer.isExpired(url, now: .max), "unsigned URLs never expire")
  }

  func testExistingQueryUsesAnAmpersandAndResigningReplacesTheKey() throws {
    let signer = CDNTypeASigner(key: "k", rand: "r1", uid: "u7")
    let url = try XCTUnwrap(URL(string: "http://h/a%20b/seg.ts?x=1&y=2"))
    let first = try signer.sign(url, expiry: 100)
    let hash = try systemMD5("/a%20b/seg.ts-100-r1-u7-k")
    XCTAssertEqual(first.absoluteString, "http://h/a%20b/seg.ts?x=1&y=2&auth_key=100-r1-u7-\(hash)")
    let second = try signer.sign(first, expiry: 200)
    XCTAssertEqual(second.absoluteString.components(separatedBy: "auth_key=").count, 2)
    XCTAssertEqual(signer.expiry(of: second), 200)
    XCTAssertTrue(second.absoluteString.hasPrefix("http://h/a%20b/seg.ts?x=1&y=2&auth_key=200-"))
    let bare = try signer.sign(try XCTUnwrap(URL(string: "https://h")), expiry: 5)
    XCTAssertEqual(
      bare.absoluteString, "https://h/?auth_key=5-r1-u7-\(try systemMD5("/-5-r1-u7-k"))")
  }

  func testUnsignableURLsThrow() throws {
    XCTAssertThrowsError(
      try CDNTypeASigner(key: "").sign(try XCTUnwrap(URL(string: "https://h/x")), expiry: 1))
    XCTAssertThrowsError(
      try CDNTypeASigner(key: "k").sign(URL(fileURLWithPath: "/tmp/x.ts"), expiry: 1))
  }
}
