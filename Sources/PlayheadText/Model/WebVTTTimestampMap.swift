import PlayheadCore

/// The `X-TIMESTAMP-MAP=MPEGTS:n,LOCAL:hh:mm:ss.mmm` header of a WebVTT segment of an
/// HLS stream (RFC 8216, section 3.5): the cue time `local` is the media time whose
/// MPEG-2 timestamp (90 kHz) is `mpegts`.
///
/// A WebVTT segment without the header maps cue time 0 to MPEG-2 timestamp 0, so its cue
/// times are media times already.
///
/// ```swift
/// // The segment plays along with video whose presentation times are near `videoPTS`.
/// let start = map.mediaTime(forCueTime: cue.start, near: videoPTS)
/// ```
public struct WebVTTTimestampMap: Sendable, Equatable {
  /// The clock rate of MPEG-2 timestamps, in ticks per second.
  public static let mpegtsTimescale: Int32 = 90_000
  /// MPEG-2 timestamps are 33-bit numbers: they wrap to 0 after 2^33 ticks (about 26.5 h).
  public static let mpegtsWrapTicks: Int64 = 1 << 33

  /// The MPEG-2 timestamp, in 90 kHz ticks, as written (normally below 2^33).
  public let mpegts: Int64
  /// The cue time that corresponds to `mpegts`, in milliseconds (timescale 1000).
  public let local: MediaTime

  public init(mpegts: Int64, local: MediaTime) {
    self.mpegts = mpegts
    self.local = local
  }

  /// `mpegts` moved by a whole number of 33-bit wraps to the value nearest
  /// `referenceTicks`, or as written when `referenceTicks` is nil.
  ///
  /// `referenceTicks` is a 90 kHz time on an unwrapped timeline (one that keeps counting
  /// past 2^33), near the segment: the presentation time of the media it plays with. Near
  /// the ends of `Int64`, the nearest value that fits is chosen.
  public func unwrappedMPEGTS(near referenceTicks: Int64?) -> Int64 {
    guard let referenceTicks else { return mpegts }
    let wrap = Int128(Self.mpegtsWrapTicks)
    let reduced = Int128(mpegts) % wrap
    let base = reduced < 0 ? reduced + wrap : reduced
    // The whole number of wraps nearest (reference - base) / wrap.
    let distance = Int128(referenceTicks) - base
    var wraps = distance / wrap
    let remainder = distance - wraps * wrap
    if remainder * 2 > wrap { wraps += 1 }
    if remainder * 2 < -wrap { wraps -= 1 }
    var result = base + wraps * wrap
    if result > Int128(Int64.max) { result -= wrap }
    if result < Int128(Int64.min) { result += wrap }
    return Int64(exactly: result) ?? mpegts
  }

  /// The amount to add to a cue time to get the media time: `mpegts / 90 kHz - local`,
  /// with `mpegts` unwrapped near `reference` (see `unwrappedMPEGTS(near:)`).
  ///
  /// `reference` is a media time near the segment (any timescale); nil, or a time that is
  /// not numeric, takes `mpegts` as written. The result has timescale 90,000 and is exact.
  public func offset(near reference: MediaTime? = nil) -> MediaTime {
    var referenceTicks: Int64?
    if let reference, reference.isNumeric {
      let ticks = reference.convertScale(Self.mpegtsTimescale)
      if ticks.isNumeric { referenceTicks = ticks.value }
    }
    let ticks = unwrappedMPEGTS(near: referenceTicks)
    return MediaTime(value: ticks, timescale: Self.mpegtsTimescale) - local
  }

  /// The media time of `cueTime`: `cueTime + offset(near: reference)`.
  ///
  /// Exact (timescale 90,000); a result beyond `Int64` saturates to an infinity, as
  /// `MediaTime` arithmetic does.
  public func mediaTime(forCueTime cueTime: MediaTime, near reference: MediaTime? = nil)
    -> MediaTime
  {
    cueTime + offset(near: reference)
  }
}
