import CFFmpeg
import PlayheadCore

/// How one sample is encrypted, as FFmpeg's MP4 reader describes it in a packet's
/// `AV_PKT_DATA_ENCRYPTION_INFO` side data (from `tenc`, `senc`, `saiz`/`saio` and `sgpd`).
///
/// For `cbcs` with a constant IV (`tenc` version 1, no per-sample IV), FFmpeg 5.1 puts the
/// constant IV in `iv`; an 8-byte per-sample IV arrives zero-padded to 16 bytes.
struct SampleEncryptionInfo: Equatable {
  /// One subsample: `clearBytes` in the clear, then `protectedBytes` encrypted.
  struct Subsample: Equatable {
    var clearBytes: Int
    var protectedBytes: Int
  }

  /// The protection scheme's four-character code: "cenc", "cbcs", "cens", "cbc1".
  var scheme: String
  /// Pattern encryption: blocks encrypted, then blocks left clear (0 and 0: no pattern).
  var cryptBlocks: Int
  var skipBlocks: Int
  var keyID: [UInt8]
  var iv: [UInt8]
  /// Empty when the whole sample is protected.
  var subsamples: [Subsample]

  /// Reads the side data FFmpeg attached; nil when `size` is too short or its counts do
  /// not fit it (FFmpeg's own parser refuses those).
  init?(sideData: UnsafePointer<UInt8>, size: Int) {
    guard let info = av_encryption_info_get_side_data(sideData, size) else { return nil }
    defer { av_encryption_info_free(info) }
    let raw = info.pointee
    scheme = Self.fourCC(raw.scheme)
    cryptBlocks = Int(raw.crypt_byte_block)
    skipBlocks = Int(raw.skip_byte_block)
    keyID =
      raw.key_id.map { Array(UnsafeBufferPointer(start: $0, count: Int(raw.key_id_size))) }
      ?? []
    iv = raw.iv.map { Array(UnsafeBufferPointer(start: $0, count: Int(raw.iv_size))) } ?? []
    subsamples = (0..<Int(raw.subsample_count)).map { index in
      let entry = raw.subsamples[index]
      return Subsample(
        clearBytes: Int(entry.bytes_of_clear_data),
        protectedBytes: Int(entry.bytes_of_protected_data))
    }
  }

  /// The encrypted byte ranges of a sample of `size` bytes, in order; throws
  /// `.decryptionFailed` when the subsamples do not cover exactly `size` bytes.
  func protectedRanges(sampleSize size: Int) throws(PlayheadError) -> [Range<Int>] {
    if subsamples.isEmpty { return [0..<size] }
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(subsamples.count)
    var offset = 0
    for subsample in subsamples {
      offset += subsample.clearBytes
      let end = offset + subsample.protectedBytes
      guard end <= size else { break }
      if subsample.protectedBytes > 0 { ranges.append(offset..<end) }
      offset = end
    }
    let covered = subsamples.reduce(0) { $0 + $1.clearBytes + $1.protectedBytes }
    guard covered == size else {
      throw PlayheadError(
        .decryptionFailed,
        "The \(scheme) subsamples of a \(size)-byte sample of key ID \(SampleKeyID.describe(keyID)) "
          + "cover \(covered) bytes: the encryption info does not belong to this sample")
    }
    return ranges
  }

  private static func fourCC(_ value: UInt32) -> String {
    let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      return String(decoding: bytes, as: UTF8.self)
    }
    return "0x" + String(value, radix: 16)
  }
}
