import CFFmpeg
import PlayheadCore

extension Packet {
  /// Whether the packet carries FFmpeg's encryption side data (it is still encrypted).
  var carriesEncryptionInfo: Bool {
    var size = 0
    return av_packet_get_side_data(raw, AV_PKT_DATA_ENCRYPTION_INFO, &size) != nil && size > 0
  }

  /// The packet's encryption info; nil for a clear packet. Throws `.decryptionFailed` for
  /// side data FFmpeg's parser refuses.
  func encryptionInfo() throws(PlayheadError) -> SampleEncryptionInfo? {
    var size = 0
    guard let data = av_packet_get_side_data(raw, AV_PKT_DATA_ENCRYPTION_INFO, &size), size > 0
    else { return nil }
    guard let info = SampleEncryptionInfo(sideData: data, size: size) else {
      throw PlayheadError(
        .decryptionFailed,
        "Stream \(streamIndex) has a packet whose encryption info is malformed (\(size) bytes)")
    }
    return info
  }

  /// Gives the packet its own writable copy of its payload when it shares one.
  func makeWritable() throws(PlayheadError) {
    let result = av_packet_make_writable(raw)
    if result < 0 {
      throw FFmpegError.make(
        .decryptionFailed, "Could not make a packet of stream \(streamIndex) writable",
        code: result)
    }
  }

  /// The payload, writable in place (call `makeWritable()` first).
  func withMutablePayload<Result>(
    _ body: (UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Result
  )
    throws(PlayheadError) -> Result
  {
    let count = Int(raw.pointee.size)
    guard count > 0, let data = raw.pointee.data else {
      return try body(UnsafeMutableRawBufferPointer(start: nil, count: 0))
    }
    return try body(UnsafeMutableRawBufferPointer(start: data, count: count))
  }

  /// Drops the encryption side data (after decryption), freeing it; other side data stays.
  func removeEncryptionInfo() {
    // FFmpeg 5.1 has no call to remove one side data entry; the packet's side data array
    // is public and owned by the packet, so the entry is freed and the rest moved down.
    guard let entries = raw.pointee.side_data else { return }
    var count = Int(raw.pointee.side_data_elems)
    var index = 0
    while index < count {
      if entries[index].type == AV_PKT_DATA_ENCRYPTION_INFO {
        av_free(entries[index].data)
        for later in index..<(count - 1) { entries[later] = entries[later + 1] }
        count -= 1
        entries[count] = AVPacketSideData()
      } else {
        index += 1
      }
    }
    raw.pointee.side_data_elems = Int32(count)
  }
}
