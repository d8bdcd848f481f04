/// The perfect-foresight reference (the "Oracle" row, printed with `--oracle`; never a
/// baseline): every segment's level planned by `OraclePlanner` with the whole trace known
/// in advance, then replayed through `Session` like any rule, so that its row is measured
/// by the same code as the baselines'. It shares the baselines' loading rule and playback
/// start, and never abandons: with foresight, an abandoned download only delays the
/// request that follows, and a later request never ends sooner.
final class OracleRule: BaselineRule, SimulatedRule {
  private let plan: [Int]

  /// Plans `trace` under `session`'s ladder and maximum buffer.
  init(session: Session, trace: Trace) {
    plan = OraclePlanner(session: session).plan(trace).levels
  }

  override func firstLevel(_ view: SessionView) -> Int { plan[view.segment] }
  func nextLevel(_ view: SessionView) -> Int { plan[view.segment] }
  func abandon(_ view: SessionView, _ progress: DownloadProgressView) -> Int? { nil }
}

/// A beam search over level sequences with the whole trace known.
///
/// A session is deterministic given its levels, so the search simulates forward with the
/// same `Network` and `Playout` arithmetic, in the same order, as `Session` runs a rule that
/// never abandons (the wait while one more segment does not fit, the latency, the transfer,
/// playback that starts or resumes once a segment is in); its predicted scores match the
/// replay to rounding. After each segment it keeps, per (level, buffer cell of
/// `bufferResolution` seconds), the `statesPerCell` states of highest objective.
///
/// The score is a ratio, (U − S − 5R/p) / (T/p), with T = N·p + startup + R (U the summed
/// utility, S the switching term, R the rebuffer time, p the segment duration). Each search
/// maximises the additive Dinkelbach objective U − S − 5R/p − λ·(startup + R)/p: λ comes from
/// a coarse search first, then from the score of the last plan, until a plan's score is no
/// more than `tolerance` above the λ it was searched with. Among the final states a search
/// takes the one of highest score, and the plan is the best search's (the coarse one's too).
///
/// Dominance: with the clock t and d = t + buffer (when the buffer would run dry), every
/// later event of a fixed plan is monotone in (t, d) (a transfer that starts later never
/// ends sooner), and so is the session's end T. The final score is (W + 5N)·p/T − 5 with
/// W = U − S + 5·startup/p, and W + 5N > 0 while the top level's utility is under 5. So a
/// state whose t and d are no later and whose W, less the switch between the two states'
/// levels, is no lower is at least as good whatever follows; such dominated states are
/// dropped. Beyond that, a cell keeps only its best states, which may discard the start of
/// the best plan: the result is a feasible plan, a lower bound on the optimum of this
/// session model, not a proven optimum.
struct OraclePlanner {
  /// Width of the buffer cells in seconds.
  static let bufferResolution = 0.25
  /// States kept per (level, buffer cell).
  static let statesPerCell = 2
  /// Buffer cell width of the one-state-per-cell search that sets the first λ.
  static let coarseResolution = 1.0
  /// How far above its λ a plan's score may be and still end the Dinkelbach rounds.
  static let tolerance = 1e-3
  /// Most full-resolution searches per trace.
  static let maximumRounds = 4

  let session: Session

  /// One reachable state after a segment has loaded.
  private struct Node {
    var network: Network
    var playout: Playout
    /// U − S so far: the utility of the loaded segments minus the switching term.
    var quality: Double
    var level: Int
    /// Index of the state it came from in the previous segment's list.
    var parent: Int32
    /// The Dinkelbach objective, which ranks the states of a cell.
    var objective: Double
    /// Cleared when another state of the same segment dominates this one.
    var isAlive = true

    /// The wall clock (which fixes the network's position).
    var clock: Double { playout.startupSeconds + playout.rebufferSeconds + playout.watchedSeconds }
    /// When the buffer runs dry without more loads; the session's end after the last one.
    var dryTime: Double { clock + playout.buffer }
    /// W = U − S + 5·startup/p: the part of the final score the past fixes.
    func fixedValue(_ segmentSeconds: Double) -> Double {
      quality + 5 * playout.startupSeconds / segmentSeconds
    }
    /// The score if the video ended here (as `SessionResult.score`).
    func score(_ segmentSeconds: Double) -> Double {
      (quality - 5 * playout.rebufferSeconds / segmentSeconds) * segmentSeconds / dryTime
    }
  }

  /// The state of one search: the ladder's data and the cells' layout.
  private struct Search {
    let levelCount: Int
    let segmentSeconds: Double
    let cellCount: Int
    let resolution: Double
    let perCell: Int
    /// Private copies (new buffers): the shared ladder's reference counts are a contended
    /// cache line when several threads read it.
    let utilities: [Double]
    let sizes: [Double]
    /// `(level × cellCount + cell) × perCell + rank`: an index into the segment's states,
    /// or −1; each cell's ranks run by objective, highest first.
    var slots: [Int32]

    /// Keeps `candidate` among its cell's `perCell` best unless a kept state of the cell
    /// dominates it.
    mutating func insert(_ candidate: Node, into nodes: inout [Node]) {
      let cell = min(Int(candidate.playout.buffer / resolution), cellCount - 1)
      let base = (candidate.level * cellCount + cell) * perCell
      var count = 0
      while count < perCell, slots[base + count] >= 0 { count += 1 }
      let clock = candidate.clock
      let dry = candidate.dryTime
      let value = candidate.fixedValue(segmentSeconds)
      for rank in 0..<count {
        let kept = nodes[Int(slots[base + rank])]
        if kept.clock <= clock, kept.dryTime <= dry, kept.fixedValue(segmentSeconds) >= value {
          return
        }
      }
      var position = count
      while position > 0, nodes[Int(slots[base + position - 1])].objective < candidate.objective {
        position -= 1
      }
      guard position < perCell else { return }
      let storage: Int32
      if count == perCell {
        // The lowest-ranked state leaves; the candidate takes its storage.
        storage = slots[base + perCell - 1]
        nodes[Int(storage)] = candidate
        count -= 1
      } else {
        storage = Int32(nodes.count)
        nodes.append(candidate)
      }
      var rank = count
      while rank > position {
        slots[base + rank] = slots[base + rank - 1]
        rank -= 1
      }
      slots[base + position] = storage
    }

    /// Marks dead every state that another of the same buffer cell, at any level, dominates:
    /// clock and dry time no later, W no lower after paying the switch between their levels.
    func dropDominated(_ nodes: inout [Node]) {
      typealias Entry = (index: Int, clock: Double, dry: Double, value: Double, utility: Double)
      var column: [Entry] = []
      for cell in 0..<cellCount {
        column.removeAll(keepingCapacity: true)
        for level in 0..<levelCount {
          let base = (level * cellCount + cell) * perCell
          for rank in 0..<perCell {
            let index = Int(slots[base + rank])
            guard index >= 0 else { break }
            let node = nodes[index]
            column.append(
              (index, node.clock, node.dryTime, node.fixedValue(segmentSeconds), utilities[level]))
          }
        }
        guard column.count > 1 else { continue }
        column.sort { $0.value > $1.value }
        for (position, entry) in column.enumerated() {
          for other in column[..<position] where nodes[other.index].isAlive {
            if other.clock <= entry.clock, other.dry <= entry.dry,
              other.value - abs(other.utility - entry.utility) >= entry.value
            {
              nodes[entry.index].isAlive = false
              break
            }
          }
        }
      }
    }
  }

  /// The levels of the best plan found and its score.
  func plan(_ trace: Trace) -> (levels: [Int], score: Double) {
    var best = search(trace, lambda: 0, resolution: Self.coarseResolution, perCell: 1)
    var lambda = best.score
    for _ in 0..<Self.maximumRounds {
      let result = search(
        trace, lambda: lambda, resolution: Self.bufferResolution, perCell: Self.statesPerCell)
      if result.score > best.score { best = result }
      if result.score <= lambda + Self.tolerance { break }
      lambda = result.score
    }
    return best
  }

  /// One search maximising U − S − 5R/p − λ·(startup + R)/p; returns the levels leading to
  /// the final state of highest score, and that score.
  private func search(_ trace: Trace, lambda: Double, resolution: Double, perCell: Int) -> (
    levels: [Int], score: Double
  ) {
    let ladder = session.ladder
    let p = ladder.segmentSeconds
    let cellCount = Int(session.maximumBuffer / resolution) + 1
    var search = Search(
      levelCount: ladder.levelCount, segmentSeconds: p, cellCount: cellCount,
      resolution: resolution, perCell: perCell, utilities: ladder.utilities.map { $0 },
      sizes: Array(ladder.sizes.joined()),
      slots: Array(repeating: -1, count: ladder.levelCount * cellCount * perCell))
    let rebufferWeight = (5 + lambda) / p
    let startupWeight = lambda / p

    var frontier = [
      Node(
        network: Network(trace: trace), playout: Playout(), quality: 0, level: -1, parent: -1,
        objective: 0)
    ]
    var next: [Node] = []
    var parents: [[Int32]] = []
    var levels: [[UInt8]] = []
    for segment in 0..<ladder.segmentCount {
      next.removeAll(keepingCapacity: true)
      for index in search.slots.indices { search.slots[index] = -1 }
      for (index, node) in frontier.enumerated() {
        // The wait and the latency do not depend on the level.
        var network = node.network
        var playout = node.playout
        // The first request waits for nothing (the buffer is empty).
        network.waitAndRequest(
          playout: &playout, segmentSeconds: p, maximumBuffer: session.maximumBuffer)
        for level in 0..<search.levelCount {
          var candidate = Node(
            network: network, playout: playout, quality: node.quality, level: level,
            parent: Int32(index), objective: 0)
          candidate.network.loadWhole(
            bits: search.sizes[segment * search.levelCount + level],
            playout: &candidate.playout, segmentSeconds: p)
          candidate.quality += search.utilities[level]
          if node.level >= 0 {
            candidate.quality -= abs(search.utilities[level] - search.utilities[node.level])
          }
          candidate.objective =
            candidate.quality - rebufferWeight * candidate.playout.rebufferSeconds
            - startupWeight * candidate.playout.startupSeconds
          search.insert(candidate, into: &next)
        }
      }
      search.dropDominated(&next)
      next.removeAll { !$0.isAlive }
      parents.append(next.map(\.parent))
      levels.append(next.map { UInt8($0.level) })
      swap(&frontier, &next)
    }

    var bestIndex = 0
    for index in frontier.indices where frontier[index].score(p) > frontier[bestIndex].score(p) {
      bestIndex = index
    }
    var plan = [Int](repeating: 0, count: ladder.segmentCount)
    var index = bestIndex
    for segment in stride(from: ladder.segmentCount - 1, through: 0, by: -1) {
      plan[segment] = Int(levels[segment][index])
      index = Int(parents[segment][index])
    }
    return (plan, frontier[bestIndex].score(p))
  }
}
