import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `ListPlayer` over six copies of the HLS fixture ladder (`/v1/…` to `/v6/…`, 144p
/// 155 kbit/s, 360p 527 kbit/s, 720p 1030 kbit/s, six 2-second segments each) served by
/// the local test server.
final class ListPlayerTests: XCTestCase {
  private let uids = ["v1", "v2", "v3", "v4", "v5", "v6"]

  private func makeList(
    server: HTTPTestServer, cache: MediaCache, autoPlay: Bool = false
  ) throws -> ListPlayer {
    var configuration = PlayerConfiguration.fast()
    configuration.cache = cache
    let list = ListPlayer(configuration: configuration)
    addTeardownBlock { list.close() }
    list.autoPlay = autoPlay
    for uid in uids { try list.add(url: server.url("/\(uid)/master.m3u8"), uid: uid) }
    return list
  }

  private func setUpServer() throws -> (HTTPTestServer, MediaCache) {
    let server = try PreloadFixtures.server(
      self, files: try PreloadFixtures.copies(prefixes: uids))
    return (server, try PreloadFixtures.cache(self))
  }

  /// Waits for every preload of the window to finish; returns the window then.
  private func settledWindow(
    _ list: ListPlayer, file: StaticString = #filePath, line: UInt = #line
  ) -> [ListPlayer.PreloadEntry] {
    for entry in list.preloadWindow {
      let state = list.loader.waitForTask(entry.taskID, timeoutMs: 60_000)
      XCTAssertEqual(state?.isFinished, true, "\(entry.uid)", file: file, line: line)
    }
    return list.preloadWindow
  }

  private func segments(_ server: HTTPTestServer, _ uid: String) -> [String] {
    server.requests.map(\.path).filter { $0.hasPrefix("/\(uid)/") && $0.hasSuffix(".ts") }
      .map { String($0.dropFirst(uid.count + 2)) }
  }

  func testWindow_countsBehindAndAhead_withTheDynamicDecrease_andNoByteFetchedTwice() throws {
    let (server, cache) = try setUpServer()
    let list = try makeList(server: server, cache: cache)
    list.updatePreloadConfig(PreloadConfig(durationMs: 5000))
    list.setPreloadCount(previous: 1, next: 3)
    try list.setStrategyParam(.dynamicPreload, json: #"{"algorithm": "sub","offset": "2000"}"#)
    list.enableStrategy(.dynamicPreload, true)
    XCTAssertEqual(list.dynamicPreload, ListPlayer.DynamicPreload(offsetMs: 2000))

    let events = EventRecorder(list.player)
    try list.moveTo(uid: "v1")
    var window = settledWindow(list)
    // v1 plays (paused) and loads until its buffer is full; moving on while one of its
    // segments is still in flight would cancel that transfer, and v1's preload as the
    // previous item would fetch the segment again.
    events.waitFor(event: "playbackBufferFull")
    XCTAssertEqual(window.map(\.uid), ["v2", "v3", "v4"])
    XCTAssertEqual(window.map(\.offset), [1, 2, 3])
    XCTAssertEqual(window.map(\.durationMs), [5000, 3000, 1000])
    XCTAssertTrue(window.allSatisfy { if case .completed = $0.state { true } else { false } })
    XCTAssertEqual(
      segments(server, "v2"), ["360p/segment000.ts", "360p/segment001.ts", "360p/segment002.ts"])
    XCTAssertEqual(segments(server, "v3"), ["360p/segment000.ts", "360p/segment001.ts"])
    XCTAssertEqual(segments(server, "v4"), ["360p/segment000.ts"])
    XCTAssertEqual(segments(server, "v5"), [])

    let firstTasks = Dictionary(uniqueKeysWithValues: window.map { ($0.uid, $0.taskID) })
    XCTAssertEqual(try list.moveToNext(), "v2")
    window = settledWindow(list)
    XCTAssertEqual(window.map(\.uid), ["v3", "v1", "v4", "v5"])
    XCTAssertEqual(window.map(\.offset), [1, -1, 2, 3])
    XCTAssertEqual(window.map(\.durationMs), [5000, 5000, 3000, 1000])
    // v3 and v4 now want more: only their missing segments are fetched, once each.
    XCTAssertEqual(
      segments(server, "v3"), ["360p/segment000.ts", "360p/segment001.ts", "360p/segment002.ts"])
    XCTAssertEqual(segments(server, "v4"), ["360p/segment000.ts", "360p/segment001.ts"])
    XCTAssertEqual(segments(server, "v5"), ["360p/segment000.ts"])
    XCTAssertNotEqual(window.first { $0.uid == "v3" }?.taskID, firstTasks["v3"])

    // Back: the window shrinks; v3 keeps its 5-second preload (it covers 3 seconds).
    XCTAssertEqual(try list.moveToPrevious(), "v1")
    window = settledWindow(list)
    XCTAssertEqual(window.map(\.uid), ["v2", "v3", "v4"])
    XCTAssertEqual(window.map(\.durationMs), [5000, 3000, 1000])
    for uid in uids {
      let fetched = server.requests.map(\.path).filter {
        $0.hasPrefix("/\(uid)/") && $0.hasSuffix(".ts")
      }
      XCTAssertEqual(
        fetched.count, Set(fetched).count, "\(uid) fetched a segment twice: \(fetched)")
    }
  }

  func testItemsLeavingTheWindow_haveTheirPreloadCancelled() throws {
    let (server, cache) = try setUpServer()
    server.setFault(.hang, for: "/v4/360p/segment000.ts")
    let list = try makeList(server: server, cache: cache)
    list.setPreloadCount(previous: 1, next: 3)
    try list.moveTo(uid: "v1")
    XCTAssertTrue(server.waitForRequests(count: 1))
    let hanging = try XCTUnwrap(list.preloadWindow.first { $0.uid == "v4" }?.taskID)
    try list.moveTo(uid: "v6")
    XCTAssertEqual(list.preloadWindow.map(\.uid), ["v5"])
    XCTAssertEqual(list.loader.waitForTask(hanging, timeoutMs: 60_000), .canceled)
    list.setPreloadCount(previous: 0, next: 0)
    XCTAssertEqual(list.preloadWindow, [])
  }

  func testPlayingAPreloadedItem_fetchesNoneOfItsPreloadedBytesAgain() throws {
    let (server, cache) = try setUpServer()
    let list = try makeList(server: server, cache: cache, autoPlay: true)
    list.updatePreloadConfig(PreloadConfig(durationMs: 4000))
    list.setPreloadCount(previous: 0, next: 1)
    let events = EventRecorder(list.player)
    try list.moveTo(uid: "v1")
    let window = settledWindow(list)
    XCTAssertEqual(window.map(\.uid), ["v2"])
    guard case .completed(let report)? = window.first?.state else {
      return XCTFail("v2 was not preloaded: \(window)")
    }
    events.waitFor(event: "didPlayToEnd")
    server.clearRequests()
    try list.moveToNext()
    events.waitFor(event: "didPlayToEnd", count: 2)
    let played = server.requests.map(\.path).filter { $0.hasPrefix("/v2/") }
    XCTAssertEqual(played.first, "/v2/master.m3u8")
    XCTAssertTrue(played.contains { $0.hasSuffix("/segment005.ts") }, "\(played)")
    for preloaded in report.resources.dropFirst() {
      XCTAssertFalse(played.contains(preloaded.path), "\(preloaded.path) was fetched again")
    }
  }

  /// The bitrate the player starts `target` on in `mode`, after: v2 preloaded at the
  /// 144p default, then v4 played at 720p (the default raised), and the default left at
  /// `finalDefault`.
  private func startBandwidth(
    mode: ListPlayer.MultiBitrateMode, target: String, finalDefault: Int,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> Int? {
    let (server, cache) = try setUpServer()
    let list = try makeList(server: server, cache: cache, autoPlay: true)
    let events = EventRecorder(list.player)
    func initialBandwidths(_ recorded: [PlayerEvent]) -> [Int] {
      recorded.compactMap { event -> Int? in
        guard case .variantChanged(_, let variant, .initial) = event.kind else { return nil }
        return variant.bandwidth
      }
    }
    func initialBandwidths() -> [Int] { initialBandwidths(events.events) }
    func waitForStarts(_ count: Int) {
      events.waitFor("\(count) initial variants", file: file, line: line) { recorded in
        initialBandwidths(recorded).count >= count
      }
    }
    list.setPreloadCount(previous: 0, next: 1)
    list.defaultBandwidth = 200_000
    try list.moveTo(uid: "v1")
    let window = settledWindow(list, file: file, line: line)
    guard case .completed(let report)? = window.first?.state else {
      XCTFail("v2 was not preloaded: \(window)", file: file, line: line)
      return nil
    }
    XCTAssertEqual(report.variant?.bandwidth, 155_664, file: file, line: line)
    waitForStarts(1)
    list.setPreloadCount(previous: 0, next: 0)
    list.defaultBandwidth = 1_100_000
    try list.moveTo(uid: "v4")
    waitForStarts(2)
    XCTAssertEqual(initialBandwidths().last, 1_030_240, file: file, line: line)
    list.defaultBandwidth = finalDefault
    list.multiBitrateMode = mode
    try list.moveTo(uid: target)
    waitForStarts(3)
    return initialBandwidths().last
  }

  func testMultiBitrateModes_chooseTheBitrateTheNextVideoStartsOn() throws {
    // Target v2: preloaded at 144p; the previous item played 720p; the default is 720p.
    let preloadedTarget: [(ListPlayer.MultiBitrateMode, Int)] = [
      (.default, 1_030_240), (.firstFramePriority, 155_664), (.balanced, 155_664),
      (.smoothPriority, 1_030_240),
    ]
    for (mode, expected) in preloadedTarget {
      XCTAssertEqual(
        try startBandwidth(mode: mode, target: "v2", finalDefault: 1_100_000), expected, "\(mode)")
    }
    // Target v5: not preloaded; the previous item played 720p; the default is 144p.
    let coldTarget: [(ListPlayer.MultiBitrateMode, Int)] = [
      (.firstFramePriority, 155_664), (.balanced, 1_030_240),
    ]
    for (mode, expected) in coldTarget {
      XCTAssertEqual(
        try startBandwidth(mode: mode, target: "v5", finalDefault: 200_000), expected, "\(mode)")
    }
  }

  func testBalancedAndSmooth_preloadAtThePlayingBitrate() throws {
    let (server, cache) = try setUpServer()
    let list = try makeList(server: server, cache: cache, autoPlay: true)
    list.setPreloadCount(previous: 0, next: 1)
    list.multiBitrateMode = .balanced
    list.defaultBandwidth = 1_100_000
    let events = EventRecorder(list.player)
    try list.moveTo(uid: "v1")
    events.waitFor(event: "trackChanged")
    list.defaultBandwidth = 200_000
    try list.moveTo(uid: "v3")
    let window = settledWindow(list)
    XCTAssertEqual(window.map(\.uid), ["v4"])
    XCTAssertEqual(window.first?.startPreference, .bandwidth(1_030_240))
    guard case .completed(let report)? = window.first?.state else {
      return XCTFail("v4 was not preloaded: \(window)")
    }
    XCTAssertEqual(report.variant?.height, 720)
  }

  func testRemoveAndClear_ofTheCurrentItem() throws {
    let (server, cache) = try setUpServer()
    let list = try makeList(server: server, cache: cache)
    list.setPreloadCount(previous: 1, next: 1)
    try list.moveTo(uid: "v3")
    XCTAssertEqual(list.preloadWindow.map(\.uid), ["v4", "v2"])
    try list.remove(uid: "v3")
    XCTAssertNil(list.currentUID)
    XCTAssertEqual(list.uids, ["v1", "v2", "v4", "v5", "v6"])
    XCTAssertEqual(list.preloadWindow, [], "no current item, no window")
    XCTAssertThrowsError(try list.moveToNext()) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidState)
    }
    try list.moveTo(uid: "v4")
    XCTAssertEqual(list.preloadWindow.map(\.uid), ["v5", "v2"])
    let tasks = list.preloadWindow.map(\.taskID)
    list.clear()
    XCTAssertEqual(list.uids, [])
    XCTAssertNil(list.currentUID)
    XCTAssertEqual(list.preloadWindow, [])
    for task in tasks {
      XCTAssertEqual(list.loader.waitForTask(task, timeoutMs: 60_000)?.isFinished, true)
    }
    try list.add(url: server.url("/v1/master.m3u8"), uid: "v1")
    try list.moveTo(uid: "v1")
    XCTAssertEqual(list.currentUID, "v1")
  }

  func testErrors_unknownAndDuplicateIDs_moveAtTheEnds_badStrategyParameters() throws {
    let (server, cache) = try setUpServer()
    let list = try makeList(server: server, cache: cache)
    func code(_ body: () throws -> Void) -> PlayheadError.Code? {
      do {
        try body()
        return nil
      } catch {
        return (error as? PlayheadError)?.code
      }
    }
    XCTAssertEqual(
      code { try list.add(url: server.url("/v1/master.m3u8"), uid: "v1") }, .invalidArgument)
    XCTAssertEqual(
      code { try list.add(url: server.url("/v1/master.m3u8"), uid: "") }, .invalidArgument)
    XCTAssertEqual(code { try list.moveTo(uid: "nope") }, .invalidArgument)
    XCTAssertEqual(code { try list.remove(uid: "nope") }, .invalidArgument)
    XCTAssertEqual(code { try list.moveToPrevious() }, .invalidState)
    try list.moveTo(uid: "v6")
    XCTAssertEqual(code { try list.moveToNext() }, .invalidState)
    XCTAssertEqual(list.currentUID, "v6")
    XCTAssertEqual(try list.moveToPrevious(), "v5")
    for bad in [
      "", "[1]", #"{"algorithm": "mul", "offset": "200"}"#, #"{"offset": "-5"}"#,
      #"{"offset": "ten"}"#, #"{"algorithm": "sub"}"#,
    ] {
      XCTAssertEqual(
        code { try list.setStrategyParam(.dynamicPreload, json: bad) }, .invalidArgument, bad)
    }
    try list.setStrategyParam(.dynamicPreload, json: #"{"algorithm": "sub", "offset": 300}"#)
    XCTAssertNil(list.dynamicPreload, "a parameter does not switch the strategy on")
    list.enableStrategy(.dynamicPreload, true)
    XCTAssertEqual(list.dynamicPreload?.offsetMs, 300)
    XCTAssertEqual(list.scene, .short)
    XCTAssertEqual(list.player.configuration.hls.scene, .short)
  }

  func testWithoutACache_preloadsFailWithATypedError() throws {
    let (server, _) = try setUpServer()
    let list = ListPlayer(configuration: .fast())
    addTeardownBlock { list.close() }
    list.autoPlay = false
    try list.add(url: server.url("/v1/master.m3u8"), uid: "v1")
    try list.add(url: server.url("/v2/master.m3u8"), uid: "v2")
    try list.moveTo(uid: "v1")
    let window = settledWindow(list)
    guard case .failed(let error)? = window.first?.state else {
      return XCTFail("expected a failed preload: \(window)")
    }
    XCTAssertEqual(error.code, .invalidState)
  }

  func testHugeCountsAndOffsets_neitherTrapNorHang() throws {
    let dynamic = ListPlayer.DynamicPreload(offsetMs: Int.max)
    XCTAssertLessThanOrEqual(dynamic.durationMs(baseMs: 1000, distance: 3), 0)
    XCTAssertLessThanOrEqual(
      ListPlayer.DynamicPreload(offsetMs: 1).durationMs(baseMs: Int.min, distance: 2), 0)
    XCTAssertEqual(dynamic.durationMs(baseMs: 1000, distance: 1), 1000)
    let list = ListPlayer(configuration: .fast())
    addTeardownBlock { list.close() }
    list.autoPlay = false
    try list.setStrategyParam(.dynamicPreload, json: #"{"offset": "4611686018427387904"}"#)
    for uid in ["a", "b", "c"] {
      try list.add(url: URL(string: "http://127.0.0.1:9/\(uid)/master.m3u8")!, uid: uid)
    }
    list.setPreloadCount(previous: Int.max, next: Int.max)
    let planned = expectation(description: "the window is planned")
    DispatchQueue.global().async {
      try? list.moveTo(uid: "b")
      list.enableStrategy(.dynamicPreload, true)
      planned.fulfill()
    }
    guard XCTWaiter().wait(for: [planned], timeout: 30) == .completed else {
      return XCTFail("planning the window with huge preload counts did not finish")
    }
    XCTAssertEqual(Set(list.preloadWindow.map(\.uid)), ["a", "c"])
  }
}
