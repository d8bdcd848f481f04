import PlayheadCore

/// Server-side ad marker tags (`EXT-X-CUE-OUT` and its kin).
extension MediaPlaylistBuilder {
  /// Keeps an ad marker where it stands, warning when its value cannot be read.
  ///
  /// A marker never fails the playlist: a malformed value is kept as written (the writer
  /// puts it back) with a warning. Their number is bounded by `maxSegments`.
  mutating func readAdMarker(_ tag: TagName, value: ByteSpan, line: ByteSpan)
    throws(PlaylistParseError)
  {
    guard playlist.adMarkers.count < context.limits.maxSegments else {
      throw context.error(.limitExceeded, "more than \(context.limits.maxSegments) ad markers")
    }
    let kind: AdMarker.Kind
    switch tag {
    case .cueOut: kind = .cueOut
    case .cueOutCont: kind = .cueOutCont
    case .cueIn: kind = .cueIn
    case .oatclsSCTE35: kind = .oatclsSCTE35
    default: kind = .scte35
    }
    // `value` is empty both for `#TAG` and `#TAG:`; the byte before it tells them apart.
    let hasColon = value.start > line.start && text.bytes[value.start - 1] == UInt8(ascii: ":")
    let marker = AdMarker(
      kind: kind, value: hasColon ? text.string(value) : nil, position: playlist.segments.count)
    if let problem = marker.problem {
      context.warn("\(tag.name) \(problem); kept as written")
    }
    playlist.adMarkers.append(marker)
  }
}
