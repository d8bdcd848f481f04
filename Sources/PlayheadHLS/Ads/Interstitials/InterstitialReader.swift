import Foundation
import PlayheadCore

extension MediaPlaylist {
  /// The HLS Interstitials its `EXT-X-DATERANGE` tags schedule, with the issues found.
  ///
  /// Tags with the same `ID` are merged, the first one's values winning. An interstitial
  /// with both or neither of `X-ASSET-URI` and `X-ASSET-LIST`, or whose URI is invalid or
  /// uses a scheme other than http, https or the playlist's own, is left out with a fatal
  /// issue; a malformed `X-RESUME-OFFSET`, `X-PLAYOUT-LIMIT`, `X-SNAP`, `X-RESTRICT`,
  /// `X-TIMELINE-OCCUPIES`, `X-CONTENT-MAY-VARY` or `CUE` value is ignored with an issue.
  /// Work is linear in the number of date ranges (log-linear in the segments).
  public func interstitials() -> InterstitialList {
    var reader = InterstitialReader(self)
    return reader.run()
  }
}

/// Reads the interstitials of one playlist (see `MediaPlaylist.interstitials()`).
struct InterstitialReader {
  let playlist: MediaPlaylist
  let times: SegmentTimes
  var issues: [InterstitialIssue] = []

  init(_ playlist: MediaPlaylist) {
    self.playlist = playlist
    self.times = SegmentTimes(playlist)
  }

  mutating func run() -> InterstitialList {
    var merged: [DateRange] = []
    var indexByID: [String: Int] = [:]
    for range in playlist.dateRanges {
      if let index = indexByID[range.id] {
        merge(range, into: &merged[index])
      } else if range.classValue == Interstitial.classValue {
        indexByID[range.id] = merged.count
        merged.append(range)
      }
    }
    var found: [Interstitial] = []
    for range in merged {
      if let interstitial = interstitial(range) { found.append(interstitial) }
    }
    return InterstitialList(interstitials: found, issues: issues)
  }

  /// Fills in what `base` lacks from a later tag with the same `ID`.
  private func merge(_ later: DateRange, into base: inout DateRange) {
    base.startDate = base.startDate ?? later.startDate
    base.endDate = base.endDate ?? later.endDate
    base.duration = base.duration ?? later.duration
    base.plannedDuration = base.plannedDuration ?? later.plannedDuration
    base.cue = base.cue ?? later.cue
    base.clientAttributes.merge(later.clientAttributes) { first, _ in first }
  }

  private mutating func interstitial(_ range: DateRange) -> Interstitial? {
    let attributes = range.clientAttributes
    let assetURI = attributes["X-ASSET-URI"]
    let assetList = attributes["X-ASSET-LIST"]
    let asset: Interstitial.Asset
    switch (assetURI, assetList) {
    case (let uri?, nil):
      guard let url = resolve(uri, "X-ASSET-URI", of: range.id) else { return nil }
      asset = .uri(url)
    case (nil, let list?):
      guard let url = resolve(list, "X-ASSET-LIST", of: range.id) else { return nil }
      asset = .list(url)
    case (.some, .some):
      fatal(range.id, "has both X-ASSET-URI and X-ASSET-LIST; exactly one is allowed")
      return nil
    case (nil, nil):
      fatal(range.id, "has neither X-ASSET-URI nor X-ASSET-LIST")
      return nil
    }
    var result = Interstitial(
      id: range.id, asset: asset, startDate: range.startDate, duration: range.duration,
      plannedDuration: range.plannedDuration, clientAttributes: attributes)
    if result.duration == nil, let end = range.endDate, let begin = range.startDate {
      let seconds = end.timeIntervalSince(begin)
      if seconds >= 0 { result.duration = MediaTime(seconds: seconds, preferredTimescale: 1_000) }
    }
    result.resumeOffset = time("X-RESUME-OFFSET", in: attributes, of: range.id)
    result.playoutLimit = time("X-PLAYOUT-LIMIT", in: attributes, of: range.id)
    result.snap = options(
      "X-SNAP", in: attributes, of: range.id, known: ["OUT": .out, "IN": .in])
    result.restrictions = options(
      "X-RESTRICT", in: attributes, of: range.id, known: ["SKIP": .skip, "JUMP": .jump])
    result.cue = options(
      range.cue, named: "CUE", of: range.id, known: ["PRE": .pre, "POST": .post, "ONCE": .once])
    if let occupies = attributes["X-TIMELINE-OCCUPIES"] {
      if let value = Interstitial.TimelineOccupation(rawValue: occupies) {
        result.timelineOccupies = value
      } else {
        ignored(range.id, "X-TIMELINE-OCCUPIES '\(occupies)' is not POINT or RANGE")
      }
    }
    if let mayVary = attributes["X-CONTENT-MAY-VARY"] {
      if mayVary == "YES" || mayVary == "NO" {
        result.contentMayVary = mayVary == "YES"
      } else {
        ignored(range.id, "X-CONTENT-MAY-VARY '\(mayVary)' is not YES or NO")
      }
    }
    result.start = start(of: result, position: range.position)
    return result
  }

  /// 0 for `PRE`, the end for `POST`, else `START-DATE` on the playlist timeline.
  private mutating func start(of interstitial: Interstitial, position: Int) -> MediaTime? {
    if interstitial.cue.contains(.pre) { return .zero }
    if interstitial.cue.contains(.post) { return times.end }
    guard let date = interstitial.startDate else {
      ignored(interstitial.id, "has no START-DATE; its place on the timeline is unknown")
      return nil
    }
    guard let time = times.time(of: date) else {
      ignored(
        interstitial.id,
        "no segment has a program date-time, so START-DATE cannot be placed on the timeline")
      return nil
    }
    return time
  }

  private mutating func resolve(_ text: String, _ name: String, of id: String) -> URL? {
    switch AssetURIRule.resolve(text, against: playlist.url) {
    case .success(let url): return url
    case .failure(let problem):
      fatal(id, "\(name) \(problem.message)")
      return nil
    }
  }

  private mutating func time(_ name: String, in attributes: [String: String], of id: String)
    -> MediaTime?
  {
    guard let text = attributes[name] else { return nil }
    let time = ParserContext.withBytes(of: text) {
      $0.decimalTime($0.trimmed(ByteSpan(0, $0.bytes.count)))
    }
    if time == nil {
      ignored(id, "\(name) '\(ParserContext.excerpt(text))' is not a decimal number")
    }
    return time
  }

  private mutating func options<Option: OptionSet>(
    _ name: String, in attributes: [String: String], of id: String, known: [String: Option]
  ) -> Option where Option.Element == Option {
    options(attributes[name], named: name, of: id, known: known)
  }

  /// The options a comma-separated list names; unknown names are ignored with an issue.
  private mutating func options<Option: OptionSet>(
    _ text: String?, named name: String, of id: String, known: [String: Option]
  ) -> Option where Option.Element == Option {
    var result: Option = []
    guard let text else { return result }
    for token in text.split(separator: ",") {
      let trimmed = token.trimmingCharacters(in: .whitespaces)
      if let option = known[trimmed] {
        result.insert(option)
      } else {
        ignored(id, "\(name) has unknown value '\(ParserContext.excerpt(trimmed))'")
      }
    }
    return result
  }

  private mutating func fatal(_ id: String, _ message: String) {
    issues.append(InterstitialIssue(id: id, message: message, isFatal: true))
  }

  private mutating func ignored(_ id: String, _ message: String) {
    issues.append(InterstitialIssue(id: id, message: message, isFatal: false))
  }
}
