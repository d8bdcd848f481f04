import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Fragmented-MP4 HLS (`Fixtures/hls-fmp4`, five 2-second segments, 25 fps) through a
/// `ListPlayer`, whose `short` scene keeps only 4 s downloaded ahead at start.
///
/// The MP4 demuxer used to visit every fragment of a seekable input before giving its
/// first packet; an HLS run fetches fragments only as playback moves, so the first frame
/// never came (the downloader waited for playback, the demuxer for the downloader).
final class FragmentedMP4ListPlayerTests: XCTestCase {
  private func playFeed(
    _ urls: [URL], cache: MediaCache?, preloadNext: Int, file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    var configuration = PlayerConfiguration.fast()
    configuration.cache = cache
    let list = ListPlayer(configuration: configuration)
    addTeardownBlock { list.close() }
    list.setPreloadCount(previous: 0, next: preloadNext)
    for (index, url) in urls.enumerated() { try list.add(url: url, uid: "\(index)") }
    let recorder = EventRecorder(list.player)
    for (index, uid) in list.uids.enumerated() {
      if index == 0 { try list.moveTo(uid: uid) } else { try list.moveToNext() }
      let item = try XCTUnwrap(list.currentItem, file: file, line: line)
      let ended = recorder.waitFor("the end of item \(uid)", file: file, line: line) { events in
        events.contains { event in
          switch event.kind {
          case .didPlayToEnd(let ended), .failedToPlayToEnd(let ended, _): return ended === item
          case .itemStatusChanged(let failed, .failed): return failed === item
          default: return false
          }
        }
      }
      guard ended else { return }
      let firstFrames = recorder.events.filter {
        if case .firstFramePresented(let shown) = $0.kind { return shown === item }
        return false
      }
      XCTAssertEqual(firstFrames.count, 1, "item \(uid): \(recorder.names)", file: file, line: line)
      XCTAssertTrue(
        recorder.events.contains {
          if case .didPlayToEnd(let ended) = $0.kind { return ended === item }
          return false
        }, "item \(uid) did not play to its end: \(recorder.names)", file: file, line: line)
      // Every frame of the 10 s at 25 fps, none dropped.
      XCTAssertEqual(item.statistics.framesRendered, 250, "item \(uid)", file: file, line: line)
      XCTAssertEqual(item.statistics.framesDropped, 0, "item \(uid)", file: file, line: line)
    }
  }

  func testMasterAndMediaPlaylists_showTheirFirstFrame_andPlayToTheEnd_withPreload() throws {
    let cache = try PreloadFixtures.cache(self)
    try playFeed(
      [try Fixtures.url("hls-fmp4/master.m3u8"), try Fixtures.url("hls-fmp4/144p/index.m3u8")],
      cache: cache, preloadNext: 1)
  }

  func testMasterAndMediaPlaylists_showTheirFirstFrame_andPlayToTheEnd_withoutPreload() throws {
    try playFeed(
      [try Fixtures.url("hls-fmp4/144p/index.m3u8"), try Fixtures.url("hls-fmp4/master.m3u8")],
      cache: nil, preloadNext: 0)
  }

  func testOverHTTP_aForwardBufferShorterThanTheStream_playsEveryFrame() throws {
    // A plain player whose forward buffer holds two of the five fragments.
    let server = try PreloadFixtures.server(self)
    var configuration = PlayerConfiguration.fast()
    configuration.hls.forwardBufferDuration = MediaTime(value: 4, timescale: 1)
    let player = Player(configuration: configuration)
    addTeardownBlock { player.close() }
    let recorder = EventRecorder(player)
    let item = PlayerItem(url: server.url("/hls-fmp4/144p/index.m3u8"))
    player.replaceCurrentItem(with: item)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd", "\(recorder.names)")
    XCTAssertEqual(item.statistics.framesRendered, 250)
  }
}
