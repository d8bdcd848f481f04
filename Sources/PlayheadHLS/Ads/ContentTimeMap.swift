import PlayheadCore

/// Maps between a playlist's time and its content time with the ad breaks taken out, as
/// SSAI players show the content's own position and duration.
///
/// Breaks are clipped to the playlist (`0..<playlistDuration`) and overlapping breaks are
/// merged; a break with no known duration runs to the end of the playlist. Lookups take
/// logarithmic time.
///
/// ```swift
/// let timeline = ContentTimeMap(playlist: playlist)
/// timeline.contentDuration                              // the content without ads
/// timeline.contentTime(forPlaylistTime: player.time)    // for the slider
/// ```
public struct ContentTimeMap: Sendable, Hashable {
  /// The ad ranges on the playlist timeline, merged and in order.
  public let adRanges: [MediaTimeRange]
  /// The playlist's duration.
  public let playlistDuration: MediaTime
  /// `adTimeBefore[i]`: the ad time before `adRanges[i]`.
  private let adTimeBefore: [MediaTime]

  /// The timeline of `periods` on a playlist lasting `playlistDuration`.
  public init(periods: [AdPeriod], playlistDuration: MediaTime) {
    self.playlistDuration = playlistDuration
    let clipped: [MediaTimeRange] = periods.compactMap { period in
      let start = MediaTime.maximum(period.start, .zero)
      let end = MediaTime.minimum(period.end ?? playlistDuration, playlistDuration)
      guard start < end else { return nil }
      return MediaTimeRange(start: start, end: end)
    }.sorted { $0.start < $1.start }
    var merged: [MediaTimeRange] = []
    for range in clipped {
      if let last = merged.last, range.start <= last.end {
        merged[merged.count - 1] = last.union(range)
      } else {
        merged.append(range)
      }
    }
    var before: [MediaTime] = []
    var total = MediaTime.zero
    for range in merged {
      before.append(total)
      total = total + range.duration
    }
    self.adRanges = merged
    self.adTimeBefore = before
    self.totalAdDuration = total
  }

  /// The timeline of `playlist.adPeriods()` on `playlist`.
  public init(playlist: MediaPlaylist) {
    self.init(periods: playlist.adPeriods().periods, playlistDuration: playlist.totalDuration)
  }

  /// The time of all ads together.
  public let totalAdDuration: MediaTime

  /// The playlist's duration without its ads.
  public var contentDuration: MediaTime { playlistDuration - totalAdDuration }

  /// The content time at `playlistTime`: the time less the ads before it.
  ///
  /// Inside an ad, the content time where the ad began (it stands still during ads).
  /// Times before 0 or past the end are shifted by the ads before them all the same.
  public func contentTime(forPlaylistTime playlistTime: MediaTime) -> MediaTime {
    // The ranges that start at or before the time.
    let count = countOfRanges { $0.start <= playlistTime }
    guard count > 0 else { return playlistTime }
    let range = adRanges[count - 1]
    let before = adTimeBefore[count - 1]
    if playlistTime < range.end { return range.start - before }
    return playlistTime - before - range.duration
  }

  /// The playlist time that shows `contentTime`: the time plus the ads before it.
  ///
  /// At the content time where a break stands, the playlist time after the break (where
  /// the content goes on), so that resuming at a content time plays no ad before it.
  public func playlistTime(forContentTime contentTime: MediaTime) -> MediaTime {
    // The ranges whose content position is at or before the time.
    var low = 0
    var high = adRanges.count
    while low < high {
      let middle = (low + high) / 2
      if adRanges[middle].start - adTimeBefore[middle] <= contentTime {
        low = middle + 1
      } else {
        high = middle
      }
    }
    guard low > 0 else { return contentTime }
    return contentTime + adTimeBefore[low - 1] + adRanges[low - 1].duration
  }

  /// The ad range that holds `playlistTime`, or nil when it is content.
  public func adRange(containing playlistTime: MediaTime) -> MediaTimeRange? {
    let count = countOfRanges { $0.start <= playlistTime }
    guard count > 0, adRanges[count - 1].contains(playlistTime) else { return nil }
    return adRanges[count - 1]
  }

  /// How many ranges from the first satisfy `isBefore` (which must hold for a prefix).
  private func countOfRanges(where isBefore: (MediaTimeRange) -> Bool) -> Int {
    var low = 0
    var high = adRanges.count
    while low < high {
      let middle = (low + high) / 2
      if isBefore(adRanges[middle]) { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
