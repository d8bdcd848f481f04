/// Always the lowest level: how much rebuffering no rule can avoid (printed with
/// `--diagnostics`, never counted as a baseline).
final class LowestRule: BaselineRule, SimulatedRule {
  func nextLevel(_ view: SessionView) -> Int { 0 }
  func abandon(_ view: SessionView, _ progress: DownloadProgressView) -> Int? { nil }
}
