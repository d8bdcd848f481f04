import Foundation
import Playhead

/// What `probe` shows about a DASH manifest besides its tracks: its Periods, adaptation
/// sets, Representations and protection, as `manifest` prints them.
struct DASHProbe: Sendable {
  var mpd: MPD

  /// Loads and parses the MPD at `url` with `request` (timeout, retries, headers).
  static func load(url: URL, request: RequestConfiguration) throws(PlayheadError) -> DASHProbe {
    let loader = DataSourceStack(request: request).loader()
    let data = try loader.load(DataRequest(url: url, purpose: .playlist)).data
    do {
      return DASHProbe(mpd: try MPDParser.parse(data, url: url))
    } catch {
      throw PlayheadError(.invalidPlaylist, "bad MPD \(url.absoluteString): \(error)", url: url)
    }
  }

  var textLines: [String] { ManifestText.lines(mpd) }

  var jsonFields: [JSONField] { [JSONField("manifest", ManifestJSON.value(mpd))] }
}
