import PlayheadCore
import PlayheadText
import XCTest

/// `WebVTTCue.textRuns`: the payload split into runs of bold, italic and underline.
final class WebVTTTextRunTests: XCTestCase {
  private func runs(_ text: String) -> [WebVTTTextRun] {
    WebVTTCue(start: .zero, end: MediaTime(value: 1, timescale: 1), text: text).textRuns
  }

  func testNestedStyles_andOtherTagsRemoved() {
    XCTAssertEqual(
      runs("<v Roger>Plain <b>bold <i>both</i></b> <c.loud>&amp; <u>under</u></c>"),
      [
        WebVTTTextRun(text: "Plain "),
        WebVTTTextRun(text: "bold ", isBold: true),
        WebVTTTextRun(text: "both", isBold: true, isItalic: true),
        WebVTTTextRun(text: " & "),
        WebVTTTextRun(text: "under", isUnderlined: true),
      ])
  }

  func testUnclosedTags_runToTheEnd_andStrayEndTagsAreHarmless() {
    XCTAssertEqual(
      runs("</b>a<i>b\nc"),
      [WebVTTTextRun(text: "a"), WebVTTTextRun(text: "b\nc", isItalic: true)])
    XCTAssertEqual(runs("<i></i><b></b>"), [])
  }

  func testRunsJoined_equalThePlainText() {
    for text in ["<i>a</i>b<00:00:01.000>c", "x &lt;y&gt; <ruby>z<rt>w</rt></ruby>", "<b"] {
      let cue = WebVTTCue(start: .zero, end: MediaTime(value: 1, timescale: 1), text: text)
      XCTAssertEqual(cue.textRuns.map(\.text).joined(), cue.plainText, text)
    }
  }
}
