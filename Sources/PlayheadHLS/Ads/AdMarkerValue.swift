import Foundation
import PlayheadCore

/// The typed reading of an ad marker's value (see `AdMarker`).
///
/// Attribute names are matched ignoring case (`ElapsedTime`, `ELAPSEDTIME`), since
/// packagers disagree; unknown attributes are ignored.
struct AdMarkerValue {
  var duration: MediaTime?
  var elapsedTime: MediaTime?
  var scte35Text: String?
  var problem: String?

  init(_ marker: AdMarker) {
    guard let value = marker.value else { return }
    self = ParserContext.withBytes(of: value) { text in
      Self(kind: marker.kind, text: text, span: text.trimmed(ByteSpan(0, text.bytes.count)))
    }
  }

  private init(kind: AdMarker.Kind, text: ByteText, span: ByteSpan) {
    guard !span.isEmpty else { return }
    switch kind {
    case .cueOut:
      if let number = text.decimalTime(span) {
        duration = number
      } else {
        readAttributes(text, span, durationName: "DURATION", elapsedName: nil, cueName: "SCTE35")
      }
    case .cueOutCont:
      if text.firstIndex(of: UInt8(ascii: "="), in: span) == nil {
        readSlashForm(text, span)
      } else {
        readAttributes(
          text, span, durationName: "DURATION", elapsedName: "ELAPSEDTIME", cueName: "SCTE35")
      }
    case .cueIn:
      return
    case .oatclsSCTE35:
      scte35Text = text.string(span)
    case .scte35:
      readAttributes(text, span, durationName: "DURATION", elapsedName: "ELAPSED", cueName: "CUE")
    }
    if problem == nil, let cue = scte35Text, SCTE35Text.bytes(cue) == nil {
      problem = "the SCTE-35 section '\(ParserContext.excerpt(cue))' is neither base64 nor 0x hex"
      scte35Text = nil
    }
  }

  /// `elapsed/duration`, as some packagers write `EXT-X-CUE-OUT-CONT`.
  private mutating func readSlashForm(_ text: ByteText, _ span: ByteSpan) {
    guard let slash = text.firstIndex(of: UInt8(ascii: "/"), in: span),
      let elapsed = text.decimalTime(text.trimmed(ByteSpan(span.start, slash))),
      let total = text.decimalTime(text.trimmed(ByteSpan(slash + 1, span.end)))
    else {
      problem =
        "'\(ParserContext.excerpt(text.string(span)))' is neither an attribute list nor elapsed/duration"
      return
    }
    elapsedTime = elapsed
    duration = total
  }

  private mutating func readAttributes(
    _ text: ByteText, _ span: ByteSpan, durationName: StaticString, elapsedName: StaticString?,
    cueName: StaticString
  ) {
    let list = AttributeList(text, span)
    if list.malformed || list.entries.isEmpty {
      problem =
        "'\(ParserContext.excerpt(text.string(span)))' is neither a number nor an attribute list"
    }
    for entry in list.entries {
      if text.equalsIgnoringCase(entry.name, durationName) {
        duration = time(text, entry, named: durationName)
      } else if let elapsedName, text.equalsIgnoringCase(entry.name, elapsedName) {
        elapsedTime = time(text, entry, named: elapsedName)
      } else if text.equalsIgnoringCase(entry.name, cueName) {
        scte35Text = text.string(entry.value)
      }
    }
  }

  private mutating func time(_ text: ByteText, _ entry: AttributeList.Entry, named: StaticString)
    -> MediaTime?
  {
    if let time = text.decimalTime(entry.value) { return time }
    problem =
      "\(named) '\(ParserContext.excerpt(text.string(entry.value)))' is not a decimal number"
    return nil
  }
}
