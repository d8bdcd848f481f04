import Foundation
import PlayheadCore

/// Decrypts sample-encrypted packets in place as a demuxer reads them, before they reach a
/// decoder: CENC (`cenc`, `cbcs`) samples that FFmpeg's MP4 reader marks with encryption
/// side data, and HLS `SAMPLE-AES` samples of an MPEG-TS run.
///
/// A demuxer calls `decrypt(_:stream:)` for every packet it reads, on its reading thread.
/// An implementation leaves clear packets as they are, and throws a typed error
/// (`.decryptionFailed` naming the key ID, or `.unsupportedEncryption`) rather than let
/// undecryptable or wrongly decrypted bytes reach a decoder.
public protocol PacketDecrypting: AnyObject, Sendable {
  /// Decrypts `packet` (of `stream`) in place, or leaves it when it is clear.
  func decrypt(_ packet: Packet, stream: StreamInfo) throws(PlayheadError)
}
