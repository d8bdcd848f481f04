import CFuzzerDriver
import Foundation
import FuzzSupport
import PlayheadCore
import PlayheadSDK

/// The executable's entry point (SwiftPM defines `main` as `CatalogJSONFuzzer_main`):
/// hands the command line to libFuzzer's driver.
@_cdecl("CatalogJSONFuzzer_main")
public func catalogJSONFuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    catalogJSONFuzzerTestOneInput(data.map(UnsafeRawPointer.init), size)
  }
}

/// Small limits, used for inputs whose length is a multiple of 3, to reach the limit paths.
private let smallLimits = JSONReader.Limits(maxDepth: 4, maxStringBytes: 24, maxNumberLength: 12)

/// The libFuzzer entry point: the input is a Playback API response body.
///
/// Checks, for every input, that the bounded reader's work is linear (at most 4 units a
/// byte), that a value it reads is written back (`jsonData`) to text that reads back
/// equal, and that the catalog mapping (`PlaybackService.videoResult` and
/// `playlistResult`, the path of `findVideo` and `findPlaylist`) and the error-body reader
/// (`PlaybackAPIError.list`) end in a value or a typed error; a mapped video's JSON maps
/// back to the same video. Any trap is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func catalogJSONFuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = start.map { Data(bytes: $0, count: count) } ?? Data()
  let limits: JSONReader.Limits = count % 3 == 0 ? smallLimits : .standard
  checkReader(data, limits: limits)

  _ = PlaybackAPIError.list(from: data).map(\.summary)
  if let result = typed({ () throws(PlaybackServiceError) in
    try PlaybackService.videoResult(responseBody: data)
  }) {
    _ = (result.video.sources, result.video.cuePoints, result.video.duration, result.warnings)
    let again = typed { () throws(PlayheadSDKError) in try Video(json: result.video.json) }
    precondition(again == result.video, "a mapped video's JSON maps to another video")
  }
  if let result = typed({ () throws(PlaybackServiceError) in
    try PlaybackService.playlistResult(responseBody: data)
  }) {
    let again = typed { () throws(PlayheadSDKError) in try Playlist(json: result.playlist.json) }
    precondition(again == result.playlist, "a mapped playlist's JSON maps to another playlist")
  }
  return 0
}

/// The reader's own contract on `data`.
func checkReader(_ data: Data, limits: JSONReader.Limits) {
  var units = 0
  let value: JSONValue
  do {
    value = try JSONReader.read(data, limits: limits, workUnits: &units)
  } catch {
    precondition(error.code == .malformedJSON && !error.message.isEmpty)
    precondition(!error.message.contains("\n"), "a message on two lines: \(error.message)")
    precondition(units <= 4 * data.count + 16, "\(units) work units for \(data.count) bytes")
    return
  }
  precondition(units <= 4 * data.count + 16, "\(units) work units for \(data.count) bytes")
  let written: Data
  do {
    written = try value.jsonData()
  } catch {
    preconditionFailure("a value read cannot be written: \(error.message)")
  }
  // Read back with the standard limits: the writer may spell a number longer than the
  // input did (`4.0e14` becomes `400000000000000`), past the small limits' 12 characters.
  do {
    let reread = try JSONReader.read(written)
    precondition(reread == value, "written text reads back as another value")
  } catch {
    preconditionFailure("written text does not read back: \(error.message)")
  }
}
