import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadHLS

/// One HLS interstitial as the session's ad timeline plays it: the date range as read,
/// where its break was placed, and how far into it a late live viewer joined.
struct InterstitialBreak: Sendable {
  /// The interstitial, its `start` on the item timeline.
  let interstitial: Interstitial
  /// Where the content leaves for it (`start`, moved to a segment boundary with
  /// `X-SNAP=OUT`; zero for a pre-roll; nil for a post-roll).
  let leaveTime: MediaTime?
  /// Whether it came from a live playlist (no replay after a seek back, late joins).
  let isLive: Bool
  /// How far into the interstitial playback joined (a live viewer arriving during it);
  /// zero when it plays from its start.
  let joinOffset: MediaTime

  /// The MIME type given to interstitial assets (they are HLS playlists).
  static let assetType = "application/vnd.apple.mpegurl"

  /// The timeline break of `interstitial`: one ad for `X-ASSET-URI`, the asset list to
  /// fetch for `X-ASSET-LIST`.
  func adBreak() -> AdBreak {
    let offset: VMAPTimeOffset
    switch leaveTime {
    case nil: offset = .end
    case let time? where time <= .zero: offset = .start
    case let time?: offset = .time(time)
    }
    let source: AdBreakSource
    switch interstitial.asset {
    case .uri(let url):
      source = .ads([Self.ad(id: interstitial.id, url: url, duration: nil, of: interstitial)])
    case .list(let url):
      source = .assetList(url)
    }
    return AdBreak(id: interstitial.id, offset: offset, source: source)
  }

  /// One asset as an ad: no tracking (interstitials carry none), skippable from its start
  /// unless `X-RESTRICT` has `SKIP`.
  static func ad(id: String, url: URL, duration: MediaTime?, of interstitial: Interstitial)
    -> LinearAd
  {
    LinearAd(
      id: id, adSystem: "HLS interstitial", duration: duration,
      skipOffset: interstitial.restrictions.contains(.skip) ? nil : .time(.zero),
      mediaFiles: [VASTMediaFile(url: url.absoluteString, delivery: "streaming", type: assetType)])
  }

  /// The ads of an asset list, in its order: ids `<interstitial id>-<n>`.
  static func ads(of list: AssetList, for interstitial: Interstitial) -> [LinearAd] {
    list.assets.enumerated().map { index, asset in
      ad(
        id: "\(interstitial.id)-\(index + 1)", url: asset.uri,
        duration: asset.duration > .zero ? asset.duration : nil, of: interstitial)
    }
  }

  /// Where the content resumes after the break, when the break was reached by playing
  /// into it: `X-RESUME-OFFSET` from the leave point; without one, the covered range for
  /// `X-TIMELINE-OCCUPIES=RANGE` with a duration, else the time the interstitial played
  /// (RFC 8216bis: the resumption offset defaults to the playback duration) counted from
  /// where a late viewer joined. `X-SNAP=IN` moves it to the nearest boundary `snap`
  /// gives. Nil (the content goes on where it is) for a post-roll, and for a `CUE=PRE`
  /// interstitial unless a VOD one gives an offset (the content then starts there): a
  /// pre-roll replaces nothing, and a live stream starts at its live start.
  func resumeTime(played: MediaTime, snap: (MediaTime) -> MediaTime) -> MediaTime? {
    guard let leaveTime else { return nil }
    if interstitial.cue.contains(.pre) {
      guard !isLive, let given = interstitial.resumeOffset, given > .zero else { return nil }
      return interstitial.snap.contains(.in) ? snap(given) : given
    }
    let offset: MediaTime
    if let given = interstitial.resumeOffset {
      offset = given
    } else if interstitial.timelineOccupies == .range, let duration = interstitial.duration {
      offset = duration
    } else if leaveTime <= .zero, !isLive {
      offset = .zero
    } else {
      offset = joinOffset + played
    }
    let time = max(.zero, leaveTime + offset)
    return interstitial.snap.contains(.in) ? snap(time) : time
  }
}
