import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// An item's getters read the snapshot its playback loop publishes whole
/// (docs/decisions/0046): an event handler finds in them what the event reports, and a
/// thread that reads them while the player plays sees consistent values (run it under
/// the thread sanitizer too: `-sanitize=thread`).
final class ItemSnapshotTests: XCTestCase {
  private let base = URL(string: "http://snapshot.test/hls/")!

  /// The ladder over a link that falls to 300 kbit/s: start-up, switches, a stall, a
  /// seek and the end. Each handler checks the getters against what its event says.
  func testGettersReadInEventHandlers_alreadyShowWhatTheEventReports() throws {
    let findings = Locked([String]())
    let counts = Locked(EventCounts())
    let events = DispatchQueue(label: "item-snapshot.events")
    let seen = try play(
      observe: { player in
        player.addEventObserver(queue: events) { event in
          let problems = counts.withLock { counts in
            Self.check(event, against: &counts)
          }
          if !problems.isEmpty { findings.withLock { $0 += problems } }
        }
      }, whilePlaying: { _, _ in })
    events.sync {}
    let counted = counts.value
    XCTAssertGreaterThan(counted.stalls, 0, "the run must stall: \(seen)")
    XCTAssertGreaterThan(counted.variants, 1, "the run must switch: \(seen)")
    XCTAssertGreaterThan(counted.accessLogEntries, 0, "\(seen)")
    XCTAssertTrue(counted.ended, "\(seen)")
    XCTAssertEqual(findings.value, [])
  }

  /// A thread reads every getter of the player and its item, over and over, while the
  /// player plays: each read is a whole snapshot (no frame shows as rendered before it
  /// was decoded, counts and logs never go back, the time is a time).
  func testGettersReadFromAnotherThreadWhilePlaying_giveConsistentSnapshots() throws {
    let findings = Locked([String]())
    let reads = Locked(0)
    _ = try play(
      observe: { _ in },
      whilePlaying: { player, done in
        var last = PlaybackStatistics()
        var logs = (access: 0, errors: 0)
        while !done() {
          guard let item = player.currentItem else { continue }
          var problems: [String] = []
          _ = (player.rate, player.timeControlStatus, player.status, item.status)
          _ = (item.tracks, item.variants, item.renditions, item.currentVariant)
          _ = (item.loadedTimeRanges, item.seekableTimeRanges, item.bandwidthEstimate)
          _ = (item.isPlaybackBufferEmpty, item.isPlaybackLikelyToKeepUp)
          _ = (item.isPlaybackBufferFull, item.currentDownloadSpeed, item.textCues)
          _ = (item.audioRenditions, item.selectedAudioRendition, item.streamKind)
          let statistics = item.statistics
          if statistics.framesRendered + statistics.framesDropped > statistics.framesDecoded {
            problems.append("more frames presented than decoded: \(statistics)")
          }
          if statistics.framesDecoded < last.framesDecoded
            || statistics.framesRendered < last.framesRendered
            || statistics.stallCount < last.stallCount || statistics.bytesRead < last.bytesRead
            || statistics.variantSwitchCount < last.variantSwitchCount
          {
            problems.append("statistics went back: \(last) then \(statistics)")
          }
          last = statistics
          let access = item.accessLog().count
          let errors = item.errorLog().count
          if access < logs.access || errors < logs.errors { problems.append("a log shrank") }
          logs = (access, errors)
          let time = item.currentTime()
          if !time.isNumeric || time < .zero { problems.append("time \(time)") }
          if !problems.isEmpty { findings.withLock { $0 = Array(($0 + problems).prefix(5)) } }
          reads.withLock { $0 += 1 }
        }
      })
    XCTAssertGreaterThan(reads.value, 10, "the reader must read while the player plays")
    XCTAssertEqual(findings.value, [])
  }

  // MARK: Helpers

  /// What the event handler has seen so far.
  private struct EventCounts: Sendable {
    var stalls = 0
    var variants = 0
    var accessLogEntries = 0
    var errorLogEntries = 0
    var ended = false
  }

  /// Counts `event` and returns what the getters of its item contradict.
  private static func check(_ event: PlayerEvent, against counts: inout EventCounts) -> [String] {
    var problems: [String] = []
    func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
      if !condition { problems.append("\(event.name): " + message()) }
    }
    switch event.kind {
    case .itemStatusChanged(let item, .readyToPlay):
      expect(item.status == .readyToPlay, "status \(item.status)")
      expect(item.duration.isNumeric, "duration \(item.duration)")
      expect(!item.tracks.isEmpty && !item.variants.isEmpty, "no tracks or variants")
    case .firstFramePresented(let item):
      let statistics = item.statistics
      expect(statistics.timeToFirstFrame.isNumeric, "no time to first frame")
      expect(statistics.framesRendered > 0, "no frame rendered")
    case .variantChanged(let item, _, _):
      counts.variants += 1
      expect(item.currentVariant != nil, "no current variant")
      let switches = item.statistics.variantSwitchCount
      expect(switches >= counts.variants - 1, "\(switches) switches after \(counts.variants)")
    case .playbackStalled(let item):
      counts.stalls += 1
      let stalls = item.statistics.stallCount
      expect(stalls >= counts.stalls, "stall count \(stalls) after \(counts.stalls) stalls")
    case .playbackRecovered(let item):
      expect(item.statistics.totalStallTime > .zero, "no stall time")
    case .accessLogEntryAdded(let item):
      counts.accessLogEntries += 1
      let entries = item.accessLog().count
      expect(entries >= counts.accessLogEntries, "\(entries) access log entries")
    case .errorLogEntryAdded(let item, _):
      counts.errorLogEntries += 1
      let entries = item.errorLog().count
      expect(entries >= counts.errorLogEntries, "\(entries) error log entries")
    case .downloadSpeedChanged(let item, _):
      expect(item.currentDownloadSpeed != nil, "no download speed")
    case .didPlayToEnd(let item):
      counts.ended = true
      let statistics = item.statistics
      expect(item.accessLog().count >= counts.accessLogEntries, "access log behind")
      expect(
        statistics.framesRendered + statistics.framesDropped <= statistics.framesDecoded,
        "\(statistics)")
      expect(
        (item.currentTime() - item.duration).seconds.magnitude < 0.1,
        "ended at \(item.currentTime()) of \(item.duration)")
    default:
      break
    }
    return problems
  }

  /// Plays the fixture ladder over a link that falls from 3 Mbit/s to 300 kbit/s for 4 s,
  /// seeking back to 1 s at clock time 4 s; `observe` runs before `play()`, and
  /// `whilePlaying` on a thread of its own (not the clock's) until the item ended.
  /// Returns the names of the events.
  private func play(
    observe: (Player) -> Void,
    whilePlaying: @escaping @Sendable (Player, _ done: () -> Bool) -> Void
  ) throws -> [String] {
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 3_000, bandwidthKbps: 3_000, latencyMs: 20),
      .init(durationMs: 4_000, bandwidthKbps: 300, latencyMs: 60),
      .init(durationMs: 60_000, bandwidthKbps: 3_000, latencyMs: 20),
    ])
    var configuration = PlayerConfiguration.fast()
    configuration.network = SimulatedNetwork(
      resources: try ladder(), trace: trace, clock: configuration.clock)
    let clock = configuration.clock
    let (player, recorder) = clock.runAsWorker {
      let (player, recorder) = EventRecorder.recordingPlayer(
        url: base.appendingPathComponent("master.m3u8"), configuration: configuration)
      observe(player)
      clock.startThread(named: "test.seek") {
        clock.wait(until: .seconds(4), orUntil: WakeSignal())
        player.seek(to: .seconds(1))
      }
      player.play()
      return (player, recorder)
    }
    defer { player.close() }
    let ended = Locked(false)
    let readerDone = DispatchSemaphore(value: 0)
    Thread {
      whilePlaying(player) { ended.value }
      readerDone.signal()
    }.start()
    _ = recorder.waitForEnd()
    ended.withLock { $0 = true }
    readerDone.wait()
    player.close()
    recorder.queue.sync {}
    return recorder.names
  }

  /// The fixture ladder (master, three variants, six segments each), served from memory.
  private func ladder() throws -> [URL: Data] {
    var files: [URL: Data] = [:]
    var names = ["master.m3u8"]
    for variant in ["144p", "360p", "720p"] {
      names.append(variant + "/index.m3u8")
      names += (0..<6).map { String(format: "\(variant)/segment%03d.ts", $0) }
    }
    for name in names {
      files[base.appendingPathComponent(name)] = try Data(
        contentsOf: try Fixtures.url("hls/" + name))
    }
    return files
  }
}
