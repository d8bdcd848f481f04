import PlayheadCore

/// A `splice_descriptor()`.
public enum SpliceDescriptor: Sendable, Hashable {
  /// `segmentation_descriptor` (tag 0x02).
  case segmentation(SegmentationDescriptor)
  /// Any other descriptor (avail, DTMF, time, audio, private), kept as its tag, identifier
  /// and the bytes after the identifier.
  case other(tag: UInt8, identifier: UInt32, bytes: [UInt8])
}

/// `segmentation_descriptor()`.
public struct SegmentationDescriptor: Sendable, Hashable {
  /// `web_delivery_allowed_flag` and its kin, present when `delivery_not_restricted_flag`
  /// is clear.
  public struct DeliveryRestrictions: Sendable, Hashable {
    public var webDeliveryAllowed: Bool
    public var noRegionalBlackout: Bool
    public var archiveAllowed: Bool
    /// `device_restrictions` (2 bits).
    public var deviceRestrictions: UInt8

    public init(
      webDeliveryAllowed: Bool, noRegionalBlackout: Bool, archiveAllowed: Bool,
      deviceRestrictions: UInt8
    ) {
      self.webDeliveryAllowed = webDeliveryAllowed
      self.noRegionalBlackout = noRegionalBlackout
      self.archiveAllowed = archiveAllowed
      self.deviceRestrictions = deviceRestrictions
    }
  }

  /// A component of a component segmentation: its tag and 33-bit PTS offset.
  public struct Component: Sendable, Hashable {
    public var tag: UInt8
    public var ptsOffset90kHz: UInt64

    public init(tag: UInt8, ptsOffset90kHz: UInt64) {
      self.tag = tag
      self.ptsOffset90kHz = ptsOffset90kHz
    }
  }

  /// The descriptor's `identifier` (0x43554549, "CUEI").
  public var identifier: UInt32
  /// `segmentation_event_id`.
  public var eventID: UInt32
  /// `segmentation_event_cancel_indicator`: the fields below are unset.
  public var isCancelled: Bool
  /// `program_segmentation_flag`.
  public var isProgramSegmentation: Bool
  /// The restrictions, or nil when `delivery_not_restricted_flag` is set.
  public var deliveryRestrictions: DeliveryRestrictions?
  /// The components, when not a program segmentation.
  public var components: [Component]
  /// `segmentation_duration` (40 bits), when `segmentation_duration_flag` is set.
  public var duration90kHz: UInt64?
  /// `segmentation_upid_type`.
  public var upidType: UInt8
  /// `segmentation_upid()`, raw.
  public var upid: [UInt8]
  /// `segmentation_type_id`.
  public var type: SegmentationType
  /// `segment_num`.
  public var segmentNumber: UInt8
  /// `segments_expected`.
  public var segmentsExpected: UInt8
  /// `sub_segment_num`, for the placement-opportunity and overlay types when present.
  public var subSegmentNumber: UInt8?
  /// `sub_segments_expected`, with `subSegmentNumber`.
  public var subSegmentsExpected: UInt8?

  public init(
    identifier: UInt32 = 0x4355_4549, eventID: UInt32, isCancelled: Bool = false,
    isProgramSegmentation: Bool = true, deliveryRestrictions: DeliveryRestrictions? = nil,
    components: [Component] = [], duration90kHz: UInt64? = nil, upidType: UInt8 = 0,
    upid: [UInt8] = [], type: SegmentationType, segmentNumber: UInt8 = 0,
    segmentsExpected: UInt8 = 0, subSegmentNumber: UInt8? = nil,
    subSegmentsExpected: UInt8? = nil
  ) {
    self.identifier = identifier
    self.eventID = eventID
    self.isCancelled = isCancelled
    self.isProgramSegmentation = isProgramSegmentation
    self.deliveryRestrictions = deliveryRestrictions
    self.components = components
    self.duration90kHz = duration90kHz
    self.upidType = upidType
    self.upid = upid
    self.type = type
    self.segmentNumber = segmentNumber
    self.segmentsExpected = segmentsExpected
    self.subSegmentNumber = subSegmentNumber
    self.subSegmentsExpected = subSegmentsExpected
  }

  /// `duration90kHz` as a time (timescale 90,000).
  public var duration: MediaTime? {
    duration90kHz.map { MediaTime(value: Int64($0), timescale: 90_000) }
  }
}

/// `segmentation_type_id`, with names for the types that mark breaks and ads.
public struct SegmentationType: RawRepresentable, Sendable, Hashable {
  public var rawValue: UInt8

  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  public static let programStart = SegmentationType(rawValue: 0x10)
  public static let programEnd = SegmentationType(rawValue: 0x11)
  public static let chapterStart = SegmentationType(rawValue: 0x20)
  public static let chapterEnd = SegmentationType(rawValue: 0x21)
  public static let breakStart = SegmentationType(rawValue: 0x22)
  public static let breakEnd = SegmentationType(rawValue: 0x23)
  public static let providerAdvertisementStart = SegmentationType(rawValue: 0x30)
  public static let providerAdvertisementEnd = SegmentationType(rawValue: 0x31)
  public static let distributorAdvertisementStart = SegmentationType(rawValue: 0x32)
  public static let distributorAdvertisementEnd = SegmentationType(rawValue: 0x33)
  public static let providerPlacementOpportunityStart = SegmentationType(rawValue: 0x34)
  public static let providerPlacementOpportunityEnd = SegmentationType(rawValue: 0x35)
  public static let distributorPlacementOpportunityStart = SegmentationType(rawValue: 0x36)
  public static let distributorPlacementOpportunityEnd = SegmentationType(rawValue: 0x37)
  public static let providerAdBlockStart = SegmentationType(rawValue: 0x44)
  public static let providerAdBlockEnd = SegmentationType(rawValue: 0x45)
  public static let distributorAdBlockStart = SegmentationType(rawValue: 0x46)
  public static let distributorAdBlockEnd = SegmentationType(rawValue: 0x47)

  /// Whether the type starts a break or an ad (0x22, 0x30, 0x32, 0x34, 0x36, 0x44, 0x46).
  public var isAdStart: Bool {
    switch rawValue {
    case 0x22, 0x30, 0x32, 0x34, 0x36, 0x44, 0x46: return true
    default: return false
    }
  }

  /// Whether the type ends a break or an ad (0x23, 0x31, 0x33, 0x35, 0x37, 0x45, 0x47).
  public var isAdEnd: Bool {
    switch rawValue {
    case 0x23, 0x31, 0x33, 0x35, 0x37, 0x45, 0x47: return true
    default: return false
    }
  }

  /// Whether `sub_segment_num` and `sub_segments_expected` may follow (0x34, 0x36, 0x38,
  /// 0x3A, 0x44, 0x46).
  var mayHaveSubSegments: Bool {
    switch rawValue {
    case 0x34, 0x36, 0x38, 0x3A, 0x44, 0x46: return true
    default: return false
    }
  }
}
