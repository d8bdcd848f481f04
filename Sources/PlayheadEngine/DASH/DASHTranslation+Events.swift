import Foundation
import PlayheadCore
import PlayheadDASH
import PlayheadHLS

extension DASHTranslation {
  /// The instant presentation time 0 stands for in the translated playlists' program
  /// date-times: the MPD's `availabilityStartTime`, else the Unix epoch (a VOD MPD has no
  /// wall clock; the dates only place events on the timeline).
  var presentationEpoch: Date { mpd.availabilityStartTime ?? Date(timeIntervalSince1970: 0) }

  /// The SCTE-35 events of the Periods `periods` (`EventStream` with a
  /// `urn:scte:scte35:…` scheme) as `EXT-X-DATERANGE`s, which the engine turns into the
  /// item's server-side ad periods as it does an HLS playlist's: each starts at its
  /// event's presentation time, lasts its `@duration` (else the splice's break duration),
  /// and carries the splice when the message is one (base64 or hex). Its `CLASS` is the
  /// stream's scheme, which marks it as a break.
  func adDateRanges(in periods: Set<Int>) -> [DateRange] {
    var ranges: [DateRange] = []
    for index in periods.sorted() where mpd.periods.indices.contains(index) {
      let period = mpd.periods[index]
      for stream in period.eventStreams
      where stream.schemeIDURI.lowercased().hasPrefix("urn:scte:scte35:") {
        for (position, event) in stream.events.enumerated() {
          let start = period.start + event.presentationTime
          let message = event.message.trimmingCharacters(in: .whitespacesAndNewlines)
          let splice =
            message.isEmpty || (try? SpliceInfoSection(text: message)) == nil ? nil : message
          ranges.append(
            DateRange(
              id: "dash-\(period.id ?? String(index))-\(event.id ?? String(position))",
              classValue: stream.schemeIDURI,
              startDate: presentationEpoch.addingTimeInterval(start.seconds),
              duration: event.duration, scte35Out: splice, position: 0))
        }
      }
    }
    return ranges
  }
}
