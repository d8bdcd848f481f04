import PlayheadCore

/// An SCTE-35 `splice_info_section` (ANSI/SCTE 35), decoded.
///
/// Build one from bytes or from the text a playlist holds (`0x` hex in `EXT-X-DATERANGE`,
/// base64 in `EXT-OATCLS-SCTE35` and `EXT-X-CUE-OUT-CONT`). Times are in 90 kHz ticks,
/// as in the section (`…90kHz` fields), or as `MediaTime` with timescale 90,000.
/// Encrypted sections are refused (`SCTE35Error.encrypted`).
///
/// ```swift
/// let section = try SpliceInfoSection(text: dateRange.scte35Out ?? "")
/// section.signal          // .breakStart
/// section.breakDuration   // 30 s, from break_duration or segmentation_duration
/// ```
public struct SpliceInfoSection: Sendable, Hashable {
  /// `sap_type` (2 bits; 3 means not specified).
  public var sapType: UInt8
  /// `protocol_version` (0).
  public var protocolVersion: UInt8
  /// `pts_adjustment`: 33 bits added to every PTS in the section.
  public var ptsAdjustment90kHz: UInt64
  /// `cw_index`.
  public var cwIndex: UInt8
  /// `tier` (12 bits; 0xFFF when unused).
  public var tier: UInt16
  /// The splice command.
  public var command: SpliceCommand
  /// The splice descriptors, in order.
  public var descriptors: [SpliceDescriptor]
  /// The `CRC_32` field as written.
  public var crc32: UInt32

  public init(
    sapType: UInt8 = 3, protocolVersion: UInt8 = 0, ptsAdjustment90kHz: UInt64 = 0,
    cwIndex: UInt8 = 0, tier: UInt16 = 0xFFF, command: SpliceCommand,
    descriptors: [SpliceDescriptor] = [], crc32: UInt32 = 0
  ) {
    self.sapType = sapType
    self.protocolVersion = protocolVersion
    self.ptsAdjustment90kHz = ptsAdjustment90kHz
    self.cwIndex = cwIndex
    self.tier = tier
    self.command = command
    self.descriptors = descriptors
    self.crc32 = crc32
  }

  /// The segmentation descriptors, in order.
  public var segmentationDescriptors: [SegmentationDescriptor] {
    descriptors.compactMap {
      if case .segmentation(let descriptor) = $0 { return descriptor }
      return nil
    }
  }

  /// Whether the section starts or ends an ad break, or nil when it says neither.
  ///
  /// A `splice_insert` that is not cancelled starts a break when `out_of_network_indicator`
  /// is set and ends one otherwise. A `time_signal` takes the first segmentation
  /// descriptor that is not cancelled and whose type starts or ends a break or an ad
  /// (`SegmentationType.isAdStart`, `isAdEnd`).
  public var signal: SCTE35Signal? {
    switch command {
    case .spliceInsert(let insert):
      guard !insert.isCancelled else { return nil }
      return insert.isOutOfNetwork ? .breakStart : .breakEnd
    case .timeSignal:
      guard let descriptor = signalDescriptor else { return nil }
      return descriptor.type.isAdStart ? .breakStart : .breakEnd
    case .spliceNull, .other:
      return nil
    }
  }

  /// The event the section belongs to: `splice_event_id` of a `splice_insert`, else the
  /// `segmentation_event_id` of the descriptor that gives `signal`, else of the first
  /// segmentation descriptor; nil when there is none.
  public var eventID: UInt32? {
    if case .spliceInsert(let insert) = command { return insert.eventID }
    return (signalDescriptor ?? segmentationDescriptors.first)?.eventID
  }

  /// The break's duration: a `splice_insert`'s `break_duration`, else the
  /// `segmentation_duration` of the descriptor that gives `signal`; nil when absent.
  public var breakDuration: MediaTime? {
    if case .spliceInsert(let insert) = command, let duration = insert.breakDuration {
      return duration.duration
    }
    return signalDescriptor?.duration
  }

  /// The splice time after `pts_adjustment`, modulo 2^33; nil for an immediate splice or
  /// a command without a time.
  public var adjustedSplicePTS90kHz: UInt64? {
    let pts: UInt64?
    switch command {
    case .spliceInsert(let insert): pts = insert.spliceTime?.pts90kHz
    case .timeSignal(let time): pts = time.pts90kHz
    case .spliceNull, .other: pts = nil
    }
    return pts.map { ($0 &+ ptsAdjustment90kHz) & SpliceTime.ptsMask }
  }

  private var signalDescriptor: SegmentationDescriptor? {
    segmentationDescriptors.first { !$0.isCancelled && ($0.type.isAdStart || $0.type.isAdEnd) }
  }
}

/// What a splice section says about an ad break.
public enum SCTE35Signal: Sendable, Hashable {
  /// Leave the network: a break starts.
  case breakStart
  /// Return to the network: the break ends.
  case breakEnd
}

/// A `splice_command()`.
public enum SpliceCommand: Sendable, Hashable {
  /// `splice_null` (0x00).
  case spliceNull
  /// `splice_insert` (0x05).
  case spliceInsert(SpliceInsert)
  /// `time_signal` (0x06): the descriptors say what happens at the time.
  case timeSignal(SpliceTime)
  /// Any other command (`splice_schedule`, `bandwidth_reservation`, `private_command`),
  /// kept as its type and bytes.
  case other(type: UInt8, bytes: [UInt8])

  /// `splice_command_type`.
  public var type: UInt8 {
    switch self {
    case .spliceNull: return 0x00
    case .spliceInsert: return 0x05
    case .timeSignal: return 0x06
    case .other(let type, _): return type
    }
  }
}

/// `splice_time()`: a 33-bit PTS, or none for "immediately".
public struct SpliceTime: Sendable, Hashable {
  /// `pts_time` when `time_specified_flag` is set; nil otherwise.
  public var pts90kHz: UInt64?

  public init(pts90kHz: UInt64?) {
    self.pts90kHz = pts90kHz
  }

  /// `pts90kHz` as a time (timescale 90,000), before `pts_adjustment`.
  public var time: MediaTime? {
    pts90kHz.map { MediaTime(value: Int64($0), timescale: 90_000) }
  }

  /// The 33 bits of a PTS.
  static let ptsMask: UInt64 = (1 << 33) - 1
}

/// `break_duration()`.
public struct BreakDuration: Sendable, Hashable {
  /// `auto_return`: the splicer returns to the network by itself at the end.
  public var autoReturn: Bool
  /// `duration`, 33 bits of 90 kHz ticks.
  public var duration90kHz: UInt64

  public init(autoReturn: Bool, duration90kHz: UInt64) {
    self.autoReturn = autoReturn
    self.duration90kHz = duration90kHz
  }

  /// The duration as a time (timescale 90,000).
  public var duration: MediaTime { MediaTime(value: Int64(duration90kHz), timescale: 90_000) }
}

/// `splice_insert()`.
public struct SpliceInsert: Sendable, Hashable {
  /// A component of a component splice: its tag and time (nil when immediate).
  public struct Component: Sendable, Hashable {
    public var tag: UInt8
    public var spliceTime: SpliceTime?

    public init(tag: UInt8, spliceTime: SpliceTime?) {
      self.tag = tag
      self.spliceTime = spliceTime
    }
  }

  /// `splice_event_id`.
  public var eventID: UInt32
  /// `splice_event_cancel_indicator`: the event is cancelled; the fields below are unset.
  public var isCancelled: Bool
  /// `out_of_network_indicator`: leave the network (a break starts).
  public var isOutOfNetwork: Bool
  /// `program_splice_flag`: the whole program splices at once.
  public var isProgramSplice: Bool
  /// `splice_immediate_flag`.
  public var isImmediate: Bool
  /// The program's `splice_time()`, for a program splice that is not immediate.
  public var spliceTime: SpliceTime?
  /// The components, for a component splice.
  public var components: [Component]
  /// `break_duration()`, when `duration_flag` is set.
  public var breakDuration: BreakDuration?
  /// `unique_program_id`.
  public var uniqueProgramID: UInt16
  /// `avail_num`.
  public var availNumber: UInt8
  /// `avails_expected`.
  public var availsExpected: UInt8

  public init(
    eventID: UInt32, isCancelled: Bool = false, isOutOfNetwork: Bool = false,
    isProgramSplice: Bool = true, isImmediate: Bool = false, spliceTime: SpliceTime? = nil,
    components: [Component] = [], breakDuration: BreakDuration? = nil,
    uniqueProgramID: UInt16 = 0, availNumber: UInt8 = 0, availsExpected: UInt8 = 0
  ) {
    self.eventID = eventID
    self.isCancelled = isCancelled
    self.isOutOfNetwork = isOutOfNetwork
    self.isProgramSplice = isProgramSplice
    self.isImmediate = isImmediate
    self.spliceTime = spliceTime
    self.components = components
    self.breakDuration = breakDuration
    self.uniqueProgramID = uniqueProgramID
    self.availNumber = availNumber
    self.availsExpected = availsExpected
  }
}
