import Foundation
import PlayheadCore
import PlayheadDASH
import PlayheadTestSupport
import XCTest

/// `../shared/interop/dash-peers`: MPDs from other projects' test suites with what their
/// tests assert (`*.expect.json`), read from there.
final class DASHPeerCorpusTests: XCTestCase {
  private struct Case {
    var name: String
    var mpd: Data
    var expect: [String: Any]
    var url: URL
  }

  private func cases() throws -> [Case] {
    let folder = try PeerCorpus.interopFolder("dash-peers")
    let manager = FileManager.default
    var names: [String] = []
    for project in try manager.contentsOfDirectory(atPath: folder.path).sorted() {
      let directory = folder.appendingPathComponent(project)
      guard (try? directory.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true
      else { continue }
      for file in try manager.contentsOfDirectory(atPath: directory.path).sorted()
      where file.hasSuffix(".mpd") {
        names.append("\(project)/\(file)")
      }
    }
    var result: [Case] = []
    for name in names {
      let mpd = try Data(contentsOf: folder.appendingPathComponent(name))
      let expectURL = folder.appendingPathComponent(
        String(name.dropLast(4)) + ".expect.json")
      let expect = try XCTUnwrap(
        JSONSerialization.jsonObject(with: Data(contentsOf: expectURL)) as? [String: Any], name)
      let url =
        (expect["manifestUrl"] as? String).flatMap(URL.init(string:))
        ?? URL(string: "https://peer.example/\(name)")!
      result.append(Case(name: name, mpd: mpd, expect: expect, url: url))
    }
    XCTAssertEqual(result.count, 129, "the corpus's cases (index.tsv's 113 and real-world's 16)")
    return result
  }

  /// The computed expectations of the real-world static MPDs: the first video
  /// Representation's init URL, segment count, first and last segments.
  func testRealWorldStaticMPDs_giveTheComputedSegments() throws {
    var checked = 0
    for item in try cases() where item.name.hasPrefix("real-world/") {
      guard item.expect["type"] as? String == "static",
        let first = item.expect["firstVideoRepresentation"] as? [String: Any],
        let count = first["segmentCount"] as? Int
      else { continue }
      let mpd = try MPDParser.parse(item.mpd, url: item.url)
      let period = mpd.periods[first["period"] as? Int ?? 0]
      let set = period.adaptationSets[try XCTUnwrap(first["adaptationSetIndex"] as? Int)]
      let representation = try XCTUnwrap(
        set.representations.first { $0.id == first["representationId"] as? String }, item.name)
      XCTAssertEqual(representation.bandwidth, first["bandwidth"] as? Int, item.name)
      if let initURL = first["initUrl"] as? String {
        XCTAssertEqual(representation.initialization?.url.absoluteString, initURL, item.name)
      }
      let segments = representation.segments(in: period)
      XCTAssertEqual(segments.count, count, item.name)
      var expected = (first["firstSegments"] as? [[String: Any]]) ?? []
      if let last = first["lastSegment"] as? [String: Any] { expected.append(last) }
      for segment in expected {
        let number = try XCTUnwrap(segment["number"] as? Int)
        let found = try XCTUnwrap(
          segments.first { $0.number == Int64(number) }, "\(item.name) #\(number)")
        XCTAssertEqual(found.url.absoluteString, segment["url"] as? String, item.name)
        XCTAssertEqual(
          found.start.seconds, try XCTUnwrap(segment["start"] as? Double), accuracy: 1e-6,
          item.name)
        XCTAssertEqual(
          found.duration.seconds, try XCTUnwrap(segment["duration"] as? Double), accuracy: 1e-6,
          item.name)
      }
      checked += 1
    }
    XCTAssertGreaterThanOrEqual(checked, 5, "the static real-world cases with segments")
  }

  /// The cases a peer refuses that Playhead's parser reads, and why: shaka is a player and
  /// refuses at parse time what Playhead reads into the model and leaves to its player
  /// (the Representation's addressing is `.unusable`, key systems are the player's
  /// choice), and where another peer's own test reads the same shape (media3, python-
  /// mpegdash), the lenient reading is the one kept.
  static let recordedReadings: [String: String] = [
    "shaka/fail-empty-period.mpd":
      "a Period without AdaptationSets is read (python-mpegdash's utc_timing.mpd must parse)",
    "shaka/fail-duplicate-representation-id-live.mpd":
      "duplicate Representation ids are read (media3's sample_mpd_switching_property.mpd"
      + " repeats them and must parse)",
    "shaka/fail-cp-no-common-key-system.mpd":
      "which key system plays is the player's choice, not the MPD reader's",
    "shaka/fail-segmentbase-no-index.mpd":
      "read with its addressing .unusable (python-mpegdash's sample-001.mpd has a SegmentBase"
      + " without @indexRange and must parse)",
    "shaka/fail-template-no-segment-info.mpd":
      "read with its addressing .unusable (media3's samples have SegmentTemplates without"
      + " @media and must parse)",
    "shaka/fail-list-no-duration.mpd": "read with its addressing .unusable",
    "shaka/fail-list-empty-timeline.mpd": "read with its addressing .unusable",
  ]

  /// Every case parses or is refused as its project's test says, but for the readings
  /// recorded above, each of which must still be read (and no other).
  func testEveryCase_parsesOrIsRefusedAsThePeerSays() throws {
    var disagreements: [String] = []
    for item in try cases() {
      let mustParse =
        (item.expect["parse"] as? String ?? "ok") == "ok"
        || Self.recordedReadings[item.name] != nil
      do {
        _ = try MPDParser.parse(item.mpd, url: item.url)
        if !mustParse { disagreements.append("\(item.name): parsed, the peer refuses it") }
      } catch {
        if mustParse { disagreements.append("\(item.name): \(error)") }
      }
    }
    XCTAssertEqual(disagreements, [], disagreements.joined(separator: "\n"))
  }
}
