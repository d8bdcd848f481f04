// The content -> ad -> content switch time of Benchmarks/ads.sh (issue 32): mid-roll breaks
// played through the public SDK in real time (the host clock), the content and the ad served
// over HTTP by a loopback server that holds every answer back by 40 ms, with the break's ad
// prefetched (the default `prefetchLeadMs`) and, as the reference, without (0).
//
// The view is a sink of our own that notes, for every frame presented, the monotonic time and
// whether it is content (a blue picture) or ad (a red one), read from the frame's chroma. A
// switch is the gap between the last frame of one and the first frame of the other, raw (a
// seamless switch at 25 fps is one frame time, 40 ms: the last content frame's own time on
// screen).
//
// Usage: AdSwitchBench DIR RUNS [DELAY_MS]
//   DIR holds switch-content.mp4 (blue, 25 fps, 20 s) and switch-ad.mp4 (red, 25 fps, 3 s);
//   RUNS switches are measured each way in each mode, over plays of up to four mid-rolls
//   (at 4, 8, 12 and 16 s), the modes taking turns. DELAY_MS defaults to 40.
// Exits 1 when a play fails or a wait times out, 2 on bad arguments.
import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadSDK
import PlayheadTesting

/// What a presented frame showed.
enum FrameKind: String, Sendable {
  case content
  case ad
  /// Neither colour, or a layout the sink cannot read.
  case unknown
}

/// One frame as the view received it.
struct PresentedFrame: Sendable {
  var uptimeNs: UInt64
  var kind: FrameKind
  var durationMs: Double?
}

/// The monotonic time now, in nanoseconds.
func uptimeNow() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The view: records every frame presented and wakes a waiter on each switch.
final class SwitchRecordingSink: VideoSink, @unchecked Sendable {
  // Unchecked Sendable: every mutable property is guarded by `condition`.
  private let condition = NSCondition()
  private var frames: [PresentedFrame] = []
  private var lastKind: FrameKind?
  private var contentToAdCount = 0
  private var adToContentCount = 0

  func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    let presented = PresentedFrame(
      uptimeNs: uptimeNow(), kind: Self.classify(frame),
      durationMs: frame.duration.isNumeric ? frame.duration.seconds * 1000 : nil)
    condition.lock()
    frames.append(presented)
    if lastKind == .content && presented.kind == .ad { contentToAdCount += 1 }
    if lastKind == .ad && presented.kind == .content { adToContentCount += 1 }
    lastKind = presented.kind
    condition.broadcast()
    condition.unlock()
  }

  /// Blue content has a low Cr (V) sample, red ads a high one: the chroma sample at the
  /// picture's centre decides (chroma planes are half width and half height).
  static func classify(_ frame: VideoFrame) -> FrameKind {
    let x = frame.width / 4
    let y = frame.height / 4
    let layout = frame.planeLayout
    let crSample: UInt8? = frame.withPlanes { planes -> UInt8? in
      switch layout {
      case .yuv420p where planes.count == 3:
        return planes[2].baseAddress[y * planes[2].bytesPerRow + x]
      case .nv12 where planes.count == 2:
        return planes[1].baseAddress[y * planes[1].bytesPerRow + 2 * x + 1]
      default:
        return nil
      }
    }
    guard let crSample else { return .unknown }
    if crSample >= 200 { return .ad }
    if crSample <= 150 { return .content }
    return .unknown
  }

  var presentedFrames: [PresentedFrame] {
    condition.lock()
    defer { condition.unlock() }
    return frames
  }

  /// Waits until `count` ad -> content switches were seen, `failure()` says why not, or
  /// `deadline` passes; nil on success, else the reason.
  func waitForSwitchesBack(
    _ count: Int, until deadline: Date, failure: () -> String?
  ) -> String? {
    condition.lock()
    defer { condition.unlock() }
    while adToContentCount < count {
      if let reason = failure() { return reason }
      if !condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.25))),
        Date() >= deadline
      {
        return
          "timed out: \(adToContentCount) of \(count) ad -> content switches and "
          + "\(contentToAdCount) content -> ad seen"
      }
    }
    return nil
  }
}

/// Notes the controller's failures and ends, for the waits to give up on.
final class PlayWatcher: PlaybackControllerDelegate, @unchecked Sendable {
  // Unchecked Sendable: every mutable property is guarded by `lock`.
  private let lock = NSLock()
  private var failureText: String?
  private var adSequenceExitCount = 0

  var failure: String? { lock.withLock { failureText } }
  var breaksPlayed: Int { lock.withLock { adSequenceExitCount } }

  func playbackController(
    _ controller: PlaybackController, playbackSession session: PlaybackSession,
    didReceive lifecycleEvent: LifecycleEvent
  ) {
    lock.withLock {
      switch lifecycleEvent.type {
      case .adSequenceExit:
        adSequenceExitCount += 1
      case .adError, .error, .fail:
        failureText =
          failureText
          ?? "\(lifecycleEvent.type): \(lifecycleEvent.error?.message ?? "no message")"
      case .end:
        failureText = failureText ?? "the content ended before every break was measured"
      default:
        break
      }
    }
  }

  func playbackController(_ controller: PlaybackController, noPlayableVideosFoundIn videos: [Video])
  {
    lock.withLock { failureText = failureText ?? "no playable video" }
  }
}

/// Records when the server answered each request for the ad's media.
final class AdRequestLog: Sendable {
  private let times = Locked<[UInt64]>([])

  var uptimesNs: [UInt64] { times.value }

  func note() { times.withLock { $0.append(uptimeNow()) } }
}

/// One switch each way of one break, in milliseconds.
struct BreakSwitch {
  var contentToAdGapMs: Double
  var adToContentGapMs: Double
  /// Whether the ad's media was asked for before the last content frame (prefetched).
  var wasRequestedAhead: Bool
}

enum BenchFailure: Error {
  case failed(String)
}

/// Plays the content with `breakCount` mid-rolls (at 4, 8, ... s) and measures each switch.
func measurePlay(
  server: HTTPTestServer, adRequests: AdRequestLog, breakCount: Int, prefetchLeadMs: Int
) throws(BenchFailure) -> (switches: [BreakSwitch], frameTimeMs: Double) {
  let ad = LinearAd(
    id: "switch-ad", duration: MediaTime(seconds: Benchmark.adSeconds, preferredTimescale: 1000),
    mediaFiles: [VASTMediaFile(url: server.url("/switch-ad.mp4").absoluteString, type: "video/mp4")]
  )
  let breaks = (1...breakCount).map { index in
    AdBreak(
      id: "mid\(index)",
      offset: .time(
        MediaTime(
          seconds: Double(index) * Benchmark.breakIntervalSeconds, preferredTimescale: 1000)),
      source: .ads([ad]))
  }
  var adsConfiguration = AdsConfiguration(schedule: .breaks(breaks))
  adsConfiguration.prefetchLeadMs = prefetchLeadMs
  let provider = PlayerSDKManager.shared.createAdsSessionProvider(
    upstream: nil, configuration: adsConfiguration)
  let sink = SwitchRecordingSink()
  let watcher = PlayWatcher()
  let controller = PlayerSDKManager.shared.createPlaybackController(
    sessionProvider: provider, viewStrategy: nil,
    playerConfiguration: PlayerConfiguration(videoSink: sink, isAudioDisabled: true),
    callbackQueue: DispatchQueue(label: "AdSwitchBench.callbacks"))
  controller.delegate = watcher
  controller.autoPlay = true
  let startNs = uptimeNow()
  controller.setVideos([Video(url: server.url("/switch-content.mp4"))])
  let limitSeconds =
    Double(breakCount) * (Benchmark.breakIntervalSeconds + Benchmark.adSeconds) + 30
  let timedOut = sink.waitForSwitchesBack(
    breakCount, until: Date(timeIntervalSinceNow: limitSeconds), failure: { watcher.failure })
  controller.close()
  if let timedOut {
    throw .failed("prefetchLeadMs \(prefetchLeadMs): \(timedOut)")
  }
  let frames = sink.presentedFrames
  if frames.contains(where: { $0.kind == .unknown }) {
    throw .failed("a frame was neither the content's blue nor the ad's red")
  }
  guard watcher.breaksPlayed >= breakCount else {
    throw .failed("\(watcher.breaksPlayed) adSequenceExit for \(breakCount) breaks")
  }
  var switches: [BreakSwitch] = []
  var previousBackNs = startNs
  var index = 1
  while index < frames.count {
    defer { index += 1 }
    guard frames[index - 1].kind == .content, frames[index].kind == .ad else { continue }
    let lastContentNs = frames[index - 1].uptimeNs
    let firstAdNs = frames[index].uptimeNs
    guard let back = frames[index...].firstIndex(where: { $0.kind == .content }) else { break }
    let lastAdNs = frames[back - 1].uptimeNs
    let firstContentNs = frames[back].uptimeNs
    let ahead = adRequests.uptimesNs.contains { $0 > previousBackNs && $0 < lastContentNs }
    switches.append(
      BreakSwitch(
        contentToAdGapMs: Double(firstAdNs - lastContentNs) / 1e6,
        adToContentGapMs: Double(firstContentNs - lastAdNs) / 1e6, wasRequestedAhead: ahead))
    previousBackNs = firstContentNs
    index = back
  }
  guard switches.count == breakCount else {
    throw .failed("found \(switches.count) switches for \(breakCount) breaks")
  }
  let frameTimeMs = frames.lazy.compactMap(\.durationMs).first ?? 40
  return (switches, frameTimeMs)
}

/// The median time of five loads of `url` through the player's data-source stack: what one
/// request costs on this server (its delay, plus the transfer).
func measureRoundTripMs(_ url: URL) -> Double {
  let loader = DataSourceStack().loader()
  var milliseconds: [Double] = []
  for _ in 0..<5 {
    let startNs = uptimeNow()
    do {
      _ = try loader.load(DataRequest(url: url))
    } catch {
      fail("loading \(url) failed: \(error.message)")
    }
    milliseconds.append(Double(uptimeNow() - startNs) / 1e6)
  }
  return median(milliseconds)
}

enum Benchmark {
  static let contentSeconds = 20.0
  static let adSeconds = 3.0
  static let breakIntervalSeconds = 4.0
  static let maxBreaksPerPlay = 4
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func fail(_ message: String, code: Int32 = 1) -> Never {
  FileHandle.standardError.write(Data("AdSwitchBench: \(message)\n".utf8))
  exit(code)
}

func run() {
  let arguments = CommandLine.arguments
  guard arguments.count == 3 || arguments.count == 4, let runs = Int(arguments[2]), runs > 0,
    let delayMs = arguments.count == 4 ? Int(arguments[3]) : 40, delayMs >= 0
  else { fail("usage: AdSwitchBench DIR RUNS [DELAY_MS]", code: 2) }
  let directory = URL(fileURLWithPath: arguments[1], isDirectory: true)
  for name in ["switch-content.mp4", "switch-ad.mp4"] {
    guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
    else { fail("\(name) is missing from \(directory.path)", code: 2) }
  }
  let server = HTTPTestServer(directory: directory)
  let adRequests = AdRequestLog()
  server.setResponseDelay(milliseconds: delayMs)
  server.setRequestGate { request in
    if request.path == "/switch-ad.mp4" { adRequests.note() }
    return nil
  }
  do {
    try server.start()
  } catch {
    fail("the loopback server did not start: \(error)")
  }
  defer { server.stop() }
  let roundTripMs = measureRoundTripMs(server.url("/switch-ad.mp4"))
  guard roundTripMs >= Double(delayMs) else {
    fail("a request took \(roundTripMs) ms, less than the server's \(delayMs) ms delay")
  }

  // The modes take turns, play by play, so that the machine's load weighs on both alike.
  let modes = [(name: "prefetched", leadMs: 5000), (name: "not prefetched", leadMs: 0)]
  var contentToAdMs: [[Double]] = [[], []]
  var adToContentMs: [[Double]] = [[], []]
  var requestedAhead = [0, 0]
  var frameTimeMs = 40.0
  var measured = 0
  while measured < runs {
    let breakCount = min(Benchmark.maxBreaksPerPlay, runs - measured)
    for (modeIndex, mode) in modes.enumerated() {
      do throws(BenchFailure) {
        let play = try measurePlay(
          server: server, adRequests: adRequests, breakCount: breakCount,
          prefetchLeadMs: mode.leadMs)
        frameTimeMs = play.frameTimeMs
        contentToAdMs[modeIndex] += play.switches.map(\.contentToAdGapMs)
        adToContentMs[modeIndex] += play.switches.map(\.adToContentGapMs)
        requestedAhead[modeIndex] += play.switches.filter(\.wasRequestedAhead).count
      } catch {
        switch error {
        case .failed(let message): fail("\(mode.name): \(message)")
        }
      }
    }
    measured += breakCount
  }

  func decimal(_ value: Double) -> String { String(format: "%.1f", value) }
  func frames(_ milliseconds: Double) -> String {
    String(format: "%.2f frames", milliseconds / frameTimeMs)
  }
  func row(_ label: String, _ values: [[Double]]) -> (line: String, prefetchedMs: Double) {
    let prefetchedMs = median(values[0])
    let referenceMs = median(values[1])
    let ratio = prefetchedMs > 0 ? String(format: "%.2f", referenceMs / prefetchedMs) : "-"
    let line =
      "  \(label)  prefetched \(decimal(prefetchedMs)) ms (\(frames(prefetchedMs)); "
      + "\(decimal(values[0].min() ?? 0))-\(decimal(values[0].max() ?? 0)))   "
      + "not prefetched \(decimal(referenceMs)) ms (\(frames(referenceMs)); "
      + "\(decimal(values[1].min() ?? 0))-\(decimal(values[1].max() ?? 0)))   "
      + "ratio not / prefetched = \(ratio)"
    return (line, prefetchedMs)
  }
  print(
    "Content -> ad -> content switch, mid-rolls over a loopback server with \(delayMs) ms "
      + "delay, real time, frame time \(decimal(frameTimeMs)) ms; median (min-max) of \(runs) "
      + "switches each way:")
  let toAd = row("content -> ad:", contentToAdMs)
  let toContent = row("ad -> content:", adToContentMs)
  print(toAd.line)
  print(toContent.line)
  print("  one request of the ad's media (median of 5): \(decimal(roundTripMs)) ms")
  print(
    "  ad media requested before the break: prefetched \(requestedAhead[0]) of \(runs), "
      + "not prefetched \(requestedAhead[1]) of \(runs)")
  let aimMs = 2 * frameTimeMs
  var misses: [String] = []
  if toAd.prefetchedMs >= aimMs { misses.append("content -> ad \(frames(toAd.prefetchedMs))") }
  if toContent.prefetchedMs >= aimMs {
    misses.append("ad -> content \(frames(toContent.prefetchedMs))")
  }
  let verdict = misses.isEmpty ? "met" : "MISSED (" + misses.joined(separator: ", ") + ")"
  print(
    "  aim (prefetched median under two frame times, \(decimal(aimMs)) ms, each way): \(verdict)")
}

run()
