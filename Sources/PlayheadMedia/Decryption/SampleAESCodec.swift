import Foundation

/// The elementary stream formats that HLS `SAMPLE-AES` encrypts in MPEG-TS segments, as
/// Apple's "MPEG-2 Stream Encryption Format for HTTP Live Streaming" defines them.
///
/// Each has its own protected block: a NAL unit of H.264, an ADTS frame of AAC, a sync frame
/// of AC-3 and E-AC-3.
public enum SampleAESCodec: String, Sendable, CaseIterable {
  /// H.264 in Annex B byte-stream form (PMT stream type 0xdb).
  case h264
  /// AAC in ADTS frames (stream type 0xcf).
  case aac
  /// AC-3 sync frames (stream type 0xc1).
  case ac3
  /// Enhanced AC-3 sync frames (stream type 0xc2).
  case eac3

  /// The format of a stream FFmpeg names `codecName` ("h264", "aac", "ac3", "eac3"), or nil
  /// for any other codec.
  public init?(codecName: String) {
    self.init(rawValue: codecName)
  }

  /// The name used in messages: "H.264 video", "AAC audio", ….
  var displayName: String {
    switch self {
    case .h264: return "H.264 video"
    case .aac: return "AAC audio"
    case .ac3: return "AC-3 audio"
    case .eac3: return "E-AC-3 audio"
    }
  }
}
