import Foundation
import Playhead
import PlayheadTestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// `playhead download <url> --out DIR` run as a subprocess: killed with SIGKILL at random
/// points and resumed, failing and resumed, encrypted at rest, and played from DIR with the
/// server stopped.
final class DownloadCommandTests: XCTestCase {
  /// The files the hls-alt download with French audio and English subtitles fetches, by
  /// their local path in DIR.
  private static let altFiles: [(local: String, served: String)] =
    (0..<5).map { ("video/seg0000\($0).ts", "hls-alt/video/segment00\($0).ts") }
    + (0..<5).map { ("audio/seg0000\($0).ts", "hls-alt/audio-fr/segment00\($0).ts") }
    + (0..<5).map { ("subtitles/seg0000\($0).vtt", "hls-alt/subs-en/segment00\($0).vtt") }

  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func sha256(_ url: URL) throws -> String {
    SHA256.hex(try SHA256.digest(ofFileAt: url))
  }

  func testKilledAtRandomPoints_resumesToAByteIdenticalDownloadThatPlays() throws {
    let server = try startServer()
    for file in Self.altFiles {
      server.setFault(.slow(bytesPerSecond: 60_000), for: "/" + file.served)
    }
    let out = try makeTemporaryDirectory().appendingPathComponent("alt")
    let arguments = [
      "download", server.url("/hls-alt/master.m3u8").absoluteString, "--out", out.path,
      "--audio", "fr", "--subtitles", "en", "--quiet",
    ]
    // Four runs, each killed once the server has sent a seeded random number of body bytes
    // in that run (1–40 kB of the ~207 kB the download fetches, sent at 60 kB/s in 1.2 kB
    // writes), so that the kill lands inside a segment's transfer; seeded, so a failure
    // replays.
    var random = SplitMix64(seed: 0x5EED_0FF1)
    let killPoints = (0..<4).map { _ in 1_000 + Int(random.next() % 39_000) }
    var kills = 0
    var partials = 0
    for killPoint in killPoints {
      server.resetSentBodyBytes()
      let process = Process()
      process.executableURL = try CLIRunner.binary()
      process.arguments = arguments
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      process.standardInput = FileHandle.nullDevice
      try process.run()
      // Waits (in short condition waits) for the kill point or for the process to end.
      var reached = false
      while process.isRunning && !reached {
        reached = server.waitForSentBodyBytes(atLeast: killPoint, timeoutMs: 200)
      }
      if reached && process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        kills += 1
      }
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal {
        XCTAssertFalse(
          FileManager.default.fileExists(
            atPath: out.appendingPathComponent(OfflineManifest.fileName).path),
          "a killed download never has a manifest")
        partials += try Self.altFiles.filter { file in
          let local = out.appendingPathComponent(file.local).path
          let size = (try? FileManager.default.attributesOfItem(atPath: local)[.size] as? Int) ?? 0
          let full = try Data(contentsOf: Fixtures.url(file.served)).count
          return size > 0 && size < full
        }.count
      }
    }
    XCTAssertGreaterThanOrEqual(kills, 3, "kill points \(killPoints)")
    XCTAssertGreaterThan(partials, 0, "no kill left a partially written file")
    print(
      "download killed \(kills) times after \(killPoints) body bytes; partial files: \(partials)")

    for file in Self.altFiles { server.setFault(nil, for: "/" + file.served) }
    let final = try CLIRunner.run(arguments.filter { $0 != "--quiet" })
    assertStatus(final, 0)
    XCTAssertTrue(
      final.stdout.contains("completed: ") || final.stdout.contains("already complete: "),
      final.stdout)
    server.stop()

    for file in Self.altFiles {
      XCTAssertEqual(
        try sha256(out.appendingPathComponent(file.local)),
        try sha256(try Fixtures.url(file.served)),
        file.local)
    }
    let asset = try OfflineAsset(folderURL: out)
    try asset.verify()
    let played = try CLIRunner.run(["play", out.path, "--fast", "--json"])
    assertStatus(played, 0)
    let summary = played.jsonLines().first { $0["event"] as? String == "summary" }
    XCTAssertEqual(summary?["outcome"] as? String, "ended")
    XCTAssertEqual(summary?["framesDecoded"] as? Int, 250)
  }

  func testServerFailure_exits3WithAResumeHint_andARerunCompletes() throws {
    let server = try startServer()
    server.setFault(.status(500), for: "/hls/144p/segment003.ts")
    let out = try makeTemporaryDirectory().appendingPathComponent("dl")
    let arguments = [
      "download", server.url("/hls/master.m3u8").absoluteString, "--out", out.path,
      "--rendition", "0", "--retries", "0", "--json",
    ]
    let failed = try CLIRunner.run(arguments)
    assertStatus(failed, 3)
    XCTAssertTrue(failed.stderr.contains("run the same command again to resume"), failed.stderr)
    XCTAssertTrue(failed.jsonLines().contains { $0["event"] as? String == "failed" })
    XCTAssertFalse(
      FileManager.default.fileExists(
        atPath: out.appendingPathComponent(OfflineManifest.fileName).path))

    server.setFault(nil, for: "/hls/144p/segment003.ts")
    server.clearRequests()
    let resumed = try CLIRunner.run(arguments)
    assertStatus(resumed, 0)
    let lines = resumed.jsonLines()
    XCTAssertTrue(lines.contains { $0["event"] as? String == "progress" })
    let completed = lines.first { $0["event"] as? String == "completed" }
    XCTAssertEqual(completed?["encrypted"] as? Bool, false)
    XCTAssertEqual(server.requestCount(for: "/hls/144p/segment000.ts"), 0)

    let again = try CLIRunner.run(arguments)
    assertStatus(again, 0)
    XCTAssertTrue(
      again.jsonLines().contains { $0["alreadyComplete"] as? Bool == true }, again.stdout)
    server.stop()
    let played = try CLIRunner.run(["play", out.path, "--fast", "--quiet"])
    assertStatus(played, 0)
  }

  func testEncryptedDownload_playsOnlyWithItsKey() throws {
    let server = try startServer()
    let out = try makeTemporaryDirectory().appendingPathComponent("secure")
    let key = "00112233445566778899aabbccddeeff"
    let download = try CLIRunner.run([
      "download", server.url("/sample-h264-aac.mp4").absoluteString, "--out", out.path,
      "--encrypt-key-hex", key, "--quiet",
    ])
    assertStatus(download, 0)
    server.stop()
    XCTAssertNotEqual(
      try sha256(out.appendingPathComponent("media.mp4")),
      try sha256(try Fixtures.url("sample-h264-aac.mp4")))
    let missing = try CLIRunner.run(["play", out.path, "--fast", "--quiet"])
    assertStatus(missing, 4)
    XCTAssertTrue(missing.stderr.contains("missing key"), missing.stderr)
    let wrong = try CLIRunner.run([
      "play", out.path, "--fast", "--quiet", "--decrypt-key-hex", String(key.reversed()),
    ])
    assertStatus(wrong, 4)
    XCTAssertTrue(wrong.stderr.contains("wrong key"), wrong.stderr)
    let right = try CLIRunner.run([
      "play", out.path, "--fast", "--quiet", "--decrypt-key-hex", key,
    ])
    assertStatus(right, 0)
  }

  func testTwoRunsIntoOneFolder_theSecondIsRefused() throws {
    let server = try startServer()
    for index in 0..<6 {
      server.setFault(.slow(bytesPerSecond: 20_000), for: "/hls/144p/segment00\(index).ts")
    }
    let out = try makeTemporaryDirectory().appendingPathComponent("busy")
    let arguments = [
      "download", server.url("/hls/master.m3u8").absoluteString, "--out", out.path,
      "--rendition", "0", "--quiet",
    ]
    let first = Process()
    first.executableURL = try CLIRunner.binary()
    first.arguments = arguments
    first.standardOutput = FileHandle.nullDevice
    first.standardError = FileHandle.nullDevice
    try first.run()
    defer {
      if first.isRunning { kill(first.processIdentifier, SIGKILL) }
      first.waitUntilExit()
    }
    XCTAssertTrue(server.waitForRequests(count: 6, timeoutMs: 60_000), "the first run started")
    let second = try CLIRunner.run(arguments)
    assertStatus(second, 2)
    XCTAssertTrue(second.stderr.contains("another playhead download is writing"), second.stderr)
  }

  func testMistakes_exit2() throws {
    let server = try startServer()
    let url = server.url("/hls/master.m3u8").absoluteString
    let busy = try makeTemporaryDirectory()
    try Data("x".utf8).write(to: busy.appendingPathComponent("other.txt"))
    let cases: [[String]] = [
      ["download", url],
      ["download", "--out", busy.path],
      ["download", url, "--out", "/tmp/x", "--rendition", "1", "--max-bitrate", "100"],
      ["download", url, "--out", "/tmp/x", "--encrypt-key-hex", "abc"],
      ["download", url, "--out", "/tmp/x", "--audio", "!!"],
      ["download", url, "--out", busy.path],
      ["download", url, "--out", "/tmp/x", "--rendition", "7"],
      ["play", busy.path, "--decrypt-key-hex", "12"],
    ]
    for arguments in cases {
      let result = try CLIRunner.run(arguments)
      XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
      XCTAssertEqual(
        result.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead: ") }.count, 1,
        "\(arguments): \(result.stderr)")
    }
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: busy.path), ["other.txt"],
      "a refused folder is left as it was")
    let help = try CLIRunner.run(["download", "--help"])
    assertStatus(help, 0)
    XCTAssertTrue(help.stdout.contains("--encrypt-key-hex"))
    XCTAssertTrue(try CLIRunner.run(["--help"]).stdout.contains("download"))
  }
}

/// A small seeded random number generator (SplitMix64), so that random kill points replay.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
