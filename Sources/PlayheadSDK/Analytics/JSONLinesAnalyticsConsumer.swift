import Foundation
import PlayheadCore

/// A session consumer that writes one line per event, JSON (default) or plain text, each
/// carrying the SDK session ID (`PlayerSDKManager.shared.sessionID`) and the session's index
/// (0 for the first session this consumer saw).
///
/// Lines (JSON keys in this order):
/// - `{"event":"sessionAdvanced","sdkSession":…,"session":i,"video":id,"source":url}`
/// - `{"event":<lifecycle type>,"sdkSession":…,"session":i,"time":s}` plus `error` and
///   `errorCode` when the event carries an error, then a plug-in event's `properties` in
///   key order (progress-like `bumperProgress` is left out)
/// - `{"event":"cuePoint","sdkSession":…,"session":i,"name":…,"type":…,"time":s}` per cue point
/// - `{"event":"summary","sdkSession":…,"session":i,…QoE…}` once per session, when it ends,
///   fails or is discarded; a session with ads adds `adBreaks`, `adsStarted`,
///   `adsCompleted`, `adsSkipped` and `adErrors` (the QoE fields count the content only)
/// - `{"event":"playlistComplete","sdkSession":…}` when the list is complete.
///
/// With `includesProgress`, `progress` lines (`time`) are written too. Lines are written in
/// the order the controller delivers them, from its callback queue.
public final class JSONLinesAnalyticsConsumer: PlaybackSessionConsumer, Sendable {
  /// How lines are written.
  public enum Format: Sendable {
    /// One JSON object per line.
    case json
    /// `event key=value …` per line.
    case text
  }

  private let write: @Sendable (String) -> Void
  private let format: Format
  private let includesProgress: Bool
  private let sdkSessionID: String
  private let state = Locked(State())

  private struct State: Sendable {
    var indexes: [UInt64: Int] = [:]
    var summarized = Set<UInt64>()
    var written: [AnalyticsEventLine] = []
    /// Ad events counted per session (sessions with ads only).
    var adCounts: [UInt64: AdSummary] = [:]
  }

  /// A consumer that hands each line (without its newline) to `write`.
  public init(
    format: Format = .json, includesProgress: Bool = false,
    sdkSessionID: String = PlayerSDKManager.shared.sessionID,
    write: @escaping @Sendable (String) -> Void
  ) {
    self.format = format
    self.includesProgress = includesProgress
    self.sdkSessionID = sdkSessionID
    self.write = write
  }

  /// A consumer that appends lines to `fileHandle`.
  public convenience init(
    fileHandle: FileHandle, format: Format = .json, includesProgress: Bool = false
  ) {
    self.init(format: format, includesProgress: includesProgress) { line in
      fileHandle.write(Data((line + "\n").utf8))
    }
  }

  /// Every line written so far, as values (for tests and in-process analytics).
  public var lines: [AnalyticsEventLine] { state.withLock { $0.written } }

  public func didAdvanceTo(_ session: PlaybackSession) {
    let index = sessionIndex(session)
    emit(
      "sessionAdvanced",
      [
        ("session", .number(Double(index))),
        ("video", session.video.id.map(JSONValue.string) ?? .null),
        ("source", session.source.map { .string($0.url.absoluteString) } ?? .null),
      ])
  }

  public func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent)
  {
    guard lifecycleEvent.type != .bumperProgress else { return }
    if lifecycleEvent.type == .adProgress && !includesProgress { return }
    countAds(lifecycleEvent, of: session)
    var fields: [(key: String, value: JSONValue)] = [
      ("session", .number(Double(sessionIndex(session)))),
      ("time", AnalyticsEventLine.seconds(lifecycleEvent.currentTime)),
    ]
    if let error = lifecycleEvent.error {
      fields.append(("error", .string(error.message)))
      fields.append(("errorCode", .string(error.code.rawValue)))
    }
    let taken = Set(fields.map(\.key) + ["event", "sdkSession"])
    for key in lifecycleEvent.properties.keys.sorted() where !taken.contains(key) {
      fields.append((key, lifecycleEvent.properties[key] ?? .null))
    }
    emit(lifecycleEvent.type.rawValue, fields)
    switch lifecycleEvent.type {
    case .end, .fail, .failedToPlayToEndTime, .terminate: summarize(session)
    default: break
    }
  }

  public func playbackSession(_ session: PlaybackSession, didPassCuePoints passage: CuePointPassage)
  {
    for cuePoint in passage.cuePoints {
      let time = cuePoint.position.time ?? passage.currentTime
      emit(
        "cuePoint",
        [
          ("session", .number(Double(sessionIndex(session)))),
          ("name", cuePoint.name.map(JSONValue.string) ?? .null),
          ("type", .string(cuePoint.type)),
          ("position", .string(Self.positionName(cuePoint.position))),
          ("time", AnalyticsEventLine.seconds(time)),
        ])
    }
  }

  public func playbackSession(_ session: PlaybackSession, didProgressTo progress: MediaTime) {
    guard includesProgress else { return }
    emit(
      "progress",
      [
        ("session", .number(Double(sessionIndex(session)))),
        ("time", AnalyticsEventLine.seconds(progress)),
      ])
  }

  public func didCompletePlaylist(_ videos: [Video]) {
    emit("playlistComplete", [("videos", .number(Double(videos.count)))])
  }

  public func noPlayableVideosFound(in videos: [Video]) {
    emit("noPlayableVideos", [("videos", .number(Double(videos.count)))])
  }

  /// The QoE fields of a summary line.
  static func summaryFields(_ qoe: SessionQoE) -> [(key: String, value: JSONValue)] {
    [
      ("timeToFirstFrame", AnalyticsEventLine.seconds(qoe.timeToFirstFrame)),
      ("stallCount", .number(Double(qoe.stallCount))),
      ("stallSeconds", AnalyticsEventLine.seconds(qoe.totalStallTime)),
      ("switchCount", .number(Double(qoe.bitrateSwitchCount))),
      ("averageBitrate", qoe.averageBitrate.map { .number($0.rounded()) } ?? .null),
      ("timeWeightedBitrate", qoe.timeWeightedBitrate.map { .number($0.rounded()) } ?? .null),
      ("framesRendered", .number(Double(qoe.renderedFrames))),
      ("framesDropped", .number(Double(qoe.droppedFrames))),
      ("errorCount", .number(Double(qoe.errorCount))),
      ("bytes", .number(Double(qoe.bytesTransferred))),
      ("playedSeconds", AnalyticsEventLine.seconds(qoe.playedTime)),
    ]
  }

  private func summarize(_ session: PlaybackSession) {
    let id = session.id
    let first = state.withLock { $0.summarized.insert(id).inserted }
    guard first else { return }
    let ads = state.withLock { $0.adCounts[id] }
    emit(
      "summary",
      [("session", .number(Double(sessionIndex(session))))] + Self.summaryFields(session.qoe)
        + (ads.map(Self.adFields) ?? []))
  }

  /// The ad fields of a summary line (sessions that had ads): breaks, ads started, completed
  /// and skipped, errors. The QoE fields before them count the content only.
  static func adFields(_ counts: AdSummary) -> [(key: String, value: JSONValue)] {
    [
      ("adBreaks", .number(Double(counts.breaks))),
      ("adsStarted", .number(Double(counts.adsStarted))),
      ("adsCompleted", .number(Double(counts.adsCompleted))),
      ("adsSkipped", .number(Double(counts.adsSkipped))),
      ("adErrors", .number(Double(counts.errors))),
    ]
  }

  /// Counts a session's ad events for its summary.
  private func countAds(_ event: LifecycleEvent, of session: PlaybackSession) {
    guard event.type.rawValue.hasPrefix("ad") else { return }
    state.withLock { state in
      var counts = state.adCounts[session.id] ?? AdSummary()
      switch event.type {
      case .adSequenceEnter: counts.breaks += 1
      case .adError: counts.errors += 1
      case .adExit:
        if event.properties["started"] == .bool(true) { counts.adsStarted += 1 }
        switch event.properties["outcome"] {
        case .string("played"): counts.adsCompleted += 1
        case .string("skipped"): counts.adsSkipped += 1
        default: break
        }
      default: break
      }
      state.adCounts[session.id] = counts
    }
  }

  private func sessionIndex(_ session: PlaybackSession) -> Int {
    let id = session.id
    return state.withLock { state in
      if let index = state.indexes[id] { return index }
      let index = state.indexes.count
      state.indexes[id] = index
      return index
    }
  }

  private func emit(_ event: String, _ fields: [(key: String, value: JSONValue)]) {
    let line = AnalyticsEventLine(event: event, [("sdkSession", .string(sdkSessionID))] + fields)
    state.withLock { $0.written.append(line) }
    write(format == .json ? line.json : line.text)
  }

  private static func positionName(_ position: CuePointPosition) -> String {
    switch position {
    case .before: return "before"
    case .after: return "after"
    case .time: return "time"
    }
  }
}
