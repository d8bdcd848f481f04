import Foundation
import PlayheadCore

// Times JSON decoding of generated documents three ways and prints one line per document:
// `name=<doc> bytes=<n> depth=<d> reader=<s> reader_units=<n> reader_outcome=<ok|refused>
//  foundation=<s> serialization=<s>` (median seconds per parse).
//
// - reader:        JSONReader.read (Playhead's bounded reader)
// - foundation:    JSONDecoder().decode(JSONValue.self) (the old path: JSONValue's Decodable
//                  conformance tries each kind in turn)
// - serialization: JSONSerialization.jsonObject (Foundation's own tree, for reference)
//
// Usage: JSONBench [runs]   (default 10; the old path runs at most `SLOW_RUNS` (default 1)
// times on documents where one parse takes over a second)

let runs = CommandLine.arguments.count > 1 ? max(1, Int(CommandLine.arguments[1]) ?? 10) : 10
let slowRuns = max(1, Int(ProcessInfo.processInfo.environment["SLOW_RUNS"] ?? "1") ?? 1)

func nested(_ depth: Int) -> String {
  String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
}

/// `{"videos":[{"id":"vN","x":<nested depth>}, …]}`
func deepPlaylist(count: Int, depth: Int) -> Data {
  let videos = (0..<count).map { #"{"id":"v\#($0)","x":"# + nested(depth) + "}" }
  return Data((#"{"videos":["# + videos.joined(separator: ",") + "]}").utf8)
}

func catalogPlaylist(videos: Int) -> Data {
  let items = (0..<videos).map { index in
    #"""
    {"id":"\#(index)","name":"Clip \#(index) \u00e9\u4e2d","duration":\#(1000 + index),
    "description":"\#(String(repeating: "A fine clip. ", count: 8))",
    "tags":["news","b\n\"c\""],"custom_fields":{"genre":"news","rating":\#(Double(index) / 8)},
    "sources":[{"src":"https://cdn.example.com/\#(index)/master.m3u8","type":"application/x-mpegURL"},
    {"src":"https://cdn.example.com/\#(index)/clip.mp4","type":"video/mp4","width":1280,"height":720}],
    "text_tracks":[{"src":"https://cdn.example.com/\#(index)/en.vtt","srclang":"en","kind":"captions"}],
    "cue_points":[{"type":"AD","time":\#(index % 60).5,"metadata":null,"force_stop":false}]}
    """#
  }
  return Data((#"{"id":"list","videos":["# + items.joined(separator: ",") + "]}").utf8)
}

/// Median seconds of `body` over `count` runs (after one untimed warm-up when count > 1).
func median(_ count: Int, _ body: () -> Void) -> Double {
  if count > 1 { body() }
  let clock = ContinuousClock()
  var times: [Double] = []
  for _ in 0..<count {
    let elapsed = clock.measure(body)
    times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }
  times.sort()
  return times[times.count / 2]
}

let documents: [(name: String, depth: Int, data: Data)] = [
  ("catalog-1000", 5, catalogPlaylist(videos: 1000)),
  ("deep-20x60", 63, deepPlaylist(count: 20, depth: 60)),
  ("deep-20x125", 128, deepPlaylist(count: 20, depth: 125)),
  ("deep-20x250", 253, deepPlaylist(count: 20, depth: 250)),
  ("deep-20x500", 503, deepPlaylist(count: 20, depth: 500)),
]

for document in documents {
  let data = document.data
  var units = 0
  var outcome = "ok"
  do {
    _ = try JSONReader.read(data, workUnits: &units)
  } catch {
    outcome = "refused"
  }
  let reader = median(runs) { _ = try? JSONReader.read(data) }
  // One probe parse tells whether the old path is slow enough to run only `slowRuns` times.
  let decodeOld = { _ = try? JSONDecoder().decode(JSONValue.self, from: data) }
  let probe = median(1, decodeOld)
  let foundation =
    probe > 1 ? (slowRuns == 1 ? probe : median(slowRuns, decodeOld)) : median(runs, decodeOld)
  let serialization = median(runs) { _ = try? JSONSerialization.jsonObject(with: data) }
  let line =
    "name=\(document.name) bytes=\(data.count) depth=\(document.depth) reader=\(reader) "
    + "reader_units=\(units) reader_outcome=\(outcome) foundation=\(foundation) "
    + "serialization=\(serialization)\n"
  FileHandle.standardOutput.write(Data(line.utf8))
}
