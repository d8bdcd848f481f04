import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

/// Text subtitle streams of a file decoded with FFmpeg (`dual-subtitles.mkv`: SubRip and ASS).
final class SubtitleDecoderTests: XCTestCase {
  private func seconds(_ time: MediaTime?) -> Double { time?.seconds ?? -1 }

  func testTheStreamsAreDescribed() throws {
    let demuxer = try MediaFixtures.demuxer("dual-subtitles.mkv")
    let subtitles = demuxer.streams.filter { $0.kind == .subtitle }
    XCTAssertEqual(subtitles.map(\.index), [2, 3, 4])
    XCTAssertEqual(subtitles.map(\.codecName), ["subrip", "ass", "subrip"])
    XCTAssertEqual(subtitles.map(\.isTextSubtitle), [true, true, true])
    XCTAssertEqual(subtitles.map(\.language), ["eng", "fra", "eng"])
    XCTAssertEqual(subtitles.map(\.title), ["English", "French", "English (forced)"])
    XCTAssertEqual(subtitles.map(\.isDefault), [true, false, false])
    XCTAssertEqual(subtitles.map(\.isForced), [false, false, true])
    XCTAssertFalse(try XCTUnwrap(demuxer.bestStream(of: .audio)).isTextSubtitle)
  }

  func testBothStreamsDecodeToTimedMarkup() throws {
    let demuxer = try MediaFixtures.demuxer("dual-subtitles.mkv")
    let english = try demuxer.makeSubtitleDecoder(streamIndex: 2)
    let french = try demuxer.makeSubtitleDecoder(streamIndex: 3)
    var events: [Int: [SubtitleEvent]] = [:]
    while let packet = try demuxer.readPacket() {
      for decoder in [english, french] where packet.streamIndex == decoder.stream.index {
        events[decoder.stream.index, default: []] += decoder.decode(packet)
      }
    }
    let englishEvents = try XCTUnwrap(events[2])
    XCTAssertEqual(englishEvents.map(\.text), (0..<6).map { "Second \($0)" })
    XCTAssertEqual(englishEvents.map { seconds($0.start) }, [0, 1, 2, 3, 4, 5])
    for (index, event) in englishEvents.enumerated() {
      XCTAssertEqual(seconds(event.end), Double(index) + 0.9, accuracy: 0.001)
    }
    let frenchEvents = try XCTUnwrap(events[3])
    XCTAssertEqual(frenchEvents.map(\.text), (0..<6).map { "<i>Seconde \($0)</i>" })
    XCTAssertEqual(frenchEvents.map { seconds($0.start) }, [0.5, 1.5, 2.5, 3.5, 4.5, 5.5])
    XCTAssertEqual(frenchEvents.map { seconds($0.end) }, [1, 2, 3, 4, 5, 6])
    XCTAssertTrue(
      frenchEvents[0].assEvent.hasSuffix(",{\\i1}Seconde 0{\\i0}"), frenchEvents[0].assEvent)
    XCTAssertEqual(english.rejectedPacketCount, 0)
    XCTAssertTrue(try XCTUnwrap(french.assHeader).contains("[Script Info]"))
  }

  func testAStreamThatIsNotSubtitlesIsRefused() throws {
    let demuxer = try MediaFixtures.demuxer("dual-subtitles.mkv")
    XCTAssertThrowsError(try demuxer.makeSubtitleDecoder(streamIndex: 1)) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidArgument)
    }
  }

  func testASSTextBecomesWebVTTMarkup() {
    let table: [(String, String)] = [
      ("plain", "plain"),
      ("{\\i1}it{\\i0} and {\\b1}bold{\\b0}", "<i>it</i> and <b>bold</b>"),
      ("{\\i1}a{\\b1}b{\\i0}c{\\b0}", "<i>a<b>b</b></i><b>c</b>"),
      ("{\\u1}left open", "<u>left open</u>"),
      ("one\\Ntwo\\nthree\\hfour", "one\ntwo\nthree four"),
      ("{\\pos(10,20)\\c&HFF0000&}moved", "moved"),
      ("a < b & c > d", "a &lt; b &amp; c &gt; d"),
      ("{\\b700}heavy{\\b400}", "<b>heavy</b>"),
      ("cut {\\i1 here", "cut "),
      ("", ""),
    ]
    for (ass, expected) in table {
      XCTAssertEqual(SubtitleText.webVTTMarkup(ofASSText: ass), expected, ass)
    }
  }

  func testTheTextFieldIsAfterTheEighthComma() {
    XCTAssertEqual(SubtitleText.text(ofASSEvent: "0,0,Default,,0,0,0,,Hi, there"), "Hi, there")
    XCTAssertEqual(SubtitleText.text(ofASSEvent: "0,0,Default,,0,0,0,,"), "")
    XCTAssertEqual(SubtitleText.text(ofASSEvent: "no fields"), "no fields")
  }
}
