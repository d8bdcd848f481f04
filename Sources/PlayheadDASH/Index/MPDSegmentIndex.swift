import PlayheadCore

/// The segments an ISO BMFF `sidx` box (ISO/IEC 14496-12 8.16.3) lists, flattened: where
/// each lies in the media file and when it plays, for `SegmentBase` addressing.
///
/// A hierarchical index (references of type 1, to further `sidx` boxes) is resolved when
/// the bytes of the boxes it points to were given; `parse` asks for more otherwise.
public struct MPDSegmentIndex: Sendable, Hashable {
  /// One media subsegment.
  public struct Entry: Sendable, Hashable {
    /// Its bytes in the media file.
    public var range: ByteRange
    /// Its earliest presentation time, in `timescale` units (the media's time, before any
    /// `presentationTimeOffset`).
    public var time: Int64
    /// Its duration, in `timescale` units.
    public var duration: Int64
    /// The timescale of the `sidx` that lists it.
    public var timescale: Int64
    /// `starts_with_SAP`: whether it starts with a stream access point.
    public var startsWithSAP: Bool
  }

  /// The outcome of `parse`.
  public enum Parsed: Sendable, Hashable {
    /// The index, complete.
    case index(MPDSegmentIndex)
    /// The bytes given end before the index does: call `parse` again with bytes from the
    /// same offset through at least `through` (exclusive; a file offset). The caller bounds
    /// how far it lets this go (a hostile box may claim any size).
    case needsBytes(through: Int64)
  }

  /// The media subsegments in order.
  public var entries: [Entry]
  /// Where the top `sidx` box lies in the file.
  public var boxRange: ByteRange

  public init(entries: [Entry], boxRange: ByteRange) {
    self.entries = entries
    self.boxRange = boxRange
  }

  /// Reads the first `sidx` box in `data`, bytes of the media file from file offset
  /// `offset` (the start of `@indexRange`, or of a guessed range).
  ///
  /// Boxes before the `sidx` (`styp`, `free`, a whole `moov` when the range was guessed)
  /// are skipped. Byte ranges are file offsets: the first subsegment starts `first_offset`
  /// bytes after the `sidx` box's end. Versions 0 and 1 are read. Malformed boxes (a size
  /// below its header, a reference count the box cannot hold, a zero timescale, a
  /// subsegment of no bytes, values past 64 bits, an index nested deeper than `maxDepth`)
  /// throw an `MPDError` whose path is `sidx`; work is linear in `data`.
  public static func parse(_ data: some Collection<UInt8>, offset: Int64, maxDepth: Int = 8)
    throws(MPDError) -> Parsed
  {
    let reader = SIDXReader(bytes: Array(data), offset: Int128(offset), maxDepth: maxDepth)
    return try reader.parseFirst()
  }
}
