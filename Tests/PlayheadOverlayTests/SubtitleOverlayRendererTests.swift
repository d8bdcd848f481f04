import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadOverlay
import PlayheadText
import XCTest

/// Cues drawn with libass (SPEC K8): placement from the WebVTT settings, styles, outline,
/// right-to-left and CJK text, and compositing onto a picture. Pictures are 640 x 360.
final class SubtitleOverlayRendererTests: XCTestCase {
  private let width = 640
  private let height = 360

  private func cue(_ text: String, _ settings: String = "") throws -> WebVTTCue {
    let document = try WebVTTParser.parse(
      "WEBVTT\n\n00:00.000 --> 00:05.000 \(settings)\n\(text)\n")
    return try XCTUnwrap(document.cues.first)
  }

  private func draw(_ cues: [WebVTTCue]) throws -> SubtitleOverlay {
    try SubtitleOverlayRenderer().overlay(for: cues, width: width, height: height)
  }

  /// The box of the bright, opaque pixels (the glyphs, not their outline).
  private func glyphBox(_ overlay: SubtitleOverlay) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)?
  {
    var box: (Int, Int, Int, Int)?
    for y in 0..<overlay.image.height {
      for x in 0..<overlay.image.width {
        let pixel = overlay.image.pixel(x: x, y: y)
        guard pixel.a > 200, pixel.r > 200, pixel.g > 200, pixel.b > 200 else { continue }
        box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
      }
    }
    return box.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
  }

  func testAPlainCue_sitsCentredAboveTheBottom_withADarkOutline() throws {
    let overlay = try draw([try cue("Hello, world")])
    let box = try XCTUnwrap(glyphBox(overlay), "white text was drawn")
    XCTAssertGreaterThan(box.minY, height / 2, "in the lower half")
    XCTAssertLessThan(box.maxY, height - Int(0.06 * Double(height)), "above the bottom margin")
    XCTAssertEqual(Double(box.minX + box.maxX) / 2, Double(width) / 2, accuracy: 8, "centred")
    XCTAssertEqual(Double(box.maxY - box.minY), 0.0533 * Double(height), accuracy: 10)
    var outline = 0
    for y in box.minY...box.maxY {
      for x in box.minX...box.maxX {
        let pixel = overlay.image.pixel(x: x, y: y)
        if pixel.a > 200 && pixel.r < 40 { outline += 1 }
      }
    }
    XCTAssertGreaterThan(outline, 50, "a black outline around the glyphs")
    XCTAssertEqual(overlay.image.pixel(x: 10, y: 10).a, 0, "transparent elsewhere")
    let bounds = try XCTUnwrap(overlay.bounds)
    XCTAssertLessThanOrEqual(bounds.x, box.minX)
    XCTAssertGreaterThanOrEqual(bounds.x + bounds.width, box.maxX)
  }

  func testLineAndPosition_placeTheCue() throws {
    let top = try XCTUnwrap(glyphBox(try draw([try cue("Top", "line:0")])))
    XCTAssertLessThan(top.maxY, height / 4, "line 0 is the first line from the top")
    let middle = try XCTUnwrap(
      glyphBox(try draw([try cue("Middle", "line:50% line-align:center")])))
    XCTAssertEqual(Double(middle.minY + middle.maxY) / 2, Double(height) / 2, accuracy: 12)
    let lastLine = try XCTUnwrap(glyphBox(try draw([try cue("Last", "line:-1")])))
    XCTAssertGreaterThan(lastLine.maxY, height - 40, "line -1 is the last line")
    let left = try XCTUnwrap(
      glyphBox(try draw([try cue("Left", "position:10% align:left size:50%")])))
    XCTAssertEqual(left.minX, 64, accuracy: 8, "the box starts at 10 %")
    let right = try XCTUnwrap(
      glyphBox(try draw([try cue("Right", "position:90% line-right align:right size:40%")])))
    XCTAssertEqual(right.maxX, 576, accuracy: 8, "the box ends at 90 %")
  }

  func testStyles_changeTheGlyphs_andBracesAndBackslashesAreText() throws {
    let plain = try draw([try cue("Styled text")])
    let italic = try draw([try cue("<i>Styled text</i>")])
    let bold = try draw([try cue("<b>Styled text</b>")])
    XCTAssertNotEqual(plain.image, italic.image)
    let plainBox = try XCTUnwrap(glyphBox(plain))
    let boldBox = try XCTUnwrap(glyphBox(bold))
    XCTAssertGreaterThan(
      boldBox.maxX - boldBox.minX, plainBox.maxX - plainBox.minX, "bold is wider")
    let escaped = try XCTUnwrap(glyphBox(try draw([try cue("{\\i1}x\\N")])))
    let literal = try XCTUnwrap(glyphBox(try draw([try cue("x")])))
    XCTAssertGreaterThan(
      escaped.maxX - escaped.minX, 3 * (literal.maxX - literal.minX),
      "ASS markup in the text is drawn, not obeyed")
  }

  func testTwoLines_andTwoCues_stack() throws {
    let one = try XCTUnwrap(glyphBox(try draw([try cue("One")])))
    let two = try XCTUnwrap(glyphBox(try draw([try cue("One\nTwo")])))
    XCTAssertGreaterThan(two.maxY - two.minY, (one.maxY - one.minY) * 2)
    let stacked = try XCTUnwrap(glyphBox(try draw([try cue("First"), try cue("Second")])))
    XCTAssertGreaterThan(stacked.maxY - stacked.minY, (one.maxY - one.minY) * 2, "no overlap")
  }

  func testRightToLeftText_startsAtTheRight_andLeftToRightAtTheLeft() throws {
    let hebrew = try XCTUnwrap(glyphBox(try draw([try cue("שלום עולם", "align:start")])))
    let english = try XCTUnwrap(glyphBox(try draw([try cue("Hello world", "align:start")])))
    XCTAssertGreaterThan(hebrew.maxX, width - 40, "Hebrew starts at the right")
    XCTAssertLessThan(english.minX, 40, "English starts at the left")
    let arabic = try draw([try cue("مرحبا بالعالم")])
    XCTAssertNotNil(glyphBox(arabic), "Arabic is drawn")
  }

  func testCJKText_isDrawnWithAFontThatHasIt() throws {
    // DejaVu Sans has no CJK glyphs: they come from another installed font (Debian's
    // fonts-droid-fallback, installed by scripts/install-deps.sh). Missing glyphs would all
    // be the same box, so two different strings would draw the same.
    let first = try draw([try cue("字幕测试")])
    let second = try draw([try cue("日本語の字")])
    XCTAssertNotNil(glyphBox(first))
    XCTAssertNotEqual(first.image, second.image, "real glyphs, not the same missing-glyph box")
  }

  func testNoCues_drawNothing_theSameCuesAreDrawnOnce_andBurningComposites() throws {
    let renderer = try SubtitleOverlayRenderer()
    let empty = try renderer.overlay(for: [], width: width, height: height)
    XCTAssertTrue(empty.isEmpty)
    XCTAssertNil(empty.bounds)
    let cues = [try cue("Burned")]
    let first = try renderer.overlay(for: cues, width: width, height: height)
    XCTAssertEqual(try renderer.overlay(for: cues, width: width, height: height), first)
    var picture = RGBAImage(
      width: width, height: height, color: RGBAColor(r: 0, g: 0, b: 255, a: 255))
    try renderer.draw(cues, onto: &picture)
    let box = try XCTUnwrap(glyphBox(first))
    let centre = picture.pixel(x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2)
    XCTAssertEqual(picture.pixel(x: 5, y: 5).b, 255, "the picture shows elsewhere")
    var whitePixels = 0
    for y in box.minY...box.maxY {
      for x in box.minX...box.maxX where picture.pixel(x: x, y: y).r > 200 { whitePixels += 1 }
    }
    XCTAssertGreaterThan(whitePixels, 100, "the text is on the picture (centre \(centre))")
    let small = try renderer.overlay(for: cues, width: 320, height: 180)
    XCTAssertEqual(small.image.width, 320)
    XCTAssertNotNil(small.bounds)
  }
}
