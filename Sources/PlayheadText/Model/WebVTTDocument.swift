import PlayheadCore

/// A parsed WebVTT file: its header, regions, style sheets and cues, and the warnings
/// found while parsing it.
///
/// Comments (`NOTE` blocks) are not kept. Cues are in file order, which WebVTT requires to
/// be by start time (a cue out of order is kept, with a warning).
///
/// ```swift
/// let document = try WebVTTParser.parse(data)
/// for cue in document.cues { print(cue.start.seconds, cue.plainText) }
/// ```
public struct WebVTTDocument: Sendable, Equatable {
  /// The text after `WEBVTT` on the first line, without surrounding white space; empty
  /// when there is none.
  public let header: String
  /// The other lines of the header (from the second line to the first blank line), in
  /// order, without the `X-TIMESTAMP-MAP` line that `timestampMap` holds. Legacy
  /// metadata such as `Kind: captions` ends up here.
  public let headerLines: [String]
  /// The `X-TIMESTAMP-MAP` of an HLS WebVTT segment; nil when absent or malformed.
  public let timestampMap: WebVTTTimestampMap?
  /// The `REGION` blocks, in order, with unique identifiers.
  public let regions: [WebVTTRegion]
  /// The CSS text of each `STYLE` block (the lines after `STYLE`, joined with line feeds),
  /// in order. The CSS is not parsed.
  public let styles: [String]
  /// The cues, in file order.
  public let cues: [WebVTTCue]
  /// The recoverable oddities found while parsing, in line order; at most 1,000, plus one
  /// that counts the rest.
  public let warnings: [WebVTTWarning]

  public init(
    header: String = "", headerLines: [String] = [], timestampMap: WebVTTTimestampMap? = nil,
    regions: [WebVTTRegion] = [], styles: [String] = [], cues: [WebVTTCue] = [],
    warnings: [WebVTTWarning] = []
  ) {
    self.header = header
    self.headerLines = headerLines
    self.timestampMap = timestampMap
    self.regions = regions
    self.styles = styles
    self.cues = cues
    self.warnings = warnings
  }

  /// The same document without its warnings.
  ///
  /// Warnings describe the text a document was parsed from, not the document, so
  /// round-trip comparisons (`parse(write(d))` against `d`) compare documents without them.
  public var withoutWarnings: WebVTTDocument {
    WebVTTDocument(
      header: header, headerLines: headerLines, timestampMap: timestampMap, regions: regions,
      styles: styles, cues: cues)
  }

  /// The region named `id`, or nil.
  public func region(id: String) -> WebVTTRegion? {
    regions.first { $0.id == id }
  }

  /// The cues with their times moved to the media timeline by `timestampMap` (see
  /// `WebVTTTimestampMap.mediaTime(forCueTime:near:)`); the cues unchanged when the
  /// document has no map.
  ///
  /// `reference` is a media time near the segment, used to unwrap the 33-bit MPEG-2
  /// timestamp; nil takes it as written. Moved times have timescale 90,000.
  public func cuesOnMediaTimeline(near reference: MediaTime? = nil) -> [WebVTTCue] {
    guard let timestampMap else { return cues }
    let offset = timestampMap.offset(near: reference)
    return cues.map { cue in
      WebVTTCue(
        identifier: cue.identifier, start: cue.start + offset, end: cue.end + offset,
        settings: cue.settings, text: cue.text)
    }
  }
}
