import PlayheadCore

/// Keeps a run's timestamps continuous across jumps that no `EXT-X-DISCONTINUITY` marks
/// (docs/decisions/0022): a sample whose time lies more than `threshold` before or after
/// where its stream was expected to go on starts a new *epoch*, shifted so that the
/// stream continues from where it was.
///
/// Shifts are decided on demuxed packets, in the order the demuxer gives them, so the
/// result never depends on how decoding interleaves the streams: the first stream whose
/// packets jump decides the epoch's shift, and a stream that jumps later takes the same
/// shift when it lies within `threshold` of its own (audio and video keep the alignment
/// the packager gave them; a small audio overlap or gap is absorbed where audio is
/// placed). Decoded frames follow: a stream's frames that jump take the shift its packets
/// took for that jump. Times go in and out on the item timeline; the work is constant per
/// sample.
struct TimestampRebaser {
  /// The smallest jump that re-bases (a jump must be larger than this).
  let threshold: MediaTime
  /// The shift of each epoch, in order; epoch 0 is not shifted.
  private var epochShifts: [MediaTime] = [.zero]
  /// Per stream: the shift its packets took at each of their jumps (index 0: the start).
  private var packetShifts: [Int: [MediaTime]] = [:]
  private var packetStates: [Int: Continuity] = [:]
  private var frameStates: [Int: Continuity] = [:]

  /// Where a stream is on its own timeline.
  private struct Continuity {
    /// How many jumps the stream made.
    var jumps: Int
    /// The epoch the stream is in (packets only).
    var epoch = 0
    var shift: MediaTime
    /// Where the stream's next sample is expected (shifted).
    var expected: MediaTime
  }

  init(threshold: MediaTime) {
    self.threshold = threshold
  }

  /// How many jumps were re-based so far.
  var jumpCount: Int { epochShifts.count - 1 }

  /// The shift to add to a demuxed packet of `stream` at item time `time` (decode order)
  /// lasting `duration`; non-numeric times get zero and change nothing.
  mutating func shift(forPacketAt time: MediaTime, duration: MediaTime, stream: Int)
    -> MediaTime
  {
    guard time.isNumeric else { return .zero }
    guard var state = packetStates[stream] else {
      // A stream that starts late starts in the epoch under way.
      let shift = epochShifts[epochShifts.count - 1]
      packetStates[stream] = Continuity(
        jumps: 0, epoch: epochShifts.count - 1, shift: shift,
        expected: time + shift + Self.length(duration))
      packetShifts[stream] = [shift]
      return shift
    }
    let jump = time + state.shift - state.expected
    if MediaTime.abs(jump) > threshold {
      let own = state.shift - jump
      let epoch = state.epoch + 1
      state.epoch = epoch
      if epoch >= epochShifts.count {
        epochShifts.append(own)
        state.shift = own
      } else if MediaTime.abs(epochShifts[epoch] - own) <= threshold {
        state.shift = epochShifts[epoch]
      } else {
        // This stream jumped by another amount than the first one did: keep it continuous.
        state.shift = own
      }
      state.jumps += 1
      packetShifts[stream, default: []].append(state.shift)
    }
    state.expected = max(state.expected, time + state.shift + Self.length(duration))
    packetStates[stream] = state
    return state.shift
  }

  /// The shift to add to a decoded sample of `stream` at item time `time` lasting
  /// `duration` (presentation order): the shift its packets took for the same jump.
  mutating func shift(forFrameAt time: MediaTime, duration: MediaTime, stream: Int) -> MediaTime {
    guard time.isNumeric else { return .zero }
    let known = packetShifts[stream] ?? [.zero]
    guard var state = frameStates[stream] else {
      let shift = known[0]
      frameStates[stream] = Continuity(
        jumps: 0, shift: shift, expected: time + shift + Self.length(duration))
      return shift
    }
    let jump = time + state.shift - state.expected
    if MediaTime.abs(jump) > threshold {
      state.jumps += 1
      // The packets of the jump were demuxed before their frames came out of the decoder.
      state.shift = state.jumps < known.count ? known[state.jumps] : state.shift - jump
    }
    state.expected = max(state.expected, time + state.shift + Self.length(duration))
    frameStates[stream] = state
    return state.shift
  }

  private static func length(_ duration: MediaTime) -> MediaTime {
    duration.isNumeric && duration > .zero ? duration : .zero
  }
}
