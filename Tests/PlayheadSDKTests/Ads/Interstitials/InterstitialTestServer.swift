import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// A local server for HLS Interstitials: the `hls/144p` fixture (six 2 s segments, 12 s)
/// as a primary playlist with date ranges, asset playlists made of its segments, and asset
/// lists; it records every request.
final class InterstitialTestServer {
  let server: HTTPTestServer

  /// The program date-time of the primary playlist's first segment.
  static let origin = "2026-01-01T00:00:"

  init() throws {
    server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    // Asset playlists beside the fixture's segments: 2 s and 4 s long.
    server.setFile(
      Data(Self.playlist(segments: 0..<1, endList: true).utf8), at: "/hls/144p/ad-a.m3u8")
    server.setFile(
      Data(Self.playlist(segments: 0..<2, endList: true).utf8), at: "/hls/144p/ad-b.m3u8")
  }

  deinit { server.stop() }

  /// A media playlist of the fixture's segments `segments`, with a program date-time on
  /// the first and `dateRanges` after the header.
  static func playlist(
    segments: Range<Int>, dateRanges: [String] = [], endList: Bool, live: Bool = false
  ) -> String {
    var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:2"]
    lines.append("#EXT-X-MEDIA-SEQUENCE:\(segments.lowerBound)")
    if !live { lines.append("#EXT-X-PLAYLIST-TYPE:VOD") }
    lines.append("#EXT-X-INDEPENDENT-SEGMENTS")
    lines += dateRanges
    for index in segments {
      if index == segments.lowerBound {
        lines.append(String(format: "#EXT-X-PROGRAM-DATE-TIME:\(origin)%06.3fZ", Double(index * 2)))
      }
      lines.append("#EXTINF:2.000000,")
      lines.append(String(format: "segment%03d.ts", index))
    }
    if endList { lines.append("#EXT-X-ENDLIST") }
    return lines.joined(separator: "\n") + "\n"
  }

  /// An interstitial date range at `seconds` into the primary playlist; `attributes` are
  /// added as written (`X-ASSET-URI="ad-a.m3u8"`, `CUE="PRE"`, …).
  static func dateRange(_ id: String, at seconds: Double, _ attributes: String) -> String {
    let start = String(format: "\(origin)%06.3fZ", seconds)
    return
      "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(start)\",\(attributes)"
  }

  /// Serves a VOD primary playlist with `dateRanges` at `/hls/144p/<name>.m3u8`.
  func primary(_ name: String, _ dateRanges: [String]) -> URL {
    let text = Self.playlist(segments: 0..<6, dateRanges: dateRanges, endList: true)
    server.setFile(Data(text.utf8), at: "/hls/144p/\(name).m3u8")
    return server.url("/hls/144p/\(name).m3u8")
  }

  /// Serves an asset list of `assets` (URI, DURATION) at `/lists/<name>.json`.
  func assetList(_ name: String, _ assets: [(String, Double)]) {
    let items = assets.map { "{\"URI\": \"\($0.0)\", \"DURATION\": \($0.1)}" }
    server.setFile(
      Data("{\"ASSETS\": [\(items.joined(separator: ", "))]}".utf8), at: "/lists/\(name).json")
  }

  /// The absolute URL of an asset playlist, for asset lists.
  func asset(_ name: String) -> String { server.url("/hls/144p/\(name)").absoluteString }

  /// Requests of `path`, with their queries.
  func requests(_ path: String) -> [HTTPTestServer.LoggedRequest] {
    server.requests.filter { $0.path == path }
  }
}

/// What interstitial tests look at.
enum InterstitialTesting {
  /// A controller in fast mode whose ads plug-in plays only interstitials.
  static func makeController(
    configuration: AdsConfiguration = .interstitialsOnly,
    player: PlayerConfiguration = .fast(videoSink: DiscardVideoSink())
  ) -> (PlaybackController, SDKRecorder) {
    SDKTesting.makeController(
      provider: AdsSessionProvider(configuration: configuration), configuration: player)
  }

  /// The ad events and the end, flattened: `adSequenceEnter@4.0`, `adEnter:id`,
  /// `adError:id:401`, `adExit:id:played`, `adSkipped`, `adSequenceExit`, `end`.
  static func events(_ recorder: SDKRecorder) -> [String] {
    recorder.entries.compactMap { entry -> String? in
      guard entry.kind == "lifecycle" else { return nil }
      let id = entry.properties["adId"]?.stringValue ?? entry.properties["breakId"]?.stringValue
      switch entry.detail {
      case "adSequenceEnter":
        let time = entry.properties["breakTime"]?.numberValue ?? -2
        return "adSequenceEnter:\(id ?? "?")@\(time)"
      case "adEnter": return "adEnter:\(id ?? "?")"
      case "adError":
        let code = entry.properties["code"]?.numberValue.map { Int($0) } ?? 0
        return "adError:\(id ?? "?"):\(code)"
      case "adExit":
        return "adExit:\(id ?? "?"):\(entry.properties["outcome"]?.stringValue ?? "?")"
      case "adSkipped", "adSequenceExit", "end": return entry.detail
      default: return nil
      }
    }
  }

  /// The content times of progress reports after the `n`th `adSequenceExit` (1-based).
  static func progress(_ recorder: SDKRecorder, afterExit n: Int = 1) -> [MediaTime] {
    let entries = recorder.entries
    let exits = entries.indices.filter { entries[$0].detail == "adSequenceExit" }
    guard exits.count >= n else { return [] }
    return entries[(exits[n - 1] + 1)...].filter { $0.kind == "progress" }.map(\.time)
  }
}
