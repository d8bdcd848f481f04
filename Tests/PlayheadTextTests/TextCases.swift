import Foundation
import PlayheadCore
import PlayheadText
import XCTest

/// Cue payloads: the plain-text rendering and the voice.
enum TextCases {
  /// A case whose only cue's payload `payload` renders as `plain`, with voice `voice`.
  static func text(_ name: String, _ payload: String, _ plain: String, voice: String? = nil)
    -> WebVTTCase
  {
    WebVTTCase(
      name, vtt("00:01.000 --> 00:02.000\n" + payload + "\n"),
      .parses { document in
        let cue = try onlyCue(document)
        XCTAssertEqual(cue.text, payload, name)
        XCTAssertEqual(cue.plainText, plain, name)
        XCTAssertEqual(cue.voice, voice, name)
      })
  }

  static let all: [WebVTTCase] = [
    text("text_plain", "Hello, world", "Hello, world"),
    text("text_boldItalicUnderline", "<b>bold</b> <i>it</i> <u>under</u>", "bold it under"),
    text("text_classSpan", "<c.yellow.bg_blue>warning</c>", "warning"),
    text(
      "text_voice", "<v Roger Bingham>We are in New York City", "We are in New York City",
      voice: "Roger Bingham"),
    text(
      "text_voiceWithClass", "<v.loud Esme>It's a blue apple tree!</v>", "It's a blue apple tree!",
      voice: "Esme"),
    text("text_voiceWhiteSpaceCollapsed", "<v   Mary \t Ann  >Hi", "Hi", voice: "Mary Ann"),
    text("text_voiceWithReference", "<v Tom &amp; Jerry>Run", "Run", voice: "Tom & Jerry"),
    text("text_firstVoiceWins", "<v A>one</v>\n<v B>two", "one\ntwo", voice: "A"),
    text("text_voiceWithoutName_isNil", "<v>nobody", "nobody"),
    text("text_lang", "<lang en-GB>colour</lang>", "colour"),
    text("text_ruby", "<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>", "漢kan字ji"),
    text("text_timestampTags", "Never <00:00:01.500>drink <00:01.800>liquid", "Never drink liquid"),
    text("text_entities", "&amp; &lt;b&gt; &quot;q&quot; &apos;", "& <b> \"q\" '"),
    text("text_directionAndSpaceEntities", "a&lrm;b&rlm;c&nbsp;d", "a\u{200E}b\u{200F}c\u{00A0}d"),
    text("text_numericEntities", "&#233;&#xE9;&#X1F600;", "éé😀"),
    text("text_invalidNumericEntities", "&#0;&#xD800;&#x110000;", "\u{FFFD}\u{FFFD}\u{FFFD}"),
    text("text_unknownEntity_keptAsWritten", "&copy; & &amp &;", "&copy; & &amp &;"),
    text("text_unclosedTag_runsToEnd", "visible <b unclosed", "visible "),
    text("text_lessThanAlone_startsTag", "1 < 2 > 0", "1  0"),
    text("text_unknownTag_isRemoved", "<font color=red>red</font>", "red"),
    text("text_multiLine", "<i>line one</i>\nline two", "line one\nline two"),
  ]
}
