import CFuzzerDriver
import Foundation
import FuzzSupport
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadSDK

/// The executable's entry point (SwiftPM defines `main` as `PlaylistJSONFuzzer_main`):
/// hands the command line to libFuzzer's driver.
@_cdecl("PlaylistJSONFuzzer_main")
public func playlistJSONFuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    playlistJSONFuzzerTestOneInput(data.map(UnsafeRawPointer.init), size)
  }
}

/// The libFuzzer entry point: the input is a playlist file (`playhead play --playlist`,
/// `Playlist(jsonData:)`), and also the other JSON inputs Playhead reads: a video
/// (`Video(jsonData:)`), a list-player strategy parameter, a network trace and an offline
/// manifest.
///
/// A playlist or video that reads is written back (`json`, `jsonData`) to text that reads
/// as the same value; every failure is a typed error with a one-line message. Any trap is a
/// finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func playlistJSONFuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = start.map { Data(bytes: $0, count: count) } ?? Data()
  if let playlist = typed({ () throws(PlayheadSDKError) in try Playlist(jsonData: data) }) {
    _ = playlist.videos.map { ($0.sources, $0.cuePoints, $0.duration, $0.textTracks) }
    let again = typed { () throws(PlayheadSDKError) in
      try Playlist(jsonData: playlist.json.jsonData())
    }
    precondition(again == playlist, "a playlist written and read again is another playlist")
  }
  if let video = typed({ () throws(PlayheadSDKError) in try Video(jsonData: data) }) {
    let again = typed { () throws(PlayheadSDKError) in try Video(jsonData: video.json.jsonData()) }
    precondition(again == video, "a video written and read again is another video")
  }
  expectTyped { () throws(PlayheadError) in
    _ = try ListPlayer.DynamicPreload(json: String(decoding: data, as: UTF8.self))
  }
  expectTyped { () throws(PlayheadError) in _ = try NetworkTrace.decode(data) }
  expectTyped { () throws(PlayheadError) in _ = try OfflineManifest.decode(data) }
  return 0
}

/// Runs `body`; an error must be a one-line `PlayheadError`.
private func expectTyped(_ body: () throws(PlayheadError) -> Void) {
  _ = typed(body)
}
