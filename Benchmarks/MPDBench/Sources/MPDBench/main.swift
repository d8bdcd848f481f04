import Foundation
import PlayheadDASH

// MPDBench FILE URL RUNS: parses the MPD at FILE (as loaded from URL) RUNS times after one
// warm-up, and prints `entries=… segments=… parse_median_seconds=… list_median_seconds=…`:
// the first Representation's timeline entries, its segments, the median time to parse
// (tree and model), and the median time to parse and list every segment's URL.

let arguments = CommandLine.arguments
guard arguments.count == 4, let runs = Int(arguments[3]), runs > 0,
  let url = URL(string: arguments[2])
else {
  FileHandle.standardError.write(Data("usage: MPDBench FILE URL RUNS\n".utf8))
  exit(2)
}
let data: Data
do {
  data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
} catch {
  FileHandle.standardError.write(Data("MPDBench: cannot read \(arguments[1])\n".utf8))
  exit(1)
}

func parse() -> MPD {
  do {
    return try MPDParser.parse(data, url: url)
  } catch {
    FileHandle.standardError.write(Data("MPDBench: \(error)\n".utf8))
    exit(1)
  }
}

func firstTimeline(_ mpd: MPD) -> (MPDRepresentation, MPDPeriod, Int)? {
  guard let period = mpd.periods.first,
    let representation = period.adaptationSets.first?.representations.first,
    case .template(let template) = representation.addressing, let timeline = template.timeline
  else { return nil }
  return (representation, period, timeline.entries.count)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let warm = parse()
guard let (representation, period, entries) = firstTimeline(warm) else {
  FileHandle.standardError.write(Data("MPDBench: the first Representation has no timeline\n".utf8))
  exit(1)
}
let segments = representation.segments(in: period).count
var parseTimes: [Double] = []
var listTimes: [Double] = []
for _ in 0..<runs {
  var start = DispatchTime.now().uptimeNanoseconds
  let mpd = parse()
  parseTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  start = DispatchTime.now().uptimeNanoseconds
  let parsed = parse()
  var count = 0
  if let (listed, listedPeriod, _) = firstTimeline(parsed) {
    for segment in listed.segmentSequence(in: listedPeriod) where !segment.url.path.isEmpty {
      count += 1
    }
  }
  listTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  precondition(count == segments && mpd.periods.count == warm.periods.count)
}
print(
  "entries=\(entries) segments=\(segments) parse_median_seconds=\(median(parseTimes))"
    + " list_median_seconds=\(median(listTimes))")
