import Foundation
import PlayheadHLS
import PlayheadTestSupport
import XCTest

/// Every playlist of the peer corpus (`shared/interop/hls-webvtt-peers`, read where it lies)
/// against the verdict Playhead decides for it (`PeerPlaylistVerdicts`): it parses (with
/// the peer's counts where its expectation gives them) or fails with an error kind on a
/// line; every playlist that parses survives `parse(write(p)) == parse(p)`. Where the
/// verdict differs from the peer's, the reason is recorded; the test fails when the
/// recorded disagreements and the real ones part.
final class PeerCorpusConformanceTests: XCTestCase {
  /// What Playhead did with one case.
  enum Outcome: Equatable {
    case parsed(Playlist)
    case failed(PlaylistParseError)

    var parses: Bool {
      if case .parsed = self { return true }
      return false
    }
  }

  func parse(_ peerCase: PeerCorpus.Case) throws -> Outcome {
    let data = try Data(contentsOf: peerCase.input)
    let context = PeerPlaylistVerdicts.contexts[peerCase.id]
    let url = URL(string: context?.url ?? "https://example.com/peer/\(peerCase.id).m3u8")!
    do {
      if let importing = context?.importing {
        return .parsed(try PlaylistParser.parse(data, url: url, importing: importing))
      }
      return .parsed(try PlaylistParser.parse(data, url: url))
    } catch {
      return .failed(error)
    }
  }

  func testEveryPeerPlaylist_meetsItsVerdict_andRoundTrips() throws {
    let cases = try PeerCorpus.cases(withExtension: "m3u8")
    XCTAssertEqual(cases.count, 634, "the corpus holds 634 playlists")
    var disagreements: [String] = []
    var agreeing = 0
    var counted = 0
    var dump: [String] = []
    for peerCase in cases {
      let outcome = try parse(peerCase)
      let peerAccepts = !PeerPlaylistVerdicts.peerRejects.contains(peerCase.id)
      if outcome.parses != peerAccepts {
        disagreements.append(peerCase.id)
      } else if !peerCase.isDerived {
        agreeing += 1
      }
      switch outcome {
      case .failed(let error):
        dump.append(
          "    \"\(peerCase.id)\": (.\(error.kind), \(error.line)),  // \(error.message.prefix(90))"
        )
        guard let expected = PeerPlaylistVerdicts.errors[peerCase.id] else {
          XCTFail("\(peerCase.id): expected to parse, failed: \(error)")
          continue
        }
        XCTAssertEqual(error.kind, expected.kind, "\(peerCase.id): \(error)")
        XCTAssertEqual(error.line, expected.line, "\(peerCase.id): \(error)")
        if error.kind != .emptyPlaylist {
          XCTAssertGreaterThan(error.line, 0, "\(peerCase.id): the error names its line")
        }
      case .parsed(let playlist):
        if let expected = PeerPlaylistVerdicts.errors[peerCase.id] {
          XCTFail("\(peerCase.id): parsed, expected \(expected.kind) on line \(expected.line)")
        }
        assertRoundTrip(playlist, peerCase)
        counted += try assertPeerCounts(playlist, peerCase)
      }
    }
    if ProcessInfo.processInfo.environment["PLAYHEAD_PEER_DUMP"] != nil {
      print(dump.joined(separator: "\n"))
      print("DISAGREE " + disagreements.map { "\"\($0)\"" }.joined(separator: ", "))
    }
    XCTAssertEqual(
      Set(disagreements), Set(PeerPlaylistVerdicts.disagreements.keys),
      "recorded disagreements must be the real ones")
    let original = cases.filter { !$0.isDerived }.count
    XCTAssertEqual(original, 576)
    print(
      "peer corpus: \(agreeing) of \(original) original playlists agree with their peer; \(counted) count checks"
    )
    XCTAssertGreaterThanOrEqual(agreeing, PeerPlaylistVerdicts.minimumAgreeing)
  }

  /// `parse(write(p)) == parse(p)`, warnings aside.
  func assertRoundTrip(_ playlist: Playlist, _ peerCase: PeerCorpus.Case) {
    let written = PlaylistWriter.write(playlist)
    let context = PeerPlaylistVerdicts.contexts[peerCase.id]
    do {
      let again: Playlist
      if let importing = context?.importing {
        again = try PlaylistParser.parse(written, url: playlist.url, importing: importing)
      } else {
        again = try PlaylistParser.parse(written, url: playlist.url)
      }
      XCTAssertEqual(
        again.withoutWarnings, playlist.withoutWarnings,
        "\(peerCase.id): the written playlist parses differently:\n\(written)")
    } catch {
      XCTFail("\(peerCase.id): the written playlist does not parse: \(error)\n\(written)")
    }
  }

  /// Checks the counts the peer's expectation gives; returns how many were checked.
  func assertPeerCounts(_ playlist: Playlist, _ peerCase: PeerCorpus.Case) throws -> Int {
    var expected = PeerPlaylistVerdicts.counts[peerCase.id] ?? [:]
    if peerCase.expectation.pathExtension == "json" {
      expected.merge(try Self.videojsCounts(peerCase.expectation)) { table, _ in table }
    }
    var checked = 0
    for (name, value) in expected.sorted(by: { $0.key < $1.key }) {
      let actual: Int?
      switch (name, playlist) {
      case ("segments", .media(let media)): actual = media.segments.count
      case ("targetDuration", .media(let media)): actual = media.targetDuration
      case ("mediaSequence", .media(let media)): actual = media.mediaSequence
      case ("discontinuitySequence", .media(let media)): actual = media.discontinuitySequence
      case ("endList", .media(let media)): actual = media.endList ? 1 : 0
      case ("renditionReports", .media(let media)): actual = media.renditionReports.count
      case ("trailingParts", .media(let media)): actual = media.trailingParts.count
      case ("variants", .master(let master)): actual = master.variants.count
      case ("iFrameVariants", .master(let master)): actual = master.iFrameVariants.count
      default: actual = nil
      }
      XCTAssertEqual(actual, value, "\(peerCase.id): \(name)")
      checked += 1
    }
    return checked
  }

  func testMissingCorpus_isAnError_notAnEmptyPass() {
    XCTAssertThrowsError(
      try PeerCorpus.cases(withExtension: "m3u8", file: "/nowhere/Tests/X.swift"))
    XCTAssertNoThrow(try PeerCorpus.folder())
  }

  /// The disagreements by reason, for the report.
  func testDisagreements_haveAReasonEach_andEveryReasonIsUsed() {
    let used = Set(PeerPlaylistVerdicts.disagreements.values)
    XCTAssertEqual(used, Set(PeerPlaylistVerdicts.Reason.allCases))
    for reason in PeerPlaylistVerdicts.Reason.allCases {
      let count = PeerPlaylistVerdicts.disagreements.values.filter { $0 == reason }.count
      print("disagreement \(reason): \(count) — \(reason.rawValue)")
    }
  }

  /// The counts a videojs expectation (the parser's whole manifest as JSON) gives.
  static func videojsCounts(_ url: URL) throws -> [String: Int] {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    guard let root = object as? [String: Any], let manifest = root["expected"] as? [String: Any]
    else { return [:] }
    var counts: [String: Int] = [:]
    if let playlists = manifest["playlists"] as? [Any] {
      counts["variants"] = playlists.count
      return counts
    }
    if let segments = manifest["segments"] as? [Any] { counts["segments"] = segments.count }
    for name in ["targetDuration", "mediaSequence", "discontinuitySequence"] {
      if let value = manifest[name] as? Int { counts[name] = value }
    }
    if let endList = manifest["endList"] as? Bool { counts["endList"] = endList ? 1 : 0 }
    return counts
  }
}
