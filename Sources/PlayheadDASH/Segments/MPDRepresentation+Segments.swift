import Foundation
import PlayheadCore

extension MPDRepresentation {
  /// The initialization segment, when there is one.
  public var initialization: MPDURLRange? {
    switch addressing {
    case .unusable: return nil
    case .base(let base): return base.initialization
    case .list(let list): return list.initialization
    case .template(let template):
      guard let initialization = template.initialization, let baseURL else { return nil }
      let text = initialization.expand(representationID: id, bandwidth: bandwidth)
      return Self.resolve(text, against: baseURL).map { MPDURLRange(url: $0, range: nil) }
    }
  }

  /// The media segments of this Representation in `period`, in order, each with its URL
  /// and its place on the presentation timeline, as an array of at most `maxCount` (an
  /// MPD can describe billions in a few bytes: walk `segmentSequence(in:)` instead when
  /// the count is not bounded by what you asked for). Segments addressed by `@duration`
  /// need the Period's duration (a live Period's depend on the clock and give none here);
  /// `SegmentBase` gives none (its segments are in the `sidx`).
  public func segments(in period: MPDPeriod, maxCount: Int = 1_000_000) -> [MPDSegmentReference] {
    Array(segmentSequence(in: period).prefix(maxCount))
  }

  /// How many segments `segmentSequence(in:)` has, worked out without listing them; nil
  /// past `limit`.
  public func segmentCount(in period: MPDPeriod, limit: Int) -> Int? {
    switch addressing {
    case .base, .unusable: return 0
    case .list(let list):
      return list.segments.count <= limit ? Array(segmentSequence(in: period)).count : nil
    case .template(let template):
      if let timeline = template.timeline {
        let end = period.duration.map {
          template.presentationTimeOffset + Self.units($0, template.timescale)
        }
        return timeline.count(until: end, limit: Int64(limit)).map { Int($0) }
      }
      guard let duration = template.duration, duration > 0, let length = period.duration else {
        return 0
      }
      let count = (Self.units(length, template.timescale) + duration - 1) / duration
      return count <= Int64(limit) ? Int(count) : nil
    }
  }

  /// The media segments of this Representation in `period`, walked lazily: a timeline of
  /// millions of segments costs no memory.
  public func segmentSequence(in period: MPDPeriod) -> AnySequence<MPDSegmentReference> {
    guard let baseURL else { return AnySequence([]) }
    switch addressing {
    case .base, .unusable:
      return AnySequence([])
    case .template(let template):
      let timescale = template.timescale
      let offset = template.presentationTimeOffset
      func reference(time: Int64, duration: Int64, number: Int64) -> MPDSegmentReference? {
        let text = template.media.expand(
          representationID: id, bandwidth: bandwidth, number: number, time: time)
        guard let url = Self.resolve(text, against: baseURL) else { return nil }
        return MPDSegmentReference(
          url: url, range: nil, number: number,
          start: period.start + Self.time(time - offset, timescale),
          duration: Self.time(duration, timescale), time: time)
      }
      if let timeline = template.timeline {
        let end = period.duration.map { offset + Self.units($0, timescale) }
        return AnySequence(
          timeline.segments(startNumber: template.startNumber, until: end).lazy.compactMap {
            reference(time: $0.time, duration: $0.duration, number: $0.number)
          })
      }
      guard let duration = template.duration, duration > 0, let length = period.duration else {
        return AnySequence([])
      }
      let total = Self.units(length, timescale)
      let count = (total + duration - 1) / duration
      return AnySequence(
        (0..<count).lazy.compactMap { index in
          reference(
            time: offset + index * duration, duration: duration,
            number: template.startNumber + index)
        })
    case .list(let list):
      let timescale = list.timescale
      let offset = list.presentationTimeOffset
      var times: [(time: Int64, duration: Int64)] = []
      if let timeline = list.timeline {
        times = timeline.segments(startNumber: list.startNumber).prefix(list.segments.count).map {
          ($0.time, $0.duration)
        }
      } else if let duration = list.duration {
        times = list.segments.indices.map { (offset + Int64($0) * duration, duration) }
      } else if let length = period.duration {
        times = [(offset, Self.units(length, timescale))]
      }
      return AnySequence(
        zip(list.segments, times).enumerated().map { index, pair in
          MPDSegmentReference(
            url: pair.0.url, range: pair.0.range, number: list.startNumber + Int64(index),
            start: period.start + Self.time(pair.1.time - offset, timescale),
            duration: Self.time(pair.1.duration, timescale), time: pair.1.time)
        })
    }
  }

  /// A template's expansion resolved against `base`. Text that is not a URL as written (a
  /// space, a `:` in its first segment that would read as a scheme) is percent-encoded and
  /// kept relative, so every segment gets a URL and counts agree with walks.
  static func resolve(_ text: String, against base: URL) -> URL? {
    if let url = URL(string: text, relativeTo: base)?.absoluteURL, url.scheme != nil {
      return url
    }
    var allowed = CharacterSet.urlPathAllowed
    allowed.insert(charactersIn: "?&=")
    let encoded = text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    return URL(string: "./" + encoded, relativeTo: base)?.absoluteURL
  }

  private static func time(_ units: Int64, _ timescale: Int64) -> MediaTime {
    MediaTime(value: units, timescale: Int32(clamping: timescale))
  }

  /// `time` in `timescale` units, rounded to the nearest.
  private static func units(_ time: MediaTime, _ timescale: Int64) -> Int64 {
    time.convertScale(Int32(clamping: timescale), rounding: .roundHalfAwayFromZero).value
  }
}
