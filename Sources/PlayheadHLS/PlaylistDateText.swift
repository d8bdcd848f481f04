import Foundation
import PlayheadCore

/// The ISO 8601 date-times of playlists (`EXT-X-PROGRAM-DATE-TIME`, `EXT-X-DATERANGE`).
public enum PlaylistDateText {
  /// `date` as `YYYY-MM-DDThh:mm:ss.sssZ` (UTC, milliseconds), the form the writer uses.
  public static func string(from date: Date) -> String {
    ISO8601Text.format(date)
  }

  /// The date `text` holds (`YYYY-MM-DDThh:mm:ss[.fraction][Z|±hh[:mm]]`, a missing zone
  /// read as UTC), or nil when it is not such a date-time.
  public static func date(from text: String) -> Date? {
    ParserContext.withBytes(of: text) { ISO8601Text.parse($0, ByteSpan(0, $0.bytes.count)) }
  }
}
