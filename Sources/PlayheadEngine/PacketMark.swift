import Foundation
import PlayheadCore
import PlayheadMedia

/// Where one packet of a stream lies in the stream's demux order, so that packets read
/// again after the demuxer moved back can be told from new ones.
///
/// An audio stream switch in a progressive file moves the demuxer back to the switch time
/// while the video decoder has already had the packets up to the mark: the byte position
/// orders them (a stream's packets lie in the file in decode order), else the decode
/// timestamp does.
struct PacketMark: Sendable, Equatable {
  /// The packet's byte position in the source, when the demuxer knows it.
  var bytePosition: Int64?
  /// The packet's decode timestamp, when the container gives it.
  var decodeTime: MediaTime?

  init(bytePosition: Int64?, decodeTime: MediaTime?) {
    self.bytePosition = bytePosition
    self.decodeTime = decodeTime
  }

  init(_ packet: Packet) {
    self.init(
      bytePosition: packet.bytePosition, decodeTime: packet.dts.isNumeric ? packet.dts : nil)
  }

  /// Whether the mark can tell packets read before from new ones at all.
  var canTell: Bool { bytePosition != nil || decodeTime != nil }

  /// Whether a packet at `bytePosition` with `decodeTime` of the same stream comes at or
  /// before the mark; false when neither can be compared (the packet is taken as new).
  func covers(bytePosition position: Int64?, decodeTime time: MediaTime?) -> Bool {
    if let mark = bytePosition, let position { return position <= mark }
    if let mark = decodeTime, let time { return time <= mark }
    return false
  }

  /// Whether `packet` (of the marked stream) comes at or before the mark.
  func covers(_ packet: Packet) -> Bool {
    let other = PacketMark(packet)
    return covers(bytePosition: other.bytePosition, decodeTime: other.decodeTime)
  }
}
