import Foundation
import PlayheadMedia
import PlayheadTestSupport
import XCTest

/// libavfilter (and the thirty-odd libraries it links, about 11 MB resident) is mapped
/// only when a filter graph is built: `playhead play` without filters never loads it, with
/// an audio filter it does (decision 0042).
final class FilterLibraryLoadingTests: XCTestCase {
  /// The shared libraries mapped into the running `process`, by file name.
  private func mappedLibraries(of process: CLIProcess) throws -> Set<String> {
    // procfs files report no size: read to the end rather than by the size.
    let path = "/proc/\(process.process.processIdentifier)/maps"
    let handle = try XCTUnwrap(FileHandle(forReadingAtPath: path), path)
    defer { try? handle.close() }
    let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    var names = Set<String>()
    for line in maps.split(separator: "\n") {
      guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last,
        path.hasPrefix("/")
      else { continue }
      names.insert(String(path.split(separator: "/").last ?? ""))
    }
    return names
  }

  /// Plays the sample with `arguments` in real time and returns the libraries mapped once
  /// its first frame was shown; the player is then stopped with Ctrl-C.
  private func librariesWhilePlaying(_ arguments: [String]) throws -> Set<String> {
    let sample = try Fixtures.url("sample-h264-aac.mp4")
    let process = try CLIRunner.start(
      ["play", sample.path, "--no-window", "--json"] + arguments)
    defer {
      process.interrupt()
      _ = process.wait()
    }
    XCTAssertTrue(process.waitForOutput(containing: "\"firstFrame\""), "the sample plays")
    return try mappedLibraries(of: process)
  }

  func testPlayingWithoutFilters_neverMapsLibavfilter() throws {
    let libraries = try librariesWhilePlaying([])
    XCTAssertTrue(
      libraries.contains { $0.hasPrefix("libavcodec.so") }, "the maps were read: \(libraries)")
    XCTAssertFalse(libraries.contains { $0.hasPrefix("libavfilter.so") }, "\(libraries)")
    XCTAssertFalse(libraries.contains { $0.hasPrefix("libflite") }, "\(libraries)")
  }

  func testAnAudioFilter_loadsLibavfilter() throws {
    let libraries = try librariesWhilePlaying(["--audio-filter", "normalize"])
    XCTAssertTrue(libraries.contains { $0.hasPrefix("libavfilter.so") }, "\(libraries)")
  }

  func testATempoProcessor_leavesTheLibraryLoaded_andNamesItsVersion() throws {
    // A rate other than 1 runs the tempo filter, a graph.
    _ = try AudioTempoProcessor(format: .cd, rate: 1.5, algorithm: .timeDomain)
    XCTAssertTrue(MediaLibrary.isFilterLibraryLoaded)
    XCTAssertTrue(MediaLibrary.versions.contains("libavfilter 8."), MediaLibrary.versions)
  }
}
