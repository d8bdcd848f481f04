import Foundation

/// Publishes a live HLS media playlist on an `HTTPTestServer` (or through any `publish`
/// function, e.g. into a simulated network's resources) from a list of segment files, with a sliding window that the test advances one segment at a time, or as an
/// EVENT playlist (`isEvent`) that keeps every segment and only grows.
///
/// Segment N of the live stream serves the bytes of source segment `N % count`, so the
/// stream can run for as long as a test needs (each return to the first source segment
/// is marked `EXT-X-DISCONTINUITY`, as its timestamps start again); `end()` adds
/// `EXT-X-ENDLIST`.
public final class LiveHLSPublisher: @unchecked Sendable {
  private let publish: @Sendable (Data, String) -> Void
  private let baseURL: URL
  private let path: String
  private let segments: [Data]
  private let segmentDuration: Double
  private let windowSize: Int
  private let isEvent: Bool
  private let lock = NSLock()
  private var published = 0
  private var ended = false
  private var tags: [Int: [String]] = [:]

  /// Serves the playlist at `path` (e.g. "/live/index.m3u8") with `windowSize` segments
  /// once `initialSegments` have been published; an EVENT playlist (`isEvent`) ignores
  /// `windowSize` and lists every segment published.
  public convenience init(
    server: HTTPTestServer, path: String, segments: [Data], segmentDuration: Double,
    windowSize: Int = 4, initialSegments: Int = 4, isEvent: Bool = false
  ) {
    self.init(
      baseURL: server.baseURL, publish: { data, path in server.setFile(data, at: path) },
      path: path, segments: segments, segmentDuration: segmentDuration,
      windowSize: windowSize, initialSegments: initialSegments, isEvent: isEvent)
  }

  /// Publishes through `publish(data, path)` (each path absolute, like `path`) instead of
  /// a server; `url` is `path` resolved against `baseURL`.
  public init(
    baseURL: URL, publish: @escaping @Sendable (Data, String) -> Void, path: String,
    segments: [Data], segmentDuration: Double, windowSize: Int = 4, initialSegments: Int = 4,
    isEvent: Bool = false
  ) {
    self.baseURL = baseURL
    self.publish = publish
    self.path = path
    self.segments = segments
    self.segmentDuration = segmentDuration
    self.windowSize = windowSize
    self.isEvent = isEvent
    for _ in 0..<initialSegments { publishNext() }
  }

  /// The playlist's URL.
  public var url: URL {
    URL(string: path, relativeTo: baseURL)?.absoluteURL ?? baseURL.appendingPathComponent(path)
  }

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
    publish(segments[index % segments.count], "\(directory)/live\(index).ts")
    writePlaylist()
  }

  /// Writes `lines` (tags such as `#EXT-X-CUE-OUT:4.000`) before live segment `index`
  /// from the next playlist published on; segments already out of the window keep none.
  public func setTags(_ lines: [String], beforeSegment index: Int) {
    lock.lock()
    tags[index] = lines
    lock.unlock()
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
    let tags = self.tags
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
      for line in tags[index] ?? [] { text += line + "\n" }
      text += String(format: "#EXTINF:%.3f,\n", segmentDuration)
      text += "live\(index).ts\n"
    }
    if isEnded { text += "#EXT-X-ENDLIST\n" }
    publish(Data(text.utf8), path)
  }
}
