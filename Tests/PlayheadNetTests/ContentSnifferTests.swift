import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Content is sniffed, not trusted by its name (SPEC R1).
final class ContentSnifferTests: XCTestCase {
  private func classify(_ text: String) -> SniffedContent {
    ContentSniffer.classify(Data(text.utf8))
  }

  func testClassify_HLSPlaylists_withBOMAndLeadingWhiteSpace() {
    XCTAssertEqual(classify("#EXTM3U\n#EXTINF:2,\na.ts\n"), .hlsPlaylist)
    XCTAssertEqual(classify("\u{FEFF}#EXTM3U\r\n"), .hlsPlaylist)
    XCTAssertEqual(classify(" \r\n\t#EXTM3U"), .hlsPlaylist)
    XCTAssertEqual(classify("#EXTINF:2,\na.ts\n"), .media, "no #EXTM3U: not a playlist")
    XCTAssertEqual(classify("x#EXTM3U"), .media)
  }

  func testClassify_DASHManifests_afterDeclarationsCommentsAndPrefixes() {
    XCTAssertEqual(classify("<MPD type=\"static\"></MPD>"), .dashManifest)
    XCTAssertEqual(
      classify("<?xml version=\"1.0\"?>\n<!-- a <MPD> in a comment -->\n<MPD>"), .dashManifest)
    XCTAssertEqual(classify("<?xml version=\"1.0\"?><dash:MPD xmlns:dash=\"x\">"), .dashManifest)
    XCTAssertEqual(classify("<!DOCTYPE x><mpd>"), .dashManifest)
    XCTAssertEqual(classify("<?xml version=\"1.0\"?><!-- <MPD> --><html>"), .media)
    XCTAssertEqual(classify("<html><body>MPD</body></html>"), .media)
  }

  func testClassify_ffconcatScripts_andMedia() {
    XCTAssertEqual(classify("ffconcat version 1.0\nfile 'a.mp4'\n"), .ffconcatScript)
    XCTAssertEqual(classify(""), .media)
    XCTAssertEqual(ContentSniffer.classify(generatedBytes(count: 4096)), .media)
  }

  func testSniff_keepsTheHead_soTheDemuxerReadsWithoutASecondRequest() throws {
    let data = generatedBytes(count: 300_000)
    let server = HTTPTestServer(files: ["/media.mp4": data])
    try server.start()
    defer { server.stop() }
    let reader = DataSourceReader(
      source: DefaultDataSourceFactory().makeDataSource(),
      request: DataRequest(url: server.url("/media.mp4"), purpose: .media))
    try reader.open()
    XCTAssertEqual(try ContentSniffer.sniff(reader), .media)
    XCTAssertEqual(reader.length, Int64(data.count))
    XCTAssertEqual(try readToEnd(reader, chunk: 10_000), data)
    XCTAssertEqual(server.requests.map(\.range), [nil], "one response for all of it")
  }

  func testSniff_shortSources_andReadsThatStopShort() throws {
    let playlist = DataSourceReader(
      source: MemoryDataSource(data: Data("#EXTM3U\n".utf8)),
      request: DataRequest(url: URL(string: "memory:a.m3u8")!))
    XCTAssertEqual(try ContentSniffer.sniff(playlist), .hlsPlaylist)
    XCTAssertEqual(try readToEnd(playlist), Data("#EXTM3U\n".utf8))
    let empty = DataSourceReader(
      source: MemoryDataSource(data: Data()), request: DataRequest(url: URL(string: "memory:e")!))
    XCTAssertEqual(try ContentSniffer.sniff(empty), .media)
    XCTAssertEqual(try readOnce(empty, at: 0, count: 10), Data())
  }

  func testSniff_throwsTheSourcesError() throws {
    let reader = DataSourceReader(
      source: MemoryDataSource(resources: [:]), request: DataRequest(url: URL(string: "memory:x")!))
    let error = playheadError { () throws(PlayheadError) in try ContentSniffer.sniff(reader) }
    XCTAssertEqual(error?.code, .fileNotFound)
  }

  func testRefusal_namesWhatTheContentIs() {
    let url = URL(string: "http://example.com/a.mp4")!
    XCTAssertNil(SniffedContent.media.refusal(at: url))
    XCTAssertNil(SniffedContent.hlsPlaylist.refusal(at: url))
    let dash = SniffedContent.dashManifest.refusal(at: url)
    XCTAssertEqual(dash?.code, .unsupportedFormat)
    XCTAssertTrue(dash?.message.contains("a DASH manifest (MPD)") ?? false)
    XCTAssertTrue(
      SniffedContent.ffconcatScript.refusal(at: url)?.message.contains("ffconcat") ?? false)
  }

  func testImageSequencePatterns_areUnsupported_otherMissingFilesNotFound() throws {
    let directory = try makeTemporaryDirectory(for: self)
    for name in ["frame%03d.png", "img%d.jpg"] {
      let url = directory.appendingPathComponent(name)
      let error = playheadError { () throws(PlayheadError) in
        try FileDataSource().open(DataRequest(url: url))
      }
      XCTAssertEqual(error?.code, .unsupportedFormat, name)
      XCTAssertTrue(error?.message.contains("image sequence pattern") ?? false, name)
    }
    for name in ["100%done.mp4", "50%.mp4", "done.png"] {
      let url = directory.appendingPathComponent(name)
      let error = playheadError { () throws(PlayheadError) in
        try FileDataSource().open(DataRequest(url: url))
      }
      XCTAssertEqual(error?.code, .fileNotFound, name)
    }
  }
}
