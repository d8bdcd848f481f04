import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadHLS

/// One stitched break being played through: a server-side ad period whose ads (from the
/// schedule's break it lines up with) follow one another inside it.
///
/// Only the controller's queue touches it (hence the unchecked `Sendable`).
final class StitchedBreakPlay: @unchecked Sendable {
  /// The timeline slot whose ads these are.
  let slot: Int
  /// The period they fill.
  let period: AdPeriod
  /// Each ad's stretch of the content timeline, in pod order, back to back from the
  /// period's start to its end.
  let spans: [Range<MediaTime>]
  /// The ad on screen; -1 before the first.
  var current = -1
  /// The tracking events sent for each ad (each goes once per play).
  var sent: [Set<AdTrackingEvent>]
  /// Whether the content was paused during the break (its `pause` went out).
  var isPaused = false
  /// The content player's boundary observer at the ads' starts and quartiles.
  var token: ObserverToken?

  init(slot: Int, period: AdPeriod, spans: [Range<MediaTime>]) {
    self.slot = slot
    self.period = period
    self.spans = spans
    sent = Array(repeating: [], count: spans.count)
  }

  /// The ads' stretches inside `period` (which has an end): each ad's duration from the
  /// document, else an even share of what is left; the last one runs to the period's end.
  static func spans(of ads: [LinearAd], in period: AdPeriod) -> [Range<MediaTime>] {
    guard let end = period.end, end > period.start, !ads.isEmpty else { return [] }
    var spans: [Range<MediaTime>] = []
    var cursor = period.start
    for (index, ad) in ads.enumerated() {
      let left = end - cursor
      let share = left.multiplied(byRatio: 1, denominator: Int64(ads.count - index))
      let length = ad.duration.map { min($0, left) } ?? share
      let stop = index == ads.count - 1 ? end : cursor + length
      spans.append(cursor..<max(cursor, stop))
      cursor = max(cursor, stop)
    }
    return spans
  }

  /// The times at which something is due: each ad's start and quartiles.
  var marks: [MediaTime] {
    spans.flatMap { span -> [MediaTime] in
      let length = span.upperBound - span.lowerBound
      return [span.lowerBound]
        + (1...3).map { span.lowerBound + length.multiplied(byRatio: Int64($0), denominator: 4) }
    }
  }
}
