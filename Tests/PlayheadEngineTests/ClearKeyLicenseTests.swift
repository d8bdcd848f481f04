import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// `ClearKeyLicense` against a loopback licence server: the request it POSTs, the keys it
/// reads back, and the typed errors for every way an answer can be wrong.
final class ClearKeyLicenseTests: XCTestCase {
  private let path = "/clearkey"
  /// Key IDs whose base64url needs both `-` and `_` and, padded, both one and two `=`.
  private let kidA: [UInt8] = Array(0..<16)
  private let kidB: [UInt8] = [0xFB, 0xFF, 0xBF] + Array(repeating: 0xFF, count: 13)
  private let keyA: [UInt8] = Array(repeating: 0xA5, count: 16)
  private let keyB: [UInt8] = (0..<16).map { UInt8(200 + $0) }

  private func b64url(_ bytes: [UInt8], padded: Bool = false) -> String {
    var text = Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    if !padded { text = text.replacingOccurrences(of: "=", with: "") }
    return text
  }

  private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
  }

  /// A started server whose licence path answers `body` with `status`.
  private func server(
    status: Int = 200, body: Data, contentType: String = "application/json"
  ) throws -> HTTPTestServer {
    let server = HTTPTestServer()
    try server.start()
    addTeardownBlock { server.stop() }
    server.setResponder(for: path) { _ in
      HTTPTestServer.Response(status: status, headers: ["Content-Type": contentType], body: body)
    }
    return server
  }

  private func jwkSet(_ keys: [(kid: String, k: String, kty: String)]) -> Data {
    let entries = keys.map { #"{"kty":"\#($0.kty)","kid":"\#($0.kid)","k":"\#($0.k)"}"# }
    return Data(#"{"keys":[\#(entries.joined(separator: ","))],"type":"temporary"}"#.utf8)
  }

  private func loader() -> DataLoader {
    DataSourceStack(request: RequestConfiguration(timeoutMs: 5_000, retryCount: 0)).loader()
  }

  private func fetch(
    _ keyIDs: [[UInt8]], from server: HTTPTestServer, headers: [String: String] = [:]
  ) throws(PlayheadError) -> [[UInt8]: [UInt8]] {
    try ClearKeyLicense.keys(
      for: keyIDs, from: server.url(path), loader: loader(), headers: headers)
  }

  /// The error `fetch` throws for an answer of `body`.
  private func failure(
    answering body: Data, status: Int = 200, for keyIDs: [[UInt8]]? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> (PlayheadError, URL)? {
    let server = try server(status: status, body: body)
    let wanted = keyIDs ?? [kidA]
    do {
      let keys = try fetch(wanted, from: server)
      XCTFail("expected an error, got \(keys)", file: file, line: line)
      return nil
    } catch {
      XCTAssertFalse(error.message.contains("\n"), "one line", file: file, line: line)
      return (error, server.url(path))
    }
  }

  // MARK: Success

  func testKeys_fromALoopbackServer_returnsEachKeyByItsKeyID() throws {
    let server = HTTPTestServer()
    try server.start()
    addTeardownBlock { server.stop() }
    let answer = jwkSet([
      (b64url(kidA), b64url(keyA, padded: true), "oct"),
      (b64url(kidB, padded: true), b64url(keyB), "oct"),
    ])
    let kidTexts = [b64url(kidA), b64url(kidB)]
    server.setResponder(for: path) { request in
      // The server checks the request as a licence server would.
      guard request.method == "POST",
        request.headers["content-type"] == "application/json",
        let json = try? JSONReader.read(request.body).objectValue,
        json["type"]?.stringValue == "temporary",
        json["kids"]?.arrayValue?.compactMap(\.stringValue) == kidTexts
      else { return HTTPTestServer.Response(status: 400) }
      return HTTPTestServer.Response(headers: ["Content-Type": "application/json"], body: answer)
    }
    let keys = try fetch([kidA, kidB, kidA], from: server)
    XCTAssertEqual(keys, [kidA: keyA, kidB: keyB])
    let logged = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(server.requests.count, 1)
    XCTAssertEqual(
      String(decoding: logged.body, as: UTF8.self),
      #"{"kids":["AAECAwQFBgcICQoLDA0ODw","-_-__________________w"],"type":"temporary"}"#)
    XCTAssertEqual(logged.body, ClearKeyLicense.requestBody(for: [kidA, kidB]))
    XCTAssertNil(logged.range)
  }

  func testKeys_sendsTheCallersHeaders_andLeavesOutKeysNotAskedFor() throws {
    let server = try server(
      body: jwkSet([(b64url(kidA), b64url(keyA), "oct"), (b64url(kidB), b64url(keyB), "oct")]))
    let keys = try fetch([kidB], from: server, headers: ["Authorization": "Bearer t"])
    XCTAssertEqual(keys, [kidB: keyB])
    XCTAssertEqual(server.requests.first?.headers["authorization"], "Bearer t")
    XCTAssertEqual(server.requests.first?.headers["content-type"], "application/json")
  }

  func testKeys_aTwiceRequestedLicence_isNotServedFromTheCache() throws {
    let server = try server(body: jwkSet([(b64url(kidA), b64url(keyA), "oct")]))
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-clearkey-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    let cache = try MediaCache.open(directory: folder)
    addTeardownBlock { cache.close() }
    let stack = DataSourceStack(request: RequestConfiguration(retryCount: 0), cache: cache)
    for _ in 0..<2 {
      XCTAssertEqual(
        try ClearKeyLicense.keys(for: [kidA], from: server.url(path), loader: stack.loader()),
        [kidA: keyA])
    }
    XCTAssertEqual(server.requestCount(for: path), 2)
  }

  // MARK: Wrong answers

  func testMissingKeyID_isDecryptionFailed_namingItAndTheURL() throws {
    let (error, url) = try XCTUnwrap(
      failure(answering: jwkSet([(b64url(kidA), b64url(keyA), "oct")]), for: [kidA, kidB]))
    XCTAssertEqual(error.code, .decryptionFailed)
    XCTAssertEqual(
      error.message,
      "the ClearKey licence from \(url.absoluteString) for key IDs \(hex(kidA)), \(hex(kidB)) "
        + "has no key for key ID \(hex(kidB))")
    XCTAssertEqual(error.url, url)
  }

  func testKeyThatIsNotBase64URL_isDecryptionFailed() throws {
    for k in [
      "AAEC AwQFBgcICQoLDA0ODw", "AAECAwQFBgcICQoLDA0ODw===", "AAECAwQFBgcICQoLDA0O+w", "A",
    ] {
      let (error, _) = try XCTUnwrap(
        failure(answering: jwkSet([(b64url(kidA), k, "oct")])), k)
      XCTAssertEqual(error.code, .decryptionFailed, k)
      XCTAssertTrue(
        error.message.hasSuffix("has a k that is not base64url for key ID \(hex(kidA))"),
        error.message)
    }
    let (error, _) = try XCTUnwrap(failure(answering: jwkSet([("not*b64", b64url(keyA), "oct")])))
    XCTAssertTrue(error.message.hasSuffix("whose kid 'not*b64' is not base64url"), error.message)
  }

  func testKeyOfTheWrongSize_isDecryptionFailed() throws {
    let (error, url) = try XCTUnwrap(
      failure(answering: jwkSet([(b64url(kidA), b64url(Array(keyA.prefix(15))), "oct")])))
    XCTAssertEqual(error.code, .decryptionFailed)
    XCTAssertEqual(
      error.message,
      "the ClearKey licence from \(url.absoluteString) for key ID \(hex(kidA)) has a 15-byte "
        + "key, not 16, for key ID \(hex(kidA))")
    let (short, _) = try XCTUnwrap(
      failure(answering: jwkSet([(b64url([1, 2, 3]), b64url(keyA), "oct")])))
    XCTAssertTrue(short.message.hasSuffix("whose kid is 3 bytes, not 16"), short.message)
  }

  func testKtyOtherThanOct_isDecryptionFailed() throws {
    let (error, _) = try XCTUnwrap(
      failure(answering: jwkSet([(b64url(kidA), b64url(keyA), "RSA")])))
    XCTAssertEqual(error.code, .decryptionFailed)
    XCTAssertTrue(
      error.message.hasSuffix("has kty 'RSA', not 'oct', for key ID \(hex(kidA))"), error.message)
  }

  func testHTTP403_keepsTheStacksTypedError() throws {
    let (error, url) = try XCTUnwrap(failure(answering: Data("denied".utf8), status: 403))
    XCTAssertEqual(error.code, .httpStatus)
    XCTAssertEqual(error.httpStatusCode, 403)
    XCTAssertEqual(error.url, url)
  }

  func testGarbageBody_isDecryptionFailed_notJSON() throws {
    let (error, url) = try XCTUnwrap(failure(answering: Data("<html>nope</html>".utf8)))
    XCTAssertEqual(error.code, .decryptionFailed)
    XCTAssertTrue(
      error.message.hasPrefix(
        "the ClearKey licence from \(url.absoluteString) for key ID \(hex(kidA)) is not JSON ("),
      error.message)
  }

  func testHostileOrWronglyShapedJSON_isDecryptionFailed() throws {
    let cases: [(String, String)] = [
      (String(repeating: "[", count: 10_000), "is not JSON"),
      (#"{"keys":"#, "is not JSON"),
      (#"[1,2]"#, #"is not a JWK set (no "keys" array)"#),
      (#"{"keys":{"kid":"x"}}"#, #"is not a JWK set (no "keys" array)"#),
      (#"{"keys":[5]}"#, "has a key 1 of the JWK set that is not an object"),
      (#"{"keys":[{"kty":"oct","kid":7,"k":"x"}]}"#, #"without a "kid" string"#),
      (
        #"{"keys":[{"kty":"oct","kid":"\#(b64url(kidA))","k":null}]}"#,
        #"has no "k" string for key ID \#(hex(kidA))"#
      ),
      (
        #"{"keys":[{"kid":"\#(b64url(kidA))","k":"\#(b64url(keyA))"}]}"#,
        #"has no "kty" string for key ID \#(hex(kidA))"#
      ),
      ("", "is not JSON"),
    ]
    for (body, expected) in cases {
      let (error, _) = try XCTUnwrap(failure(answering: Data(body.utf8)), String(body.prefix(40)))
      XCTAssertEqual(error.code, .decryptionFailed, String(body.prefix(40)))
      XCTAssertTrue(error.message.contains(expected), error.message)
      XCTAssertLessThan(error.message.count, 400, "a short message")
    }
  }

  func testTwoDifferentKeysForOneKeyID_isDecryptionFailed() throws {
    let body = jwkSet([(b64url(kidA), b64url(keyA), "oct"), (b64url(kidA), b64url(keyB), "oct")])
    let (error, _) = try XCTUnwrap(failure(answering: body))
    XCTAssertTrue(error.message.hasSuffix("holds two different keys for key ID \(hex(kidA))"))
  }

  func testOversizedBody_isDecryptionFailed() throws {
    var body = jwkSet([(b64url(kidA), b64url(keyA), "oct")])
    body.append(Data(repeating: 0x20, count: 3 << 20))
    let (error, url) = try XCTUnwrap(failure(answering: body))
    XCTAssertEqual(error.code, .decryptionFailed)
    XCTAssertEqual(
      error.message,
      "the ClearKey licence from \(url.absoluteString) for key ID \(hex(kidA)) is larger than "
        + "1048576 bytes")
  }

  // MARK: Wrong arguments

  func testArguments_fileURLOrBadKeyIDs_areInvalidArgument() throws {
    let file = URL(fileURLWithPath: "/tmp/licence.json")
    let cases: [(URL, [[UInt8]], String)] = [
      (
        file, [kidA],
        "a ClearKey licence URL must be http or https, not 'file': file:///tmp/licence.json"
      ),
      (
        URL(string: "https://licence.example/ck")!, [],
        "no key IDs to ask the ClearKey licence server https://licence.example/ck for"
      ),
      (
        URL(string: "https://licence.example/ck")!, [kidA, [1, 2]],
        "key ID 0102 is 2 bytes, not 16 (ClearKey licence https://licence.example/ck)"
      ),
    ]
    for (url, keyIDs, message) in cases {
      do {
        _ = try ClearKeyLicense.keys(for: keyIDs, from: url, loader: loader())
        XCTFail("expected .invalidArgument for \(url)")
      } catch {
        XCTAssertEqual(error.code, .invalidArgument)
        XCTAssertEqual(error.message, message)
      }
    }
  }

  // MARK: Base64url

  func testBase64URL_decodesWithOrWithoutPadding_andRefusesOtherText() {
    for bytes in [kidA, kidB, [], [0xFF], [0xFB, 0xEF], Array(keyB.prefix(14))] {
      XCTAssertEqual(Base64URL.decode(Base64URL.encode(bytes)), bytes)
      XCTAssertEqual(Base64URL.decode(b64url(bytes, padded: true)), bytes)
      XCTAssertFalse(Base64URL.encode(bytes).contains("="))
    }
    XCTAssertEqual(Base64URL.encode(kidB), "-_-__________________w")
    for bad in ["+/8", "ab=c", "abcde", "a===", "ab c", "ab\n", "abc=="] {
      XCTAssertNil(Base64URL.decode(bad), bad)
    }
  }
}
