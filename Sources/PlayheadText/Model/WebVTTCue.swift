import PlayheadCore

/// One WebVTT cue: a span of time, its settings and its text.
///
/// Times are `MediaTime`s with timescale 1000 (WebVTT timestamps are whole milliseconds).
/// `text` is the payload as written (tags and character references included);
/// `plainText` and `voice` are derived from it.
///
/// ```swift
/// for cue in document.cues where cue.start <= now && now < cue.end {
///   print(cue.voice.map { "\($0): " } ?? "", cue.plainText)
/// }
/// ```
public struct WebVTTCue: Sendable, Equatable {
  /// The cue identifier (the line before the timing line), or empty when there is none.
  public let identifier: String
  /// When the cue becomes active, in milliseconds (timescale 1000).
  public let start: MediaTime
  /// When the cue stops being active, in milliseconds (timescale 1000); never before
  /// `start` for a parsed cue (cues that end before they start are dropped with a warning),
  /// equal to it for a zero-length cue.
  public let end: MediaTime
  /// The settings after the timing (`align:start line:90%` …), as parsed.
  public let settings: WebVTTCueSettings
  /// The payload lines, joined with line feeds, exactly as written: tags such as `<b>` and
  /// `<v Speaker>` and character references such as `&amp;` are kept. Empty for a cue
  /// without payload.
  public let text: String

  public init(
    identifier: String = "", start: MediaTime, end: MediaTime,
    settings: WebVTTCueSettings = .none, text: String
  ) {
    self.identifier = identifier
    self.start = start
    self.end = end
    self.settings = settings
    self.text = text
  }

  /// The payload as plain text: every tag (`<b>`, `</i>`, `<c.class>`, `<v Speaker>`,
  /// `<lang en>`, `<ruby>`, `<rt>`, timestamps such as `<00:00:01.000>`, and unknown ones)
  /// removed and character references decoded.
  ///
  /// The references decoded are `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&lrm;` `&rlm;`
  /// `&nbsp;` (U+00A0) and numeric ones (`&#233;`, `&#xE9;`); others stay as written.
  /// Ruby text (`<rt>…</rt>`) stays in place, as in the DOM's `textContent`. A `<` without
  /// a closing `>` starts a tag that runs to the end of the text, as in the WebVTT tokenizer.
  public var plainText: String { WebVTTCueText.render(text).plainText }

  /// The name in the first voice tag (`<v Roger>` or `<v.loud Roger>` gives `Roger`), with
  /// character references decoded and runs of white space collapsed; nil when the payload
  /// has no voice tag or the tag names nobody.
  public var voice: String? { WebVTTCueText.render(text).voice }
}
