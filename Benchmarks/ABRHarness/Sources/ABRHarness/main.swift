import Foundation
import PlayheadCore
import PlayheadEngine

// Trace-driven ABR benchmark: Playhead as the engine plays HLS (HLSPlaybackSimulator: the
// engine's HLS driver, load control, ABR controller and bandwidth meter over
// SimulatedNetwork on a fast ManualClock) against baseline rules written here from their
// papers, on the data in ../shared/abr. The harness's own model of Playhead's rules
// ("playhead-model", DefaultABRController + DefaultLoadControl in the harness's session
// simulation) runs alongside as a cross-check.
//
// Usage: ABRHarness [--data DIR] [--sets 3Glogs,4Glogs,sd_fs] [--limit N] [--sd-limit N]
//                   [--buffer SECONDS] [--variant NAME:key=value,...]... [--no-model]
//                   [--timeout-ms N] [--jobs N] [--per-trace] [--diagnostics]
//                   [--oracle] [--lookahead N,...] [--lookahead-terminal W]
//                   [--log TRACE/RULE]
// --oracle adds the perfect-foresight row (Oracle.swift): how high any rule that shares
// the baselines' session model could score, a reference for the aims, not a baseline.
// --lookahead adds a row per horizon N (Lookahead.swift): control that knows the next N
// segments' downloads exactly, between the online rules and the Oracle; W (default 1) is
// what it charges, in utility, per segment duration of buffer spent within the horizon.

struct Options {
  var data = "../shared/abr"
  var sets = ["3Glogs", "4Glogs", "sd_fs"]
  var limit = Int.max
  var variants: [(String, [String: String])] = []
  var perTrace = false
  var diagnostics = false
  var oracle = false
  var lookaheads: [Int] = []
  var lookaheadTerminal = 1.0
  var logTrace: String?
  var logRule: String?
  var maximumBuffer = 25.0
  var progressInterval = 0.1
  /// Whether the in-harness model of Playhead's rules runs as a cross-check row.
  var model = true
  /// The engine's request timeout: past the longest outage of the traces (29 min in 3G).
  var timeoutMs = 3_600_000
  /// How many traces run at once.
  var jobs = TraceRunner.defaultJobs
}

func parseOptions() throws -> Options {
  var options = Options()
  var arguments = CommandLine.arguments.dropFirst()
  func value(_ flag: String) throws -> String {
    guard let next = arguments.popFirst() else { throw HarnessError("\(flag) needs a value") }
    return next
  }
  while let argument = arguments.popFirst() {
    switch argument {
    case "--data": options.data = try value(argument)
    case "--sets": options.sets = try value(argument).split(separator: ",").map(String.init)
    case "--limit":
      guard let limit = Int(try value(argument)), limit > 0 else {
        throw HarnessError("--limit needs a positive integer")
      }
      options.limit = limit
    case "--variant":
      let text = try value(argument)
      let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
      var settings: [String: String] = [:]
      if parts.count == 2 {
        for pair in parts[1].split(separator: ",") {
          let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
          guard kv.count == 2 else { throw HarnessError("bad variant setting '\(pair)'") }
          settings[kv[0]] = kv[1]
        }
      }
      options.variants.append((parts[0], settings))
    case "--buffer":
      guard let seconds = Double(try value(argument)), seconds >= 2 else {
        throw HarnessError("--buffer needs a number of seconds of at least 2")
      }
      options.maximumBuffer = seconds
    case "--no-model": options.model = false
    case "--jobs":
      guard let jobs = Int(try value(argument)), jobs > 0 else {
        throw HarnessError("--jobs needs a positive integer")
      }
      options.jobs = jobs
    case "--timeout-ms":
      guard let timeout = Int(try value(argument)), timeout > 0 else {
        throw HarnessError("--timeout-ms needs a positive integer")
      }
      options.timeoutMs = timeout
    case "--per-trace": options.perTrace = true
    case "--diagnostics": options.diagnostics = true
    case "--oracle": options.oracle = true
    case "--lookahead-terminal":
      guard let weight = Double(try value(argument)), weight >= 0 else {
        throw HarnessError("--lookahead-terminal needs a number from 0")
      }
      options.lookaheadTerminal = weight
    case "--lookahead":
      options.lookaheads = try value(argument).split(separator: ",").map {
        guard let horizon = Int($0), horizon > 0 else {
          throw HarnessError("bad --lookahead horizon '\($0)'")
        }
        return horizon
      }
    case "--log":
      let text = try value(argument).split(separator: "/").map(String.init)
      guard text.count == 2 else { throw HarnessError("--log needs TRACE/RULE") }
      options.logTrace = text[0]
      options.logRule = text[1]
    default: throw HarnessError("unknown argument '\(argument)'")
    }
  }
  return options
}

/// The controller configuration with `settings` applied (keys are the field names).
func configuration(_ settings: [String: String]) throws -> DefaultABRController.Configuration {
  var config = DefaultABRController.Configuration()
  for (key, text) in settings {
    guard let number = Double(text) else {
      if key == "abandonsDownloads", let flag = Bool(text) {
        config.abandonsDownloads = flag
        continue
      }
      throw HarnessError("variant value '\(text)' for \(key) is not a number")
    }
    switch key {
    case "defaultBandwidthEstimate": config.defaultBandwidthEstimate = Int(number)
    case "safetyFactor": config.safetyFactor = number
    case "calmLowFraction": config.calmLowFraction = number
    case "calmHighFraction": config.calmHighFraction = number
    case "cautiousLowFraction": config.cautiousLowFraction = number
    case "cautiousHighFraction": config.cautiousHighFraction = number
    case "riskyHeadroom": config.riskyHeadroom = number
    case "calmHeadroom": config.calmHeadroom = number
    case "outageShareForCaution": config.outageShareForCaution = number
    case "networkMemorySeconds": config.networkMemorySeconds = number
    case "overshootHorizonSeconds": config.overshootHorizonSeconds = number
    case "insufficientBufferFactor": config.insufficientBufferFactor = number
    case "endgameReserveSeconds": config.endgameReserveSeconds = number
    case "abandonGraceSeconds": config.abandonGraceSeconds = number
    case "abandonBufferShare": config.abandonBufferShare = number
    case "abandonConfirmSeconds": config.abandonConfirmSeconds = number
    case "lowBufferSegments": config.lowBufferSegments = number
    case "ceilingFactor": config.ceilingFactor = number
    case "slowTransferBufferShare": config.slowTransferBufferShare = number
    case "slowTransferRun": config.slowTransferRun = Int(number)
    case "slowTransferFactor": config.slowTransferFactor = number
    case "abandonTargetFactor": config.abandonTargetFactor = number
    case "abandonCollapseShare": config.abandonCollapseShare = number
    case "recoveryMargin": config.recoveryMargin = number
    case "deepHoldBandShare": config.deepHoldBandShare = number
    case "deepHoldSpeedShare": config.deepHoldSpeedShare = number
    case "deepRetrySegments": config.deepRetrySegments = number
    case "riseStepLevels": config.riseStepLevels = Int(number)
    default: throw HarnessError("unknown configuration key '\(key)'")
    }
  }
  return config
}

/// The load control every Playhead run uses: the same 25 s maximum buffer as the
/// baselines, loading whenever one more segment fits (no hysteresis, optimiser off), and
/// playback that starts or resumes once a segment is in.
func benchmarkLoadControl(maximumBuffer: Double) -> DefaultLoadControl {
  let maximum = MediaTime(seconds: maximumBuffer, preferredTimescale: 1000)
  return DefaultLoadControl(
    scene: .none,
    settings: BufferSettings(
      startupBuffer: MediaTime(value: 1, timescale: 1),
      bufferAfterRebuffer: MediaTime(value: 1, timescale: 1),
      lowWaterMark: maximum, highWaterMark: maximum, maximumBuffer: maximum,
      optimizer: BufferOptimizer.none))
}

let ladders = ["3Glogs": "bbb.json", "4Glogs": "bbb4k.json", "sd_fs": "bbb.json"]

/// The name of the in-harness model row of a Playhead variant.
func modelName(_ variant: String) -> String {
  variant == "Playhead" ? "playhead-model" : "\(variant)-model"
}

do {
  let options = try parseOptions()
  let root = URL(fileURLWithPath: options.data)
  var variants = options.variants
  if variants.isEmpty { variants = [("Playhead", [:])] }
  let variantConfigs = try variants.map { ($0.0, try configuration($0.1)) }
  let baselineNames = ["Throughput", "BOLA", "Dynamic", "BBA-0"]
  print(
    "ABR benchmark: \(options.maximumBuffer) s maximum buffer, score = time average of "
      + "ln(bitrate/lowest) minus |change of ln(bitrate)| at each switch minus 5 x rebuffer "
      + "time in segment durations (aim: >= \(Report.aimRatio) x the best baseline, with no more "
      + "rebuffering and switches per minute)")
  print(
    "Playhead rows run the engine's HLS driver (HLSPlaybackSimulator); "
      + "playhead-model rows are the harness's own model of the same rules")
  for set in options.sets {
    guard let ladderName = ladders[set] else { throw HarnessError("unknown set '\(set)'") }
    let ladder = try Ladder.load(root.appendingPathComponent(ladderName))
    let traces = Array(
      try Trace.loadAll(root.appendingPathComponent("traces").appendingPathComponent(set))
        .prefix(options.limit))
    let session = Session(
      ladder: ladder, maximumBuffer: options.maximumBuffer,
      progressInterval: options.progressInterval)
    let engine = EngineSession(
      ladder: ladder, stream: SyntheticStream(ladder: ladder),
      maximumBuffer: options.maximumBuffer, progressIntervalMs: options.progressInterval * 1000,
      timeoutMs: options.timeoutMs)
    let engineNames = variantConfigs.map(\.0)
    let modelNames = options.model ? variantConfigs.map { modelName($0.0) } : []
    let extraNames =
      (options.diagnostics ? ["Lowest"] : []) + (options.oracle ? ["Oracle"] : [])
      + options.lookaheads.map { "Lookahead-\($0)" }
    let names = baselineNames + engineNames + modelNames + extraNames
    let started = Date()
    let results = try TraceRunner.run(traces: traces, jobs: options.jobs) { trace in
      var row: [SessionResult] = []
      var rules: [SimulatedRule] = [ThroughputRule(), BolaRule(), DynamicRule(), BufferBasedRule()]
      func logger(_ rule: String) -> ((String) -> Void)? {
        trace.name == options.logTrace && rule == options.logRule ? { print($0) } : nil
      }
      for (slot, rule) in rules.enumerated() {
        row.append(session.run(rule: rule, trace: trace, log: logger(baselineNames[slot])))
      }
      for (name, config) in variantConfigs {
        row.append(try engine.run(trace: trace, abr: config, log: logger(name)))
      }
      rules = []
      if options.model {
        for (_, config) in variantConfigs {
          rules.append(
            PlayheadRule(
              ladder: ladder, configuration: config,
              loadControl: benchmarkLoadControl(maximumBuffer: options.maximumBuffer)))
        }
      }
      if options.diagnostics { rules.append(LowestRule()) }
      if options.oracle { rules.append(OracleRule(session: session, trace: trace)) }
      for horizon in options.lookaheads {
        rules.append(LookaheadRule(horizon: horizon, terminalWeight: options.lookaheadTerminal))
      }
      for (offset, rule) in rules.enumerated() {
        let name = names[baselineNames.count + engineNames.count + offset]
        row.append(session.run(rule: rule, trace: trace, log: logger(name)))
      }
      return row
    }
    var summaries = names.map { RuleSummary(name: $0) }
    for (trace, row) in zip(traces, results) {
      var line = trace.name
      for (slot, result) in row.enumerated() {
        summaries[slot].add(result)
        line +=
          " \(names[slot])=\(Report.fixed(result.score, 3))"
          + "/\(Report.fixed(result.rebufferSeconds, 1))s"
      }
      if options.perTrace { print(line) }
    }
    let seconds = Date().timeIntervalSince(started)
    print(
      Report.table(
        title: "\(set) (\(traces.count) traces) / \(ladderName)  [\(Report.fixed(seconds, 1)) s]",
        rows: summaries, baselines: Set(baselineNames), playhead: engineNames[0],
        model: options.model ? modelNames[0] : nil))
  }
} catch {
  FileHandle.standardError.write(Data("ABRHarness: \(error)\n".utf8))
  exit(1)
}
