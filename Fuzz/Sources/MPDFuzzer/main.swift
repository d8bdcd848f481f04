import CFuzzerDriver
import Foundation
import FuzzSupport
import PlayheadDASH

/// The executable's entry point (SwiftPM defines `main` as `MPDFuzzer_main`): hands the
/// command line to libFuzzer's driver.
@_cdecl("MPDFuzzer_main")
public func mpdFuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    mpdFuzzerTestOneInput(data.map(UnsafeRawPointer.init), size)
  }
}

/// Where the MPDs are read from: a remote one (its URLs may not name local files).
private let manifestURL = URL(string: "https://cdn.example/content/manifest.mpd")!

/// The libFuzzer entry point: the input is an MPD.
///
/// Checks that the parser ends in a model or a typed one-line error; and for a model, that
/// each Representation's segment count (bounded) agrees with walking its first segments,
/// whose times never go back, and that no segment or BaseURL is a local file. Any trap is a
/// finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func mpdFuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = start.map { Data(bytes: $0, count: count) } ?? Data()
  guard let mpd = typed({ () throws(MPDError) in try MPDParser.parse(data, url: manifestURL) })
  else { return 0 }
  precondition(!mpd.baseURLs.contains(where: \.isFileURL), "a local BaseURL from the network")
  for period in mpd.periods {
    for set in period.adaptationSets {
      for representation in set.representations {
        precondition(!representation.baseURLs.contains(where: \.isFileURL), "a local BaseURL")
        let counted = representation.segmentCount(in: period, limit: 2_000)
        let walked = Array(representation.segmentSequence(in: period).prefix(2_001))
        if let counted {
          precondition(counted == walked.count, "count \(counted) but \(walked.count) walked")
        } else {
          precondition(walked.count == 2_001, "counted past the limit, walked \(walked.count)")
        }
        for (earlier, later) in zip(walked, walked.dropFirst()) {
          precondition(later.time >= earlier.time, "segment times go back")
        }
        _ = representation.initialization
      }
    }
  }
  return 0
}
