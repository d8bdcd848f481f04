/// Decoding a `splice_info_section` from bytes, bounded by the bytes at every step.
extension SpliceInfoSection {
  /// Decodes the section in `text`: `0x` hex (as in `EXT-X-DATERANGE`) or base64 (as in
  /// `EXT-OATCLS-SCTE35`).
  ///
  /// Throws `.invalidText` for text in neither form or longer than 8,200 characters, then
  /// as `init(bytes:verifyingCRC:)`.
  public init(text: String, verifyingCRC: Bool = true) throws(SCTE35Error) {
    guard let bytes = SCTE35Text.bytes(text) else { throw .invalidText }
    try self.init(bytes: bytes, verifyingCRC: verifyingCRC)
  }

  /// Decodes the section at the start of `bytes`; bytes after it are ignored.
  ///
  /// The section's length comes from `section_length`; bytes shorter than that are
  /// `.truncated`. The CRC-32 (MPEG-2) is checked first unless `verifyingCRC` is false
  /// (`.crcMismatch`). Every inner length (`splice_command_length`,
  /// `descriptor_loop_length`, `descriptor_length`, `segmentation_upid_length`) is checked
  /// against what is left: a field beyond its enclosing length is `.truncated`. Work is
  /// linear in the section's length.
  public init(bytes: [UInt8], verifyingCRC: Bool = true) throws(SCTE35Error) {
    var header = SCTE35BitReader(bytes, byteRange: 0..<bytes.count)
    let tableID = try header.byte("table_id")
    guard tableID == 0xFC else { throw .wrongTableID(tableID) }
    try header.skip(2, "section_syntax_indicator")
    let sapType = UInt8(try header.bits(2, "sap_type"))
    let sectionLength = Int(try header.bits(12, "section_length"))
    let total = 3 + sectionLength
    guard total <= bytes.count else {
      throw .truncated(field: "the section of \(total) bytes", byteOffset: bytes.count)
    }
    // The fixed fields up to the command type (11 bytes), the descriptor loop length and
    // the CRC.
    guard sectionLength >= 11 + 2 + 4 else {
      throw .malformed("section_length \(sectionLength) is shorter than the fixed fields")
    }
    let crcField =
      UInt32(bytes[total - 4]) << 24 | UInt32(bytes[total - 3]) << 16
      | UInt32(bytes[total - 2]) << 8 | UInt32(bytes[total - 1])
    if verifyingCRC {
      let computed = MPEG2CRC32.checksum(bytes[0..<total - 4])
      guard computed == crcField else { throw .crcMismatch(expected: crcField, computed: computed) }
    }
    var reader = SCTE35BitReader(bytes, byteRange: 3..<total - 4)
    let protocolVersion = try reader.byte("protocol_version")
    let encrypted = try reader.flag("encrypted_packet")
    try reader.skip(6, "encryption_algorithm")
    guard !encrypted else { throw .encrypted }
    let ptsAdjustment = try reader.bits(33, "pts_adjustment")
    let cwIndex = try reader.byte("cw_index")
    let tier = UInt16(try reader.bits(12, "tier"))
    let commandLength = Int(try reader.bits(12, "splice_command_length"))
    let commandType = try reader.byte("splice_command_type")
    let command: SpliceCommand
    if commandLength == 0xFFF {
      command = try Self.command(commandType, &reader, knownLength: false)
    } else {
      var commandReader = try reader.take(commandLength, "splice_command")
      command = try Self.command(commandType, &commandReader, knownLength: true)
    }
    let loopLength = Int(try reader.bits(16, "descriptor_loop_length"))
    var loop = try reader.take(loopLength, "splice_descriptor loop")
    var descriptors: [SpliceDescriptor] = []
    while loop.remainingBytes > 0 {
      descriptors.append(try SpliceDescriptor.decode(&loop))
    }
    self.init(
      sapType: sapType, protocolVersion: protocolVersion, ptsAdjustment90kHz: ptsAdjustment,
      cwIndex: cwIndex, tier: tier, command: command, descriptors: descriptors, crc32: crcField)
  }

  /// The command of `type` from `reader`: the command's own bytes when `knownLength`,
  /// else the rest of the section.
  private static func command(
    _ type: UInt8, _ reader: inout SCTE35BitReader, knownLength: Bool
  ) throws(SCTE35Error) -> SpliceCommand {
    switch type {
    case 0x00:
      return .spliceNull
    case 0x05:
      return .spliceInsert(try spliceInsert(&reader))
    case 0x06:
      return .timeSignal(try spliceTime(&reader, "time_signal splice_time"))
    default:
      guard knownLength else { throw .unknownCommandLength(commandType: type) }
      return .other(type: type, bytes: try reader.bytes(reader.remainingBytes, "splice_command"))
    }
  }

  private static func spliceInsert(_ reader: inout SCTE35BitReader) throws(SCTE35Error)
    -> SpliceInsert
  {
    let eventID = UInt32(try reader.bits(32, "splice_event_id"))
    let cancelled = try reader.flag("splice_event_cancel_indicator")
    try reader.skip(7, "reserved")
    var insert = SpliceInsert(eventID: eventID, isCancelled: cancelled)
    guard !cancelled else { return insert }
    insert.isOutOfNetwork = try reader.flag("out_of_network_indicator")
    insert.isProgramSplice = try reader.flag("program_splice_flag")
    let hasDuration = try reader.flag("duration_flag")
    insert.isImmediate = try reader.flag("splice_immediate_flag")
    try reader.skip(4, "reserved")
    if insert.isProgramSplice && !insert.isImmediate {
      insert.spliceTime = try spliceTime(&reader, "splice_insert splice_time")
    }
    if !insert.isProgramSplice {
      let count = Int(try reader.byte("component_count"))
      for _ in 0..<count {
        let tag = try reader.byte("component_tag")
        let time = insert.isImmediate ? nil : try spliceTime(&reader, "component splice_time")
        insert.components.append(SpliceInsert.Component(tag: tag, spliceTime: time))
      }
    }
    if hasDuration {
      let autoReturn = try reader.flag("auto_return")
      try reader.skip(6, "reserved")
      let duration = try reader.bits(33, "break_duration")
      insert.breakDuration = BreakDuration(autoReturn: autoReturn, duration90kHz: duration)
    }
    insert.uniqueProgramID = UInt16(try reader.bits(16, "unique_program_id"))
    insert.availNumber = try reader.byte("avail_num")
    insert.availsExpected = try reader.byte("avails_expected")
    return insert
  }

  private static func spliceTime(_ reader: inout SCTE35BitReader, _ field: String)
    throws(SCTE35Error) -> SpliceTime
  {
    guard try reader.flag(field + " time_specified_flag") else {
      try reader.skip(7, "reserved")
      return SpliceTime(pts90kHz: nil)
    }
    try reader.skip(6, "reserved")
    return SpliceTime(pts90kHz: try reader.bits(33, field + " pts_time"))
  }
}

extension SpliceDescriptor {
  /// The descriptor at the reader's position, which it then skips whole.
  static func decode(_ loop: inout SCTE35BitReader) throws(SCTE35Error) -> SpliceDescriptor {
    let tag = try loop.byte("splice_descriptor_tag")
    let length = Int(try loop.byte("descriptor_length"))
    var body = try loop.take(length, "splice_descriptor")
    let identifier = UInt32(try body.bits(32, "identifier"))
    guard tag == 0x02 else {
      return .other(
        tag: tag, identifier: identifier, bytes: try body.bytes(body.remainingBytes, "descriptor"))
    }
    return .segmentation(try SegmentationDescriptor.decode(identifier: identifier, &body))
  }
}

extension SegmentationDescriptor {
  /// The fields after `identifier`, from a reader bounded by `descriptor_length`.
  static func decode(identifier: UInt32, _ reader: inout SCTE35BitReader)
    throws(SCTE35Error) -> SegmentationDescriptor
  {
    let eventID = UInt32(try reader.bits(32, "segmentation_event_id"))
    let cancelled = try reader.flag("segmentation_event_cancel_indicator")
    try reader.skip(7, "reserved")
    var descriptor = SegmentationDescriptor(
      identifier: identifier, eventID: eventID, isCancelled: cancelled,
      type: SegmentationType(rawValue: 0))
    guard !cancelled else { return descriptor }
    descriptor.isProgramSegmentation = try reader.flag("program_segmentation_flag")
    let hasDuration = try reader.flag("segmentation_duration_flag")
    let notRestricted = try reader.flag("delivery_not_restricted_flag")
    if notRestricted {
      try reader.skip(5, "reserved")
    } else {
      descriptor.deliveryRestrictions = DeliveryRestrictions(
        webDeliveryAllowed: try reader.flag("web_delivery_allowed_flag"),
        noRegionalBlackout: try reader.flag("no_regional_blackout_flag"),
        archiveAllowed: try reader.flag("archive_allowed_flag"),
        deviceRestrictions: UInt8(try reader.bits(2, "device_restrictions")))
    }
    if !descriptor.isProgramSegmentation {
      let count = Int(try reader.byte("component_count"))
      for _ in 0..<count {
        let tag = try reader.byte("component_tag")
        try reader.skip(7, "reserved")
        let offset = try reader.bits(33, "pts_offset")
        descriptor.components.append(Component(tag: tag, ptsOffset90kHz: offset))
      }
    }
    if hasDuration {
      descriptor.duration90kHz = try reader.bits(40, "segmentation_duration")
    }
    descriptor.upidType = try reader.byte("segmentation_upid_type")
    let upidLength = Int(try reader.byte("segmentation_upid_length"))
    descriptor.upid = try reader.bytes(upidLength, "segmentation_upid")
    descriptor.type = SegmentationType(rawValue: try reader.byte("segmentation_type_id"))
    descriptor.segmentNumber = try reader.byte("segment_num")
    descriptor.segmentsExpected = try reader.byte("segments_expected")
    // Sections written before SCTE 35 2016 end here even for these types.
    if descriptor.type.mayHaveSubSegments && reader.remainingBytes >= 2 {
      descriptor.subSegmentNumber = try reader.byte("sub_segment_num")
      descriptor.subSegmentsExpected = try reader.byte("sub_segments_expected")
    }
    return descriptor
  }
}
