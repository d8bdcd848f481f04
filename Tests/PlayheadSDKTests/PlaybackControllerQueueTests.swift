import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// The controller's list: sessions in order, autoAdvance, insertion, the end of the list.
final class PlaybackControllerQueueTests: XCTestCase {
  private func threeVideos() throws -> [Video] {
    [
      SDKTesting.video(id: "a", url: try Fixtures.url("alpha-left.mp4")),
      SDKTesting.video(id: "b", url: try Fixtures.url("sample-audio.mp3")),
      SDKTesting.video(id: "c", url: try Fixtures.url("alpha-left.mp4")),
    ]
  }

  func testThreeVideosWithAutoAdvancePlayToTheEndInOrder() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.autoAdvance = true
    controller.autoPlay = true
    controller.setVideos(try threeVideos())
    recorder.waitFor(kind: "complete")
    let sessions = recorder.sessions
    XCTAssertEqual(sessions.map(\.video.id), ["a", "b", "c"])
    XCTAssertEqual(recorder.entries.filter { $0.kind == "complete" }.count, 1)
    for session in sessions {
      let events = recorder.lifecycle(of: session)
      XCTAssertEqual(events.filter { $0 == "end" }.count, 1, "\(session.video.id ?? ""): \(events)")
      XCTAssertEqual(events.first, "ready", "\(events)")
    }
    // The first two were discarded when the controller moved on; the last one is current.
    XCTAssertTrue(sessions[0].isTerminated)
    XCTAssertTrue(sessions[1].isTerminated)
    XCTAssertTrue(recorder.lifecycle(of: sessions[0]).contains("terminate"))
    XCTAssertFalse(sessions[2].isTerminated)
    XCTAssertEqual(controller.currentSession, sessions[2])
    // Every session reached its end: the audio one decoded all its samples.
    XCTAssertEqual(sessions[1].playerItem?.statistics.audioSamplesDecoded ?? 0 > 0, true)
    XCTAssertEqual(
      recorder.entries.first { $0.kind == "mediaType" && $0.sessionID == sessions[1].id }?.detail,
      "audioOnly")
  }

  func testWithoutAutoAdvanceTheControllerStopsAfterTheFirstVideo() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.autoPlay = true
    XCTAssertFalse(controller.autoAdvance, "autoAdvance defaults to false")
    controller.setVideos(try threeVideos())
    recorder.waitFor(lifecycle: "end")
    // Any advance would have been queued on the controller before the end was delivered;
    // reading the current session waits for the controller's queue.
    let first = try XCTUnwrap(recorder.sessions.first)
    XCTAssertEqual(controller.currentSession, first)
    XCTAssertEqual(recorder.sessions.count, 1)
    XCTAssertFalse(recorder.entries.contains { $0.kind == "complete" })
    // advanceToNext moves on by hand.
    controller.advanceToNext()
    recorder.waitFor("second session") { $0.filter { $0.kind == "advanced" }.count == 2 }
    XCTAssertEqual(recorder.sessions.last?.video.id, "b")
    XCTAssertTrue(first.isTerminated)
  }

  func testInsertAfterTheFirstVideoPlaysItSecond() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.autoAdvance = true
    controller.autoPlay = true
    let videos = try threeVideos()
    controller.setVideos([videos[0], videos[2]])
    controller.insert(video: videos[1], afterVideoAt: 0)
    controller.insert(
      video: SDKTesting.video(id: "x", url: try Fixtures.url("alpha-left.mp4")), afterVideoAt: 7)
    recorder.waitFor(kind: "complete")
    XCTAssertEqual(recorder.sessions.map(\.video.id), ["a", "b", "c"])
    let inserted = try XCTUnwrap(recorder.entries.first { $0.kind == "inserted" })
    XCTAssertEqual(inserted.detail, "1")
    XCTAssertEqual(inserted.videoID, "b")
    let failed = try XCTUnwrap(recorder.entries.first { $0.kind == "insertFailed" })
    XCTAssertEqual(failed.videoID, "x")
    XCTAssertEqual(controller.queuedVideos.map(\.id), ["a", "b", "c"])
  }

  func testSetVideosReplacesTheCurrentSession() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    let videos = try threeVideos()
    controller.setVideos([videos[0]])
    recorder.waitFor(lifecycle: "ready")
    let first = try XCTUnwrap(recorder.sessions.first)
    controller.setVideos([videos[1]])
    recorder.waitFor("second session") { $0.filter { $0.kind == "advanced" }.count == 2 }
    XCTAssertTrue(first.isTerminated)
    XCTAssertEqual(recorder.lifecycle(of: first).last, "terminate")
    XCTAssertEqual(recorder.sessions.last?.video.id, "b")
  }

  func testNoPlayableSourceFailsTheSessionAndAutoAdvanceMovesOn() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.autoAdvance = true
    controller.autoPlay = true
    let noSource = Video(sources: [], properties: ["id": "empty"])
    controller.setVideos([
      noSource, SDKTesting.video(id: "b", url: try Fixtures.url("alpha-left.mp4")),
    ])
    recorder.waitFor(kind: "complete")
    let sessions = recorder.sessions
    XCTAssertEqual(sessions.map(\.video.id), ["empty", "b"])
    XCTAssertNil(sessions[0].player)
    XCTAssertEqual(sessions[0].setupError?.code, .noPlayableSource)
    let fail = try XCTUnwrap(
      recorder.entries.first { $0.kind == "lifecycle" && $0.detail == "fail" })
    XCTAssertEqual(fail.sessionID, sessions[0].id)
    XCTAssertEqual(fail.error?.code, .noPlayableStreams)
    XCTAssertTrue(fail.error?.message.contains("no playable source") ?? false)
    XCTAssertTrue(recorder.lifecycle(of: sessions[1]).contains("end"))
  }

  func testAListWithoutSourcesReportsNoPlayableVideos() {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.setVideos([Video(sources: [])])
    recorder.waitFor(kind: "noPlayable")
    controller.setVideos([])
    recorder.waitFor("second report") { $0.filter { $0.kind == "noPlayable" }.count == 2 }
  }

  func testAMissingFileFailsTheSession() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    let missing = URL(fileURLWithPath: "/nonexistent/playhead/missing.mp4")
    controller.setVideos([SDKTesting.video(id: "m", url: missing)])
    recorder.waitFor(lifecycle: "fail")
    let fail = try XCTUnwrap(recorder.entries.first { $0.detail == "fail" })
    XCTAssertEqual(fail.error?.code, .fileNotFound, "\(String(describing: fail.error))")
  }
}
