import Foundation
import PlayheadCore
import PlayheadSDK
import XCTest

/// `ThumbnailTrack`: the lookup rule, sprite fragments and payload URLs.
final class ThumbnailTrackTests: XCTestCase {
  private let base = URL(string: "https://cdn.example.com/videos/v1/thumbs.vtt")!

  private func track(_ text: String, url: URL? = nil) throws -> ThumbnailTrack {
    try ThumbnailTrack(data: Data(text.utf8), url: url ?? base)
  }

  private func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1000)
  }

  /// Cues a (0–5), b (5–10), gap 10–12, c (12–15), d overlapping c (13–20), gap, e (30–31).
  private let lookupVTT = """
    WEBVTT

    00:00.000 --> 00:05.000
    a.jpg

    00:05.000 --> 00:10.000
    b.jpg

    00:12.000 --> 00:15.000
    c.jpg

    00:13.000 --> 00:20.000
    d.jpg

    00:30.000 --> 00:31.000
    e.jpg
    """

  func testLookupRule_table() throws {
    let track = try track(lookupVTT)
    XCTAssertEqual(track.thumbnails.count, 5)
    XCTAssertEqual(track.end, seconds(31))
    let cases: [(time: MediaTime, expected: String?, why: String)] = [
      (seconds(-1), nil, "before the first cue"),
      (seconds(0), "a.jpg", "the first cue's start is inclusive"),
      (seconds(2.5), "a.jpg", "inside a"),
      (seconds(4.999), "a.jpg", "just before a's end"),
      (seconds(5), "b.jpg", "a boundary belongs to the next cue"),
      (seconds(9.999), "b.jpg", "inside b"),
      (seconds(10), "b.jpg", "a gap holds the previous cue"),
      (seconds(11.5), "b.jpg", "a gap holds the previous cue"),
      (seconds(12), "c.jpg", "c starts"),
      (seconds(13), "d.jpg", "overlap: the later start wins"),
      (seconds(16), "d.jpg", "inside d only"),
      (seconds(25), "d.jpg", "a gap holds the previous cue"),
      (seconds(30.5), "e.jpg", "the last cue"),
      (seconds(31), nil, "the end of the track is exclusive"),
      (seconds(3600), nil, "after the track"),
      (.invalid, nil, "an invalid time"),
      (.indefinite, nil, "an indefinite time"),
      (.positiveInfinity, nil, "positive infinity"),
      (.negativeInfinity, nil, "negative infinity"),
      (MediaTime(value: 5, timescale: 1), "b.jpg", "another timescale"),
    ]
    for (time, expected, why) in cases {
      XCTAssertEqual(
        track.thumbnail(at: time)?.imageURL.lastPathComponent, expected, "\(time): \(why)")
      XCTAssertEqual(track.cue(at: time)?.reference, track.thumbnail(at: time), "\(time)")
    }
    XCTAssertEqual(track.cue(at: seconds(11))?.start, seconds(5))
    XCTAssertEqual(track.cue(at: seconds(11))?.end, seconds(10))
  }

  func testLookup_cuesOutOfOrder_areSortedStably() throws {
    let track = try track(
      """
      WEBVTT

      00:04.000 --> 00:06.000
      late.jpg

      00:00.000 --> 00:02.000
      early.jpg

      00:04.000 --> 00:05.000
      late-second.jpg
      """)
    XCTAssertEqual(
      track.thumbnails.map(\.reference.imageURL.lastPathComponent),
      ["early.jpg", "late.jpg", "late-second.jpg"])
    XCTAssertEqual(track.thumbnail(at: seconds(1))?.imageURL.lastPathComponent, "early.jpg")
    XCTAssertEqual(track.thumbnail(at: seconds(3))?.imageURL.lastPathComponent, "early.jpg")
    // Equal starts: the later in file order wins.
    XCTAssertEqual(track.thumbnail(at: seconds(4))?.imageURL.lastPathComponent, "late-second.jpg")
    XCTAssertEqual(track.thumbnail(at: seconds(5.5))?.imageURL.lastPathComponent, "late-second.jpg")
  }

  func testEmptyTrack_givesNilEverywhere() throws {
    let track = try track("WEBVTT\n")
    XCTAssertTrue(track.thumbnails.isEmpty)
    XCTAssertNil(track.thumbnail(at: .zero))
    XCTAssertFalse(track.end.isNumeric)
  }

  func testManyCues_lookupFindsTheExpectedCueEverywhere() throws {
    var text = "WEBVTT\n\n"
    for index in 0..<500 {
      let start = Double(index) * 2
      let end = start + (index % 3 == 0 ? 1 : 2)
      text += "\(WebVTTTime.text(start)) --> \(WebVTTTime.text(end))\nt\(index).jpg\n\n"
    }
    let track = try track(text)
    for step in 0..<2100 {
      let time = Double(step) * 0.5
      let expected: String? =
        time < 1000 ? "t\(Int(time / 2)).jpg" : nil
      XCTAssertEqual(
        track.thumbnail(at: seconds(time))?.imageURL.lastPathComponent, expected, "\(time)")
    }
  }

  func testRelativeURLs_resolveAgainstTheTrackURL() throws {
    let track = try track(
      """
      WEBVTT

      00:00.000 --> 00:01.000
      sprites/sheet-1.jpg#xywh=0,0,160,90

      00:01.000 --> 00:02.000
      ../other/whole.png

      00:02.000 --> 00:03.000
      /root.jpg?token=a%20b

      00:03.000 --> 00:04.000
      https://images.example.org/abs.jpg#xywh=pixel:160,90,160,90

      00:04.000 --> 00:05.000
        padded.jpg#xywh=percent:50,0,50,100\u{20}\u{20}
      """)
    XCTAssertEqual(track.warnings, [])
    let references = track.thumbnails.map(\.reference)
    XCTAssertEqual(
      references.map(\.imageURL.absoluteString),
      [
        "https://cdn.example.com/videos/v1/sprites/sheet-1.jpg",
        "https://cdn.example.com/videos/other/whole.png",
        "https://cdn.example.com/root.jpg?token=a%20b",
        "https://images.example.org/abs.jpg",
        "https://cdn.example.com/videos/v1/padded.jpg",
      ])
    XCTAssertEqual(
      references.map(\.region),
      [
        ThumbnailRegion(x: 0, y: 0, width: 160, height: 90), nil, nil,
        ThumbnailRegion(x: 160, y: 90, width: 160, height: 90),
        ThumbnailRegion(x: 50, y: 0, width: 50, height: 100, unit: .percent),
      ])
    XCTAssertEqual(
      references[0].description,
      "https://cdn.example.com/videos/v1/sprites/sheet-1.jpg#xywh=0,0,160,90")
  }

  func testBadCues_becomeHolesWithWarnings_notCrashes() throws {
    let track = try track(
      """
      WEBVTT

      00:00.000 --> 00:01.000
      good.jpg

      00:01.000 --> 00:02.000
      bad.jpg#xywh=1,2,3

      00:02.000 --> 00:03.000
      file:///etc/passwd

      00:03.000 --> 00:04.000

      00:04.000 --> 00:05.000
      one.jpg
      two.jpg

      00:05.000 --> 00:06.000
      has space.jpg

      00:06.000 --> 00:07.000
      after.jpg
      """)
    XCTAssertEqual(
      track.thumbnails.map(\.reference.imageURL.lastPathComponent), ["good.jpg", "after.jpg"])
    XCTAssertEqual(track.warnings.count, 5, "\(track.warnings)")
    XCTAssertTrue(track.warnings[0].hasPrefix("cue at 00:00:01.000: xywh needs four numbers"))
    XCTAssertTrue(track.warnings[1].contains("scheme 'file'"), track.warnings[1])
    XCTAssertTrue(track.warnings[2].contains("no image URL"), track.warnings[2])
    XCTAssertTrue(track.warnings[3].contains("2 lines"), track.warnings[3])
    XCTAssertTrue(track.warnings[4].contains("not a URL"), track.warnings[4])
    // A hole gives nil over its span (not the previous thumbnail).
    XCTAssertEqual(track.thumbnail(at: seconds(0.5))?.imageURL.lastPathComponent, "good.jpg")
    for time in [1.0, 1.5, 2.5, 3.5, 4.5, 5.5] {
      XCTAssertNil(track.thumbnail(at: seconds(time)), "\(time)")
    }
    XCTAssertEqual(track.thumbnail(at: seconds(6.5))?.imageURL.lastPathComponent, "after.jpg")
  }

  func testLocalTrack_mayNameLocalImages_networkTrackMayNot() throws {
    let text = "WEBVTT\n\n00:00.000 --> 00:01.000\nfile:///tmp/a.jpg\n"
    let local = try track(text, url: URL(fileURLWithPath: "/tmp/t.vtt"))
    XCTAssertEqual(local.thumbnails.first?.reference.imageURL.path, "/tmp/a.jpg")
    let remote = try track(text)
    XCTAssertTrue(remote.thumbnails.isEmpty)
    XCTAssertEqual(remote.warnings.count, 1)
    let relativeLocal = try track(
      "WEBVTT\n\n00:00.000 --> 00:01.000\nsheet.png#xywh=1,1,2,2\n",
      url: URL(fileURLWithPath: "/data/out/thumbnails.vtt"))
    XCTAssertEqual(relativeLocal.thumbnails.first?.reference.imageURL.path, "/data/out/sheet.png")
    XCTAssertEqual(ThumbnailTrack.allowedImageSchemes(forTrackURL: base), ["http", "https"])
  }

  func testNotWebVTT_throwsUnsupportedFormat() {
    for text in ["", "1\n00:00:00,000 --> 00:00:01,000\na.jpg\n", "<html></html>"] {
      XCTAssertThrowsError(try track(text)) { error in
        XCTAssertEqual((error as? PlayheadError)?.code, .unsupportedFormat)
        XCTAssertEqual((error as? PlayheadError)?.url, self.base)
      }
    }
  }

  func testParserWarnings_areKept() throws {
    let track = try track(
      "WEBVTT\n\n00:00.000 --> 00:0x.000\nbroken.jpg\n\n00:01.000 --> 00:02.000\nok.jpg\n")
    XCTAssertEqual(track.thumbnails.count, 1)
    XCTAssertEqual(track.warnings.count, 1)
    XCTAssertTrue(track.warnings[0].hasPrefix("line 3:"), track.warnings[0])
  }
}

/// Writes seconds as a WebVTT timestamp for test input.
enum WebVTTTime {
  static func text(_ seconds: Double) -> String {
    let milliseconds = Int((seconds * 1000).rounded())
    return String(
      format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60,
      milliseconds / 1000 % 60, milliseconds % 1000)
  }
}
