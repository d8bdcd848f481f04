import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

/// Keys and key methods through the public `Player` over a loopback HTTP server: a method
/// Playhead cannot decrypt fails only the segments under it, with a typed error naming the
/// method; `data:` keys are decoded without a request; an AES-128 initialization section
/// without `IV` is decrypted with the IV from the media sequence.
final class HLSKeyMethodPlaybackTests: XCTestCase {
  private func segment(_ path: String) throws -> Data {
    try Data(contentsOf: try Fixtures.url(path))
  }

  private func play(_ path: String, on server: HTTPTestServer) -> (Player, PlayerEvent?) {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url(path), configuration: .fast())
    addTeardownBlock { player.close() }
    player.play()
    return (player, recorder.waitForEnd())
  }

  func testUnknownMethodOnLaterSegments_playsTheClearOnesThenFailsNamingTheMethod() throws {
    var files: [String: Data] = [:]
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    for index in 0..<5 {
      let name = String(format: "segment%03d.ts", index)
      files["/s/" + name] = try segment("hls/144p/" + name)
      if index == 3 { text += "#EXT-X-KEY:METHOD=AES-256-CTR,URI=\"k.bin\",IV=0x1\n" }
      text += "#EXTINF:2.0,\n\(name)\n"
    }
    files["/s/index.m3u8"] = Data((text + "#EXT-X-ENDLIST\n").utf8)
    files["/s/k.bin"] = Data(repeating: 7, count: 32)
    let server = HTTPTestServer(files: files)
    try server.start()
    defer { server.stop() }
    let (player, end) = play("/s/index.m3u8", on: server)
    XCTAssertEqual(end?.name, "failedToPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(end?.error?.code, .unsupportedEncryption)
    XCTAssertTrue(
      end?.error?.message.contains("METHOD=AES-256-CTR") ?? false,
      "\(String(describing: end?.error))")
    XCTAssertEqual(
      player.currentItem?.statistics.framesDecoded, 150, "the three clear segments played")
    XCTAssertEqual(server.requestCount(for: "/s/segment002.ts"), 1)
    XCTAssertEqual(server.requestCount(for: "/s/k.bin"), 0, "a key it cannot use is not fetched")
  }

  func testDataKeys_areDecodedInline_withoutAnyKeyRequest() throws {
    let key1 = try segment("hls-aes/key.bin")
    let key2 = try segment("hls-aes/key2.bin")
    var text = String(decoding: try segment("hls-aes/index.m3u8"), as: UTF8.self)
    text = text.replacingOccurrences(
      of: "URI=\"key.bin\"",
      with: "URI=\"data:application/octet-stream;base64,\(key1.base64EncodedString())\"")
    let percent = key2.map { String(format: "%%%02X", $0) }.joined()
    text = text.replacingOccurrences(of: "URI=\"key2.bin\"", with: "URI=\"data:,\(percent)\"")
    var files: [String: Data] = ["/aes/index.m3u8": Data(text.utf8)]
    for index in 10...14 {
      files["/aes/segment0\(index).ts"] = try segment("hls-aes/segment0\(index).ts")
    }
    let server = HTTPTestServer(files: files)
    try server.start()
    defer { server.stop() }
    let (player, end) = play("/aes/index.m3u8", on: server)
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 250)
    XCTAssertEqual(
      Set(server.requests.map(\.path)),
      Set(files.keys), "only the playlist and the segments were requested")
  }

  func testEncryptedInitSectionWithoutIV_isDecryptedWithTheSequenceIV() throws {
    let key = [UInt8](try segment("hls-aes/key.bin"))
    let sequence = 40
    let clearInit = try segment("hls-fmp4/144p/init.mp4")
    var files: [String: Data] = [
      "/f/init.enc": try AES128.encryptCBC(
        clearInit, key: key, iv: AES128.iv(mediaSequence: UInt64(sequence))),
      "/f/k.bin": Data(key),
    ]
    var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    text += "#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
    text += "#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin\"\n#EXT-X-MAP:URI=\"init.enc\"\n"
    for index in 0..<5 {
      let name = String(format: "segment%03d.m4s", index)
      // Each segment is encrypted with the IV of its own media sequence number.
      files["/f/" + name] = try AES128.encryptCBC(
        try segment("hls-fmp4/144p/" + name), key: key,
        iv: AES128.iv(mediaSequence: UInt64(sequence + index)))
      text += "#EXTINF:2.0,\n\(name)\n"
    }
    files["/f/index.m3u8"] = Data((text + "#EXT-X-ENDLIST\n").utf8)
    let server = HTTPTestServer(files: files)
    try server.start()
    defer { server.stop() }
    let (player, end) = play("/f/index.m3u8", on: server)
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 250)
    XCTAssertEqual(server.requestCount(for: "/f/k.bin"), 1, "the key is fetched once")
    XCTAssertEqual(server.requestCount(for: "/f/init.enc"), 1)
  }
}
