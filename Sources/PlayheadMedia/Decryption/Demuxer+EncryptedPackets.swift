import PlayheadCore

extension Demuxer {
  /// Throws `.decryptionFailed` for a packet that still carries FFmpeg's encryption info
  /// after the decryptor (or with no decryptor set): its bytes are encrypted and must never
  /// reach a decoder. The message names the stream, the scheme and the key ID.
  func refuseEncrypted(_ packet: Packet) throws(PlayheadError) {
    guard packet.carriesEncryptionInfo else { return }
    let stream = try streamInfo(packet.streamIndex)
    let info = try? packet.encryptionInfo()
    let described =
      info.map { "\($0.scheme), key ID \(SampleKeyID.describe($0.keyID))" }
      ?? "unreadable encryption info"
    let reason =
      packetDecryptor == nil
      ? "no decryptor is set" : "the demuxer's decryptor left it encrypted"
    throw PlayheadError(
      .decryptionFailed,
      "A packet of \(stream.kind.rawValue) stream \(stream.index) (\(stream.codecName)) of "
        + "\(url.absoluteString) is encrypted (\(described)) and \(reason)", url: url)
  }
}
