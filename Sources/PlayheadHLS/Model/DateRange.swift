import Foundation
import PlayheadCore

/// `EXT-X-DATERANGE`: metadata for a range of dates (ad breaks, chapters, SCTE-35).
public struct DateRange: Sendable, Equatable {
  /// `ID`: unique within the playlist.
  public var id: String
  /// `CLASS`.
  public var classValue: String?
  /// `START-DATE`, parsed.
  public var startDate: Date?
  /// `START-DATE` as written.
  public var startDateText: String?
  /// `CUE`: `PRE`, `POST` and/or `ONCE`, comma-separated.
  public var cue: String?
  /// `END-DATE`, parsed.
  public var endDate: Date?
  /// `END-DATE` as written.
  public var endDateText: String?
  /// `DURATION`, exact.
  public var duration: MediaTime?
  /// `PLANNED-DURATION`, exact.
  public var plannedDuration: MediaTime?
  /// `END-ON-NEXT=YES`.
  public var endOnNext: Bool
  /// `SCTE35-CMD` as written (`0x…`).
  public var scte35Command: String?
  /// `SCTE35-OUT` as written.
  public var scte35Out: String?
  /// `SCTE35-IN` as written.
  public var scte35In: String?
  /// `X-…` client attributes (quotes removed, variables substituted).
  public var clientAttributes: [String: String]
  /// The index of the segment the tag stands before (`segments.count` after the last).
  public var position: Int

  public init(
    id: String, classValue: String? = nil, startDate: Date? = nil, cue: String? = nil,
    endDate: Date? = nil, duration: MediaTime? = nil, plannedDuration: MediaTime? = nil,
    endOnNext: Bool = false, scte35Command: String? = nil, scte35Out: String? = nil,
    scte35In: String? = nil, clientAttributes: [String: String] = [:], position: Int = 0
  ) {
    self.id = id
    self.classValue = classValue
    self.startDate = startDate
    self.startDateText = startDate.map(ISO8601Text.format)
    self.cue = cue
    self.endDate = endDate
    self.endDateText = endDate.map(ISO8601Text.format)
    self.duration = duration
    self.plannedDuration = plannedDuration
    self.endOnNext = endOnNext
    self.scte35Command = scte35Command
    self.scte35Out = scte35Out
    self.scte35In = scte35In
    self.clientAttributes = clientAttributes
    self.position = position
  }
}
