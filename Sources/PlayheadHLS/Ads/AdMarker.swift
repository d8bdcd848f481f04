import Foundation
import PlayheadCore

/// A server-side ad marker tag (`EXT-X-CUE-OUT` and its kin) kept where it stood in a
/// media playlist.
///
/// The value after the tag's colon is kept as written, so that the writer puts the tag
/// back unchanged; the typed readings (`duration`, `elapsedTime`, `scte35Text`) are read
/// from it on demand. A value the reader cannot make sense of never fails the playlist:
/// the parser warns, `problem` says why, and the typed readings are nil.
///
/// ```swift
/// let marker = playlist.adMarkers[0]   // #EXT-X-CUE-OUT:DURATION=30.000
/// marker.kind                          // .cueOut
/// marker.duration                      // 30 s, exact
/// ```
public struct AdMarker: Sendable, Hashable {
  /// Which tag the marker is.
  public enum Kind: String, Sendable, CaseIterable {
    /// `EXT-X-CUE-OUT`: a break starts at the next segment (`30`, `DURATION=30`, or bare).
    case cueOut = "EXT-X-CUE-OUT"
    /// `EXT-X-CUE-OUT-CONT`: the segment that follows is inside a break
    /// (`ElapsedTime=8,Duration=30,SCTE35=…` or `8/30`).
    case cueOutCont = "EXT-X-CUE-OUT-CONT"
    /// `EXT-X-CUE-IN`: the break ends before the next segment.
    case cueIn = "EXT-X-CUE-IN"
    /// `EXT-OATCLS-SCTE35`: a base64 SCTE-35 `splice_info_section`.
    case oatclsSCTE35 = "EXT-OATCLS-SCTE35"
    /// `EXT-X-SCTE35`: an attribute list whose `CUE` holds a base64 SCTE-35 section.
    case scte35 = "EXT-X-SCTE35"
  }

  /// Which tag the marker is.
  public var kind: Kind
  /// The text after the tag's colon, as written (trailing blanks removed); nil when the tag
  /// has no colon.
  public var value: String?
  /// The index of the segment the tag stands before (`segments.count` after the last).
  public var position: Int

  public init(kind: Kind, value: String? = nil, position: Int) {
    self.kind = kind
    self.value = value
    self.position = position
  }

  /// The tag as the writer writes it: `#`, the tag name, and `:value` when there is one.
  public var text: String {
    "#" + kind.rawValue + (value.map { ":" + $0 } ?? "")
  }

  /// The break's planned duration: `EXT-X-CUE-OUT`'s number or `DURATION`,
  /// `EXT-X-CUE-OUT-CONT`'s `Duration` (or the number after `/`), `EXT-X-SCTE35`'s
  /// `DURATION`; nil when absent or malformed, and for the other kinds.
  public var duration: MediaTime? { AdMarkerValue(self).duration }

  /// The time already spent in the break: `EXT-X-CUE-OUT-CONT`'s `ElapsedTime` (or the
  /// number before `/`), `EXT-X-SCTE35`'s `ELAPSED`; nil when absent or malformed.
  public var elapsedTime: MediaTime? { AdMarkerValue(self).elapsedTime }

  /// The SCTE-35 section as written (base64 or `0x` hex): `EXT-OATCLS-SCTE35`'s value,
  /// the `SCTE35` attribute of `EXT-X-CUE-OUT(-CONT)`, `EXT-X-SCTE35`'s `CUE`; nil when
  /// there is none. Decode it with `SpliceInfoSection(text:)`.
  public var scte35Text: String? { AdMarkerValue(self).scte35Text }

  /// Why the value could not be read, or nil when it could (or there is none to read).
  public var problem: String? { AdMarkerValue(self).problem }
}

extension MediaPlaylist {
  /// The ad markers that stand before the segment at `index`, in playlist order.
  ///
  /// `index == segments.count` gives the markers after the last segment. Binary search
  /// over `adMarkers`, which must be in position order, as the parser keeps them.
  public func adMarkers(beforeSegmentAt index: Int) -> ArraySlice<AdMarker> {
    let markers = adMarkers
    var low = 0
    var high = markers.count
    while low < high {
      let middle = (low + high) / 2
      if markers[middle].position < index { low = middle + 1 } else { high = middle }
    }
    var end = low
    while end < markers.count && markers[end].position == index { end += 1 }
    return markers[low..<end]
  }
}
