import Foundation
import PlayheadCore

/// Decrypts ISO/IEC 23001-7 Common Encryption samples of an MP4 as a demuxer reads them:
/// `cenc` (AES-CTR, 8- or 16-byte IVs) and `cbcs` (AES-CBC with the crypt:skip pattern of
/// the sample's encryption info, the chain restarting at each subsample, a trailing partial
/// block clear), whole samples or subsamples.
///
/// It works from the `AV_PKT_DATA_ENCRYPTION_INFO` side data FFmpeg's MP4 reader attaches
/// to each encrypted packet (the demuxer must not be given a `decryption_key`): it decrypts
/// the payload in place and removes the side data. A clear packet passes untouched. Keys
/// come from `keys`, asked once per key ID. Errors, all thrown to the demuxer's reader:
/// `.decryptionFailed` naming the key ID (32 hex digits and UUID) when the source has no key
/// or a key of the wrong size, when the subsamples do not cover the packet, when the side
/// data is malformed, or when `check` finds that the decrypted samples do not decode (a
/// wrong key); `.unsupportedEncryption` naming the scheme for `cens`, `cbc1` and others.
///
/// FFmpeg 5.1 attaches the right info to a fragmented MP4's packets only when the demuxer
/// reads the fragments in order: open such files with `isSeekable: false` (decision 0055).
///
/// Example:
/// ```swift
/// let demuxer = try Demuxer(reader: reader, isSeekable: false)
/// demuxer.packetDecryptor = CENCDecryptor(keys: SampleKeys([keyID: key]), demuxer: demuxer)
/// ```
public final class CENCDecryptor: PacketDecrypting {
  private let keys: any SampleKeySource
  private let check: DecryptedSampleCheck?
  /// The ciphers of the keys asked for so far, by key ID.
  private let ciphers = Locked<[[UInt8]: KeyCipher]>([:])

  /// Decrypts with keys from `keys`; `check` (nil: none) judges the first decrypted
  /// samples of each key.
  public init(keys: any SampleKeySource, check: DecryptedSampleCheck?) {
    self.keys = keys
    self.check = check
  }

  /// Decrypts the packets of `demuxer` with keys from `keys`, checking each key's first
  /// samples with a `DecryptedSampleCheck` of `demuxer` (set the result as the demuxer's
  /// `packetDecryptor`).
  public convenience init(keys: any SampleKeySource, demuxer: Demuxer) {
    self.init(keys: keys, check: DecryptedSampleCheck(demuxer: demuxer))
  }

  /// Decrypts `packet` in place and drops its encryption side data; a clear packet passes.
  public func decrypt(_ packet: Packet, stream: StreamInfo) throws(PlayheadError) {
    guard let info = try packet.encryptionInfo() else { return }
    let streamName = "\(stream.kind.rawValue) stream \(stream.index) (\(stream.codecName))"
    guard info.scheme == "cenc" || info.scheme == "cbcs" else {
      throw PlayheadError(
        .unsupportedEncryption,
        "The \(streamName) is encrypted with the '\(info.scheme)' scheme; Playhead decrypts "
          + "'cenc' and 'cbcs' only")
    }
    guard info.iv.count == 8 || info.iv.count == 16 else {
      throw PlayheadError(
        .decryptionFailed,
        "A sample of the \(streamName) has a \(info.iv.count)-byte IV (key ID "
          + "\(SampleKeyID.describe(info.keyID))); Common Encryption IVs are 8 or 16 bytes")
    }
    let ranges = try info.protectedRanges(sampleSize: packet.size)
    let cipher = try cipher(for: info.keyID, where: streamName)
    try packet.makeWritable()
    try packet.withMutablePayload { bytes throws(PlayheadError) in
      try cipher.lock.withLock { (cipher: inout SampleCipherBox) throws(PlayheadError) in
        if info.scheme == "cenc" {
          try cipher.cipher.applyCTR(to: bytes, ranges: ranges, iv: info.iv)
        } else {
          try cipher.cipher.decryptCBCPattern(
            bytes, ranges: ranges, iv: info.iv, cryptBlocks: info.cryptBlocks,
            skipBlocks: info.skipBlocks)
        }
      }
    }
    packet.removeEncryptionInfo()
    try check?.verify(packet, stream: stream, keyName: cipher.keyName)
  }

  /// The cipher of `keyID`, asking the key source the first time.
  private func cipher(for keyID: [UInt8], where stream: String) throws(PlayheadError)
    -> KeyCipher
  {
    if let known = ciphers.withLock({ $0[keyID] }) { return known }
    guard let key = try keys.key(for: keyID) else {
      throw PlayheadError(
        .decryptionFailed,
        "No key for key ID \(SampleKeyID.describe(keyID)) of the \(stream)")
    }
    guard key.count == SampleCipher.blockBytes else {
      throw PlayheadError(
        .decryptionFailed,
        "The key for key ID \(SampleKeyID.describe(keyID)) is \(key.count) bytes, expected 16")
    }
    let made = KeyCipher(
      keyName: "key ID \(SampleKeyID.describe(keyID))",
      lock: Locked(SampleCipherBox(cipher: SampleCipher(key: key))))
    return ciphers.withLock { known in
      if let earlier = known[keyID] { return earlier }
      known[keyID] = made
      return made
    }
  }
}

/// One key's cipher, the lock that serialises its use, and how errors name the key.
private struct KeyCipher: Sendable {
  let keyName: String
  let lock: Locked<SampleCipherBox>
}

/// A `SampleCipher`, reachable only inside its `Locked`.
private struct SampleCipherBox: @unchecked Sendable {
  // Unchecked Sendable: the cipher's AES contexts keep scratch state; it is only used
  // inside the `Locked` that holds this box.
  let cipher: SampleCipher
}
