import CFuzzerDriver
import Foundation
import FuzzSupport
import PlayheadHLS

/// The executable's entry point (SwiftPM defines `main` as `PlaylistFuzzer_main`): hands
/// the command line to libFuzzer's driver.
@_cdecl("PlaylistFuzzer_main")
public func playlistFuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    playlistFuzzerTestOneInput(data.map(UnsafeRawPointer.init), size)
  }
}

/// The libFuzzer entry point: parses the input as a playlist and, when it parses, checks
/// that writing it and parsing the text again gives the same model.
///
/// Any trap (a crash in the parser or writer, or a failed round trip) is a finding.
/// Inputs of odd length are parsed with imported master variables, to reach `IMPORT`.
@_cdecl("LLVMFuzzerTestOneInput")
public func playlistFuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = start.map { Data(bytes: $0, count: count) } ?? Data()
  let importing: [String: String]? =
    count % 2 == 1 ? ["base": "https://a.example/x", "v": "7"] : nil
  guard let first = try? parse(data, importing: importing) else { return 0 }
  // The writer cannot carry variable values that are themselves references, nor quotes
  // or line breaks in quoted values (documented); skip the round trip for those, but
  // still write them.
  if first.definitions.values.contains(where: { $0.contains("{$") || $0.contains("\"") }) {
    _ = PlaylistWriter.write(first)
    return 0
  }
  checkRoundTrip(
    first, text: "playlist", model: "model", write: PlaylistWriter.write,
    parse: { (written) throws(PlaylistParseError) in
      try parse(Data(written.utf8), importing: importing)
    }, compared: \.withoutWarnings)
  return 0
}

private let playlistURL = URL(string: "https://example.com/live/index.m3u8?token=abc&v=2")!

private func parse(_ data: Data, importing: [String: String]?) throws(PlaylistParseError)
  -> Playlist
{
  if let importing {
    return try PlaylistParser.parse(data, url: playlistURL, importing: importing)
  }
  return try PlaylistParser.parse(data, url: playlistURL)
}
