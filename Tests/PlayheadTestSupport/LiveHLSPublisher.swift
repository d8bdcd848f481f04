import Foundation

/// Publishes a live HLS media playlist on an `HTTPTestServer` from a list of segment
/// files, with a sliding window that the test advances one segment at a time, or as an
/// EVENT playlist (`isEvent`) that keeps every segment and only grows.
///
/// Segment N of the live stream serves the bytes of source segment `N % count`, so the
/// stream can run for as long as a test needs (each return to the first source segment
/// is marked `EXT-X-DISCONTINUITY`, as its timestamps start again); `end()` adds
/// `EXT-X-ENDLIST`.
public final class LiveHLSPublisher: @unchecked Sendable {
  private let server: HTTPTestServer
  private let path: String
  private let segments: [Data]
  private let segmentDuration: Double
  private let windowSize: Int
  private let isEvent: Bool
  private let lock = NSLock()
  private var published = 0
  private var ended = false

  /// Serves the playlist at `path` (e.g. "/live/index.m3u8") with `windowSize` segments
  /// once `initialSegments` have been published; an EVENT playlist (`isEvent`) ignores
  /// `windowSize` and lists every segment published.
  public init(
    server: HTTPTestServer, path: String, segments: [Data], segmentDuration: Double,
    windowSize: Int = 4, initialSegments: Int = 4, isEvent: Bool = false
  ) {
    self.server = server
    self.path = path
    self.segments = segments
    self.segmentDuration = segmentDuration
    self.windowSize = windowSize
    self.isEvent = isEvent
    for _ in 0..<initialSegments { publishNext() }
  }

  /// The playlist's URL.
  public var url: URL { server.url(path) }

  /// How many segments have been published so far.
  public var publishedCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return published
  }

  /// Publishes the next segment and slides the window.
  public func publishNext() {
    lock.lock()
    let index = published
    published += 1
    lock.unlock()
    let directory = (path as NSString).deletingLastPathComponent
    server.setFile(segments[index % segments.count], at: "\(directory)/live\(index).ts")
    writePlaylist()
  }

  /// Ends the stream: the playlist gains `EXT-X-ENDLIST`.
  public func end() {
    lock.lock()
    ended = true
    lock.unlock()
    writePlaylist()
  }

  private func writePlaylist() {
    lock.lock()
    let count = published
    let isEnded = ended
    lock.unlock()
    let first = isEvent ? 0 : max(0, count - windowSize)
    var text =
      "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(Int(segmentDuration.rounded(.up)))\n"
    if isEvent { text += "#EXT-X-PLAYLIST-TYPE:EVENT\n" }
    text += "#EXT-X-MEDIA-SEQUENCE:\(first)\n"
    // Discontinuities of the segments that left the window.
    let removedDiscontinuities = first > 0 ? (first - 1) / segments.count : 0
    if removedDiscontinuities > 0 {
      text += "#EXT-X-DISCONTINUITY-SEQUENCE:\(removedDiscontinuities)\n"
    }
    for index in first..<count {
      if index > 0 && index % segments.count == 0 { text += "#EXT-X-DISCONTINUITY\n" }
      text += String(format: "#EXTINF:%.3f,\n", segmentDuration)
      text += "live\(index).ts\n"
    }
    if isEnded { text += "#EXT-X-ENDLIST\n" }
    server.setFile(Data(text.utf8), at: path)
  }
}
