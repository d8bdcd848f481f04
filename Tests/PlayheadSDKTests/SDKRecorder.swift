import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import XCTest

/// One thing a controller told a delegate or consumer, flattened for assertions.
struct SDKEntry: Sendable, CustomStringConvertible {
  /// `advanced`, `lifecycle`, `progress`, `cuePoints`, `duration`, `seekable`, `mediaType`,
  /// `complete`, `noPlayable`, `inserted`, `insertFailed`.
  var kind: String
  /// The lifecycle event type, cue point names, media type, or inserted index.
  var detail: String = ""
  var sessionID: UInt64?
  var videoID: String?
  var time: MediaTime = .invalid
  var error: PlayheadError?
  var cueTimes: [MediaTime] = []
  var clockTime: MediaTime = .invalid
  /// A lifecycle event's properties.
  var properties: [String: JSONValue] = [:]

  var description: String { detail.isEmpty ? kind : "\(kind):\(detail)" }
}

/// Records a controller's callbacks, as a delegate or as a consumer, in the order delivered.
final class SDKRecorder: PlaybackControllerDelegate, PlaybackSessionConsumer, @unchecked Sendable {
  private let condition = NSCondition()
  private var storage: [SDKEntry] = []
  private var sessionList: [PlaybackSession] = []

  var entries: [SDKEntry] {
    condition.lock()
    defer { condition.unlock() }
    return storage
  }

  var sessions: [PlaybackSession] {
    condition.lock()
    defer { condition.unlock() }
    return sessionList
  }

  /// The lifecycle event names, in order (optionally of one session only).
  func lifecycle(of session: PlaybackSession? = nil) -> [String] {
    entries.filter { $0.kind == "lifecycle" && (session == nil || $0.sessionID == session?.id) }
      .map(\.detail)
  }

  private func record(_ entry: SDKEntry, session: PlaybackSession? = nil) {
    condition.lock()
    storage.append(entry)
    if let session, entry.kind == "advanced" { sessionList.append(session) }
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until `predicate` holds (the real-time limit only guards against hangs).
  @discardableResult
  func waitFor(
    _ description: String, timeoutMs: Int = 60_000, file: StaticString = #filePath,
    line: UInt = #line, _ predicate: ([SDKEntry]) -> Bool
  ) -> Bool {
    let limit = Date(timeIntervalSinceNow: Double(timeoutMs) / 1000)
    condition.lock()
    defer { condition.unlock() }
    while !predicate(storage) {
      if !condition.wait(until: limit) {
        XCTFail(
          "timed out waiting for \(description); got \(storage.map(\.description))", file: file,
          line: line)
        return false
      }
    }
    return true
  }

  /// Waits for the `count`-th lifecycle event named `name`.
  @discardableResult
  func waitFor(
    lifecycle name: String, count: Int = 1, file: StaticString = #filePath, line: UInt = #line
  ) -> Bool {
    waitFor("\(count)× \(name)", file: file, line: line) { entries in
      entries.filter { $0.kind == "lifecycle" && $0.detail == name }.count >= count
    }
  }

  /// Waits for an entry of `kind`.
  @discardableResult
  func waitFor(kind: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
    waitFor(kind, file: file, line: line) { $0.contains { $0.kind == kind } }
  }

  // MARK: Delegate

  func playbackController(_ controller: PlaybackController, didAdvanceTo session: PlaybackSession) {
    didAdvanceTo(session)
  }

  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didChangeDuration duration: MediaTime
  ) {
    playbackSession(session, didChangeDuration: duration)
  }

  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didProgressTo progress: MediaTime
  ) {
    playbackSession(session, didProgressTo: progress)
  }

  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didReceive lifecycleEvent: LifecycleEvent
  ) {
    playbackSession(session, didReceive: lifecycleEvent)
  }

  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didPassCuePoints passage: CuePointPassage
  ) {
    playbackSession(session, didPassCuePoints: passage)
  }

  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    determinedMediaType mediaType: SourceMediaType
  ) {
    playbackSession(session, determinedMediaType: mediaType)
  }

  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didChangeSeekableRanges ranges: [MediaTimeRange]
  ) {
    playbackSession(session, didChangeSeekableRanges: ranges)
  }

  func playbackController(_ controller: PlaybackController, didCompletePlaylist videos: [Video]) {
    didCompletePlaylist(videos)
  }

  func playbackController(
    _ controller: PlaybackController, noPlayableVideosFoundIn videos: [Video]
  ) {
    noPlayableVideosFound(in: videos)
  }

  func playbackController(_ controller: PlaybackController, didInsert video: Video, at index: Int) {
    didInsert(video, at: index)
  }

  func playbackController(_ controller: PlaybackController, failedToInsert video: Video) {
    failedToInsert(video)
  }

  // MARK: Consumer

  func didAdvanceTo(_ session: PlaybackSession) {
    record(
      SDKEntry(kind: "advanced", sessionID: session.id, videoID: session.video.id),
      session: session)
  }

  func playbackSession(_ session: PlaybackSession, didChangeDuration duration: MediaTime) {
    record(SDKEntry(kind: "duration", sessionID: session.id, time: duration))
  }

  func playbackSession(_ session: PlaybackSession, didProgressTo progress: MediaTime) {
    record(SDKEntry(kind: "progress", sessionID: session.id, time: progress))
  }

  func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
    record(
      SDKEntry(
        kind: "lifecycle", detail: lifecycleEvent.type.rawValue, sessionID: session.id,
        videoID: session.video.id, time: lifecycleEvent.currentTime, error: lifecycleEvent.error,
        clockTime: lifecycleEvent.clockTime, properties: lifecycleEvent.properties))
  }

  func playbackSession(_ session: PlaybackSession, didPassCuePoints passage: CuePointPassage) {
    record(
      SDKEntry(
        kind: "cuePoints",
        detail: passage.cuePoints.map { $0.name ?? $0.type }.joined(separator: ","),
        sessionID: session.id, time: passage.currentTime,
        cueTimes: passage.cuePoints.compactMap { $0.position.time }))
  }

  func playbackSession(_ session: PlaybackSession, determinedMediaType mediaType: SourceMediaType) {
    record(SDKEntry(kind: "mediaType", detail: mediaType.rawValue, sessionID: session.id))
  }

  func playbackSession(
    _ session: PlaybackSession, didChangeSeekableRanges ranges: [MediaTimeRange]
  ) {
    record(SDKEntry(kind: "seekable", sessionID: session.id))
  }

  func didCompletePlaylist(_ videos: [Video]) {
    record(SDKEntry(kind: "complete", detail: "\(videos.count)"))
  }

  func noPlayableVideosFound(in videos: [Video]) {
    record(SDKEntry(kind: "noPlayable", detail: "\(videos.count)"))
  }

  func didInsert(_ video: Video, at index: Int) {
    record(SDKEntry(kind: "inserted", detail: "\(index)", videoID: video.id))
  }

  func failedToInsert(_ video: Video) {
    record(SDKEntry(kind: "insertFailed", videoID: video.id))
  }
}

/// Helpers to build controllers and videos for the tests.
enum SDKTesting {
  /// A controller in fast mode (a manual clock that advances to each deadline) whose
  /// callbacks run on a private serial queue, recorded by a new recorder as its delegate.
  static func makeController(
    provider: (any PlaybackSessionProvider)? = nil,
    configuration: PlayerConfiguration = .fast(videoSink: DiscardVideoSink())
  ) -> (PlaybackController, SDKRecorder) {
    let controller = PlayerSDKManager.shared.createPlaybackController(
      sessionProvider: provider, viewStrategy: nil, playerConfiguration: configuration,
      callbackQueue: DispatchQueue(label: "test.sdk.callbacks"))
    let recorder = SDKRecorder()
    controller.delegate = recorder
    return (controller, recorder)
  }

  /// A video with `id` playing the fixture at `path` as MP4 (or HLS for .m3u8).
  static func video(
    id: String, url: URL, cuePoints: [CuePoint] = [], customFields: [String: String] = [:]
  ) -> Video {
    let method: DeliveryMethod = url.pathExtension == "m3u8" ? .hls : .mp4
    var properties: [String: JSONValue] = ["id": .string(id)]
    if !customFields.isEmpty {
      properties["custom_fields"] = .object(customFields.mapValues { .string($0) })
    }
    return Video(
      sources: [Source(url: url, deliveryMethod: method)],
      cuePoints: CuePointCollection(cuePoints), properties: properties)
  }

  static func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1000)
  }
}

extension SDKTesting {
  /// Plays the part of real time on `clock` until `predicate` holds for the recorder:
  /// whenever the player's threads wait on the clock (two waits, or one that stays alone for
  /// a moment), the clock jumps to the earliest deadline. Fails after `limitSeconds` of
  /// real time (a guard against hangs only).
  static func drive(
    _ clock: ManualClock, recorder: SDKRecorder, limitSeconds: Double = 120,
    file: StaticString = #filePath, line: UInt = #line, until predicate: ([SDKEntry]) -> Bool
  ) {
    let limit = Date(timeIntervalSinceNow: limitSeconds)
    while !predicate(recorder.entries) {
      guard Date() < limit else {
        XCTFail(
          "clock driver gave up; got \(recorder.entries.map(\.description))", file: file, line: line
        )
        return
      }
      let blocked =
        clock.waitForBlockedWaits(count: 2, hostTimeoutMs: 20)
        || clock.waitForBlockedWaits(count: 1, hostTimeoutMs: 20)
      if blocked, let next = clock.nextBlockedDeadline { clock.advance(to: next) }
    }
  }
}
