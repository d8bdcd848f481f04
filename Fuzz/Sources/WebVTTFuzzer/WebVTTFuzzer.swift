import CFuzzerDriver
import Foundation
import FuzzSupport
import PlayheadCore
import PlayheadText

/// The executable's entry point (SwiftPM defines `main` as `WebVTTFuzzer_main`): hands the
/// command line to libFuzzer's driver.
@_cdecl("WebVTTFuzzer_main")
public func webVTTFuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    webVTTFuzzerTestOneInput(data.map(UnsafeRawPointer.init), size)
  }
}

/// Small limits, used for inputs whose length is a multiple of 3, to reach the limit paths.
private let smallLimits = WebVTTParserLimits(maxBytes: 4096, maxLineLength: 200, maxCues: 8)

/// The libFuzzer entry point: parses the input as WebVTT and, when it parses, renders every
/// cue as plain text, moves the cues to the media timeline, and checks that writing the
/// document and parsing the text again gives the same document, and that writing is stable.
///
/// Any trap (a crash in the parser, renderer or writer, or a failed round trip) is a
/// finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func webVTTFuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = start.map { Data(bytes: $0, count: count) } ?? Data()
  let limits = count % 3 == 0 ? smallLimits : .default
  guard let first = try? WebVTTParser.parse(data, limits: limits) else { return 0 }
  for cue in first.cues {
    _ = cue.plainText
    _ = cue.voice
    if cue.end < cue.start { fatalError("a cue ends before it starts: \(cue)") }
  }
  let reference = MediaTime(value: Int64(count) * 1_000_003, timescale: 7)
  _ = first.cuesOnMediaTimeline(near: reference)
  _ = first.cuesOnMediaTimeline()
  checkRoundTrip(
    first, text: "file", model: "document", write: WebVTTWriter.write,
    parse: { (written) throws(WebVTTError) in try WebVTTParser.parse(written) },
    compared: \.withoutWarnings)
  return 0
}
