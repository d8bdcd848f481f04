import CFFmpeg
import PlayheadCore

extension MediaTime {
  /// `ticks` of `timeBase` as an exact media time; `.invalid` for `AV_NOPTS_VALUE` or a
  /// time base that is not positive.
  ///
  /// With a time base of 1/den the result has timescale `den`; with num/den it has
  /// timescale `den` and value `ticks * num` (`.invalid` if that overflows).
  init(ticks: Int64, timeBase: AVRational) {
    guard ticks != FFmpegError.noPTS, timeBase.num > 0, timeBase.den > 0 else {
      self = .invalid
      return
    }
    if timeBase.num == 1 {
      self.init(value: ticks, timescale: timeBase.den)
      return
    }
    let (product, overflow) = ticks.multipliedReportingOverflow(by: Int64(timeBase.num))
    if overflow {
      self = .invalid
    } else {
      self.init(value: product, timescale: timeBase.den)
    }
  }

  /// This time in ticks of `timeBase`, rounded to the nearest tick; nil if not numeric.
  func ticks(in timeBase: AVRational) -> Int64? {
    guard isNumeric, timeBase.num > 0, timeBase.den > 0 else { return nil }
    return av_rescale_q_rnd(
      value, AVRational(num: 1, den: timescale), timeBase,
      AVRounding(rawValue: AV_ROUND_NEAR_INF.rawValue | AV_ROUND_PASS_MINMAX.rawValue))
  }

  /// One tick of `timeBase`, exactly (`.invalid` for a time base that is not positive).
  init(timeBase: AVRational) {
    self.init(ticks: 1, timeBase: timeBase)
  }
}
