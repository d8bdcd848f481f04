import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia

/// The key a sample-encrypted segment (`SAMPLE-AES`, `SAMPLE-AES-CTR`) is decrypted with
/// at packet level, and what names it in errors.
struct SegmentSampleKey: Sendable, Equatable {
  let method: KeyMethod
  /// The 16-byte content key.
  let key: [UInt8]
  /// The `IV` of the `EXT-X-KEY`, else the media sequence number as 16 bytes.
  let iv: [UInt8]
  /// Names the key in errors (`key https://…/key.bin of segment 7`).
  let label: String
}

/// Where each segment of a run starts in the run's bytes, with its sample key (nil for a
/// clear segment): what a packet decryptor needs to choose a packet's key by its byte
/// position.
///
/// The run's feed adds segments as the demuxer reads (the first ones while it probes,
/// before any decryptor exists); `attach` replays those and forwards the later ones.
/// Thread-safe.
final class RunKeySchedule: Sendable {
  typealias Entry = (offset: Int64, key: SegmentSampleKey?)
  typealias Sink = @Sendable (Entry) throws(PlayheadError) -> Void

  private let state = Locked<(entries: [Entry], sink: Sink?)>(([], nil))

  /// Whether any segment so far is sample-encrypted.
  var hasSampleKeys: Bool { state.withLock { $0.entries.contains { $0.key != nil } } }

  /// The key of the latest segment added (the one the demuxer reads, give or take its
  /// read-ahead); nil when it is clear.
  var latestKey: SegmentSampleKey? { state.withLock { $0.entries.last?.key } }

  /// Records the segment starting at run offset `offset`.
  func add(offset: Int64, key: SegmentSampleKey?) throws(PlayheadError) {
    let sink = state.withLock { state -> Sink? in
      state.entries.append((offset, key))
      // Only the latest entries matter once a sink takes them.
      if state.sink != nil, state.entries.count > 8 { state.entries.removeFirst() }
      return state.sink
    }
    try sink?((offset, key))
  }

  /// Sends every entry so far to `sink`, then each later one as it is added.
  func attach(_ sink: @escaping Sink) throws(PlayheadError) {
    let entries = state.withLock { state -> [Entry] in
      state.sink = sink
      return state.entries
    }
    for entry in entries { try sink(entry) }
  }
}

extension SampleAESDecryptor {
  /// Takes `entry` of a run's key schedule: its key from its offset, or clear bytes.
  func schedule(_ entry: RunKeySchedule.Entry) throws(PlayheadError) {
    if let key = entry.key {
      try addKey(key.key, iv: key.iv, keyLabel: key.label, fromRunOffset: entry.offset)
    } else {
      try addClear(fromRunOffset: entry.offset)
    }
  }
}
