import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadHLS
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// One stream that uses every feature at once: an fMP4 variant whose initialisation
/// section and AES-128-encrypted segments are byte ranges of a single file.
final class OfflineCombinedStreamTests: XCTestCase {
  private let key: [UInt8] = (0..<16).map { UInt8(0x40 + $0) }

  /// The served files: master, media playlist, the single media file and the key; plus
  /// each piece (init, encrypted segments) as the download should store it.
  private func makeStream() throws -> (files: [String: Data], pieces: [Data]) {
    let initSection = try Data(contentsOf: try Fixtures.url("hls-fmp4/144p/init.mp4"))
    var pieces = [initSection]
    for index in 0..<5 {
      let clear = try Data(
        contentsOf: try Fixtures.url("hls-fmp4/144p/segment00\(index).m4s"))
      pieces.append(
        try AES128.encryptCBC(clear, key: key, iv: EncryptionKey.sequenceIV(index)))
    }
    var playlist = """
      #EXTM3U
      #EXT-X-VERSION:7
      #EXT-X-TARGETDURATION:2
      #EXT-X-MEDIA-SEQUENCE:0
      #EXT-X-PLAYLIST-TYPE:VOD
      #EXT-X-MAP:URI="all.mp4",BYTERANGE="\(pieces[0].count)@0"
      #EXT-X-KEY:METHOD=AES-128,URI="/keys/k.bin"

      """
    var offset = pieces[0].count
    for piece in pieces.dropFirst() {
      playlist += "#EXTINF:2.000000,\n#EXT-X-BYTERANGE:\(piece.count)@\(offset)\nall.mp4\n"
      offset += piece.count
    }
    playlist += "#EXT-X-ENDLIST\n"
    let master = """
      #EXTM3U
      #EXT-X-VERSION:7
      #EXT-X-STREAM-INF:BANDWIDTH=130000,RESOLUTION=256x144,CODECS="avc1.4d400c,mp4a.40.2"
      v/index.m3u8

      """
    let files: [String: Data] = [
      "/c/master.m3u8": Data(master.utf8), "/c/v/index.m3u8": Data(playlist.utf8),
      "/c/v/all.mp4": pieces.reduce(Data(), +), "/keys/k.bin": Data(key),
    ]
    return (files, pieces)
  }

  func testByteRangedInitAndEncryptedSegments_areStoredSplit_andPlayOffline() throws {
    let stream = try makeStream()
    let server = HTTPTestServer(files: stream.files)
    try server.start()
    addTeardownBlock { server.stop() }
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(manager, server.url("/c/master.m3u8"))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let folder = record.folderURL
    XCTAssertEqual(
      try Data(contentsOf: folder.appendingPathComponent("video/init0.mp4")), stream.pieces[0])
    for index in 0..<5 {
      XCTAssertEqual(
        try Data(contentsOf: folder.appendingPathComponent("video/seg0000\(index).mp4")),
        stream.pieces[index + 1], "segment \(index)")
    }
    XCTAssertEqual(
      try Data(contentsOf: folder.appendingPathComponent("video/key0.key")), Data(key))
    let playlist = try String(
      contentsOf: folder.appendingPathComponent("video/index.m3u8"), encoding: .utf8)
    XCTAssertFalse(playlist.contains("BYTERANGE"), playlist)
    XCTAssertTrue(playlist.contains("#EXT-X-MAP:URI=\"init0.mp4\""), playlist)
    let played = playOffline(folder)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 250)
  }
}
