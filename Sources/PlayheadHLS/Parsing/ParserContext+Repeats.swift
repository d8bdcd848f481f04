/// The rule for tags that may appear only once in a playlist (RFC 8216 §4.3.3, §4.3.5 and
/// §4.4.6.6): `EXT-X-VERSION`, `EXT-X-TARGETDURATION`, `EXT-X-MEDIA-SEQUENCE`,
/// `EXT-X-DISCONTINUITY-SEQUENCE`, `EXT-X-PLAYLIST-TYPE`, `EXT-X-ENDLIST`,
/// `EXT-X-I-FRAMES-ONLY`, `EXT-X-INDEPENDENT-SEGMENTS`, `EXT-X-START`, `EXT-X-PART-INF`,
/// `EXT-X-SERVER-CONTROL`, `EXT-X-SKIP` and `EXT-X-CONTENT-STEERING`.
///
/// A repeat with the same value (compared as parsed, so `5` and `05` are the same) changes
/// nothing and is a warning naming both lines; a repeat with another value is fatal
/// (`.duplicateTag`, naming both lines), since no reading of the playlist is safer than
/// another (see docs/decisions/0019-playlist-leniency-and-repeated-tags.md).
extension ParserContext {
  /// Applies the rule to `tag` with `value` (its canonical text) on the current line.
  ///
  /// Returns true for the first occurrence, which the caller then applies; false for an
  /// identical repeat (warned), which the caller ignores; throws for a conflicting one.
  mutating func firstOccurrence(of tag: TagName, value: String) throws(PlaylistParseError)
    -> Bool
  {
    guard let first = singletons[tag] else {
      singletons[tag] = (line, value)
      return true
    }
    guard first.value == value else {
      let shown = { (text: String) in text.isEmpty ? "" : " '\(Self.excerpt(text))'" }
      throw error(
        .duplicateTag,
        "\(tag.name)\(shown(value)) repeats \(tag.name)\(shown(first.value)) of line \(first.line) "
          + "with another value (the tag may appear once)")
    }
    warn("\(tag.name) repeats line \(first.line) with the same value; the repeat is ignored")
    return false
  }
}
