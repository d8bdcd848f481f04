// Resolves a VMAP and all its wrapper chains RUNS times in one process (one warm-up first)
// and prints the median milliseconds and the breaks and ads found: the in-process row of
// Benchmarks/ads.sh.
import Foundation
import PlayheadAds
import PlayheadNet

let arguments = CommandLine.arguments
guard arguments.count == 3, let runs = Int(arguments[2]), runs > 0 else {
  FileHandle.standardError.write(Data("usage: AdsBench VMAP_PATH RUNS\n".utf8))
  exit(2)
}
let url = URL(fileURLWithPath: arguments[1])
let resolver = VASTResolver(loader: DataSourceStack().loader())

func resolveOnce() -> (breaks: Int, ads: Int) {
  guard case .vmap(let vmap)? = try? resolver.resolveAdTag(url) else { return (0, 0) }
  let ads = vmap.breaks.reduce(0) { $0 + ($1.resolution?.ads.count ?? 0) }
  return (vmap.breaks.count, ads)
}

let found = resolveOnce()
var milliseconds: [Double] = []
for _ in 0..<runs {
  let start = DispatchTime.now().uptimeNanoseconds
  _ = resolveOnce()
  milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
milliseconds.sort()
print(
  String(
    format: "%.2f %d %d", milliseconds[(milliseconds.count - 1) / 2], found.breaks, found.ads))
