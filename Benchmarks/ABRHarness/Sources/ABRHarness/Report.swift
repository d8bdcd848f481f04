import Foundation

/// Per-rule totals over one trace set.
struct RuleSummary {
  let name: String
  var sessions = 0
  var bitrate = 0.0
  var rebufferRatio = 0.0
  var switchesPerMinute = 0.0
  var score = 0.0
  var abandonments = 0
  var startup = 0.0

  mutating func add(_ result: SessionResult) {
    sessions += 1
    bitrate += result.averageBitrate
    rebufferRatio += result.rebufferRatio
    switchesPerMinute += result.switchesPerMinute
    score += result.score
    abandonments += result.abandonments
    startup += result.startupSeconds
  }

  var meanBitrateKbps: Double { bitrate / Double(sessions) / 1000 }
  var meanRebufferPercent: Double { rebufferRatio / Double(sessions) * 100 }
  var meanSwitchesPerMinute: Double { switchesPerMinute / Double(sessions) }
  var meanScore: Double { score / Double(sessions) }
  var meanStartup: Double { startup / Double(sessions) }
}

enum Report {
  static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + fill : fill + text
  }

  static func fixed(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
  }

  /// The score ratio to the best baseline that the aim asks for.
  static let aimRatio = 1.05

  /// The table of one set, then Playhead's (the engine-driven row's) score against the
  /// best baseline, and the in-harness model's when `model` names its row.
  static func table(
    title: String, rows: [RuleSummary], baselines: Set<String>, playhead: String,
    model: String? = nil
  ) -> String {
    var lines = ["", title]
    lines.append(
      pad("rule", 22, left: true) + pad("avg kbps", 10) + pad("rebuffer %", 12)
        + pad("switch/min", 12) + pad("startup s", 11) + pad("abandons", 10) + pad("score", 9))
    for row in rows {
      lines.append(
        pad(row.name, 22, left: true) + pad(fixed(row.meanBitrateKbps, 0), 10)
          + pad(fixed(row.meanRebufferPercent, 3), 12)
          + pad(fixed(row.meanSwitchesPerMinute, 2), 12) + pad(fixed(row.meanStartup, 2), 11)
          + pad(String(row.abandonments), 10) + pad(fixed(row.meanScore, 4), 9))
    }
    let best = rows.filter { baselines.contains($0.name) }.max { $0.meanScore < $1.meanScore }
    for (name, label) in [(playhead, "engine"), (model ?? "", "model, cross-check")]
    where !name.isEmpty {
      guard let best, let ours = rows.first(where: { $0.name == name }) else { continue }
      let ratio = ours.meanScore / best.meanScore
      let rebufferOK = ours.meanRebufferPercent <= best.meanRebufferPercent + 1e-9
      let switchesOK = ours.meanSwitchesPerMinute <= best.meanSwitchesPerMinute + 1e-9
      lines.append(
        "\(name) (\(label)) / best baseline (\(best.name)): score ratio \(fixed(ratio, 4)), "
          + "rebuffer \(fixed(ours.meanRebufferPercent, 3)) % vs \(fixed(best.meanRebufferPercent, 3)) %, "
          + "switches/min \(fixed(ours.meanSwitchesPerMinute, 2)) vs \(fixed(best.meanSwitchesPerMinute, 2)) "
          + (ratio >= Self.aimRatio && rebufferOK && switchesOK ? "-> aim met" : "-> aim NOT met"))
    }
    if let best, let oracle = rows.first(where: { $0.name == Self.oracleName }) {
      lines.append(
        "\(Self.oracleName) (perfect foresight, a feasible plan) / best baseline (\(best.name)): "
          + "score ratio \(fixed(oracle.meanScore / best.meanScore, 4))")
    }
    return lines.joined(separator: "\n")
  }

  /// The row of `OracleRule` (`--oracle`), compared with the best baseline under the table.
  static let oracleName = "Oracle"
}
