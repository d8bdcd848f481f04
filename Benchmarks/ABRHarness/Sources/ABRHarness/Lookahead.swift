/// A reference between the online rules and the Oracle (the "Lookahead-N" rows, printed
/// with `--lookahead N`; never a baseline): model-predictive control with a perfect
/// prediction of the next `horizon` segments. Before each request it tries every sequence
/// of levels for the next `horizon` segments against the trace itself (the same `Network`
/// and `Playout` arithmetic as `Session`: the wait while a segment does not fit, the
/// latency, the transfer) and requests the first level of the sequence that scores best
/// under the benchmark's own terms: utility, less the switching term (from the level last
/// requested), less 5 × rebuffer time in segment durations, less `terminalWeight` per
/// segment duration of buffer the sequence leaves below the buffer it began with (unless
/// it reaches the end of the content). Like an online rule it starts at the lowest level
/// and knows nothing past the horizon; like the Oracle it never abandons. How its score
/// grows with the horizon says how much of the Oracle's lead is knowing the next few
/// segments and how much is knowing the whole session.
final class LookaheadRule: BaselineRule, SimulatedRule {
  private let horizon: Int
  /// What a segment duration of buffer spent within the horizon costs at its end, in
  /// utility (`--lookahead-terminal`): without it, control over a short horizon spends the
  /// buffer that the segments after the horizon need.
  private let terminalWeight: Double

  init(horizon: Int, terminalWeight: Double) {
    self.horizon = max(1, horizon)
    self.terminalWeight = max(0, terminalWeight)
  }

  func nextLevel(_ view: SessionView) -> Int {
    let ladder = view.ladder
    let depth = min(horizon, ladder.segmentCount - view.segment)
    var playout = Playout()
    playout.buffer = view.buffer
    playout.isPlaying = view.isPlaying
    playout.hasStarted = view.hasStarted
    var best = (value: -Double.infinity, level: view.lastLevel ?? 0)
    for level in 0..<ladder.levelCount {
      let value = bestValue(
        view: view, depth: depth, step: 0, level: level, previous: view.lastLevel,
        network: view.network, playout: playout)
      if value > best.value { best = (value, level) }
    }
    return best.level
  }

  func abandon(_ view: SessionView, _ progress: DownloadProgressView) -> Int? { nil }

  /// The best value of the sequences that load segment `view.segment + step` at `level`
  /// and continue to `depth` segments, from the state (`network`, `playout`) before its
  /// request (the first request's wait already spent, as `Session` spends it before
  /// asking the rule).
  private func bestValue(
    view: SessionView, depth: Int, step: Int, level: Int, previous: Int?, network: Network,
    playout: Playout
  ) -> Double {
    let ladder = view.ladder
    let p = ladder.segmentSeconds
    var network = network
    var playout = playout
    let stalledBefore = playout.rebufferSeconds
    if step > 0 {
      network.waitAndRequest(
        playout: &playout, segmentSeconds: p, maximumBuffer: view.maximumBuffer)
    } else {
      playout.advance(network.spendLatency())
    }
    network.loadWhole(
      bits: ladder.sizes[view.segment + step][level], playout: &playout, segmentSeconds: p)
    var value =
      ladder.utilities[level] - 5 * (playout.rebufferSeconds - stalledBefore) / p
    if let previous { value -= abs(ladder.utilities[level] - ladder.utilities[previous]) }
    guard step + 1 < depth else {
      // The buffer left after the last segment of the content is worth nothing.
      guard view.segment + depth < ladder.segmentCount else { return value }
      return value - terminalWeight * max(0, view.buffer - playout.buffer) / p
    }
    var bestNext = -Double.infinity
    for next in 0..<ladder.levelCount {
      bestNext = max(
        bestNext,
        bestValue(
          view: view, depth: depth, step: step + 1, level: next, previous: level,
          network: network, playout: playout))
    }
    return value + bestNext
  }
}
