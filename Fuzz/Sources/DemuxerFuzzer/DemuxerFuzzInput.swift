import Foundation
import PlayheadCore
import PlayheadNet

/// A fuzz input split into media bytes and the control trailer that shapes the run.
///
/// Inputs shorter than `2 × trailerLength` are all media, read from a seekable source in
/// whole reads. Longer ones end with `trailerLength` control bytes:
///
/// | byte | meaning |
/// | --- | --- |
/// | 0 | bits 0–1: the source (0 seekable, 1 length unknown, 2 forward only, 3 a declared length half the real one); bit 2: decode audio; bit 3: seek to the middle halfway; bit 4: convert frames to RGBA and resample audio |
/// | 1 | the container hint: `value % 16` below 8 probes; 8… name `mpegts`, `mp4`, `matroska`, `mp3`, `aac`, `flac`, `wav`, `ogg` |
/// | 2 | packets to read: 8 + value |
/// | 3 | frames to decode: 1 + value % 32 |
/// | 4–15 | read sizes, cycled: low nibble × 2^(high nibble), at least 1 byte |
struct DemuxerFuzzInput {
  static let trailerLength = 16
  static let hints = ["mpegts", "mp4", "matroska", "mp3", "aac", "flac", "wav", "ogg"]

  enum SourceMode {
    case seekable, unknownLength, forwardOnly, shortLength
  }

  let media: Data
  let mode: SourceMode
  let decodesAudio: Bool
  let seeks: Bool
  let converts: Bool
  let formatHint: String?
  let maxPackets: Int
  let maxFrames: Int
  let readSizes: [Int]

  init(_ data: Data) {
    guard data.count >= 2 * Self.trailerLength else {
      media = data
      mode = .seekable
      (decodesAudio, seeks, converts) = (true, false, false)
      formatHint = nil
      (maxPackets, maxFrames) = (64, 8)
      readSizes = [Int.max]
      return
    }
    let trailer = Array(data.suffix(Self.trailerLength))
    media = data.prefix(data.count - Self.trailerLength)
    let flags = trailer[0]
    mode = [SourceMode.seekable, .unknownLength, .forwardOnly, .shortLength][Int(flags & 0x03)]
    decodesAudio = flags & 0x04 != 0
    seeks = flags & 0x08 != 0
    converts = flags & 0x10 != 0
    let hint = Int(trailer[1] % 16)
    formatHint = hint < 8 ? nil : Self.hints[hint - 8]
    maxPackets = 8 + Int(trailer[2])
    maxFrames = 1 + Int(trailer[3] % 32)
    readSizes = trailer[4...].map { byte in max(1, Int(byte & 0x0F) << Int(byte >> 4)) }
  }
}

/// A data source over the media bytes that reads in the sizes the trailer chose, and is
/// seekable (answers ranges), of unknown length, forward only, or lying about its length.
///
/// A forward-only source refuses an open at another offset than where the previous one
/// stopped with `.ioError`, like a server that ignores range requests.
final class FuzzDataSource: DataSource, @unchecked Sendable {
  // Unchecked Sendable: every `var` is guarded by `lock`.
  let url = URL(string: "memory:fuzz-input")!
  private let bytes: Data
  private let mode: DemuxerFuzzInput.SourceMode
  private let readSizes: [Int]
  private let lock = NSLock()
  private var readCount = 0
  private var position: Int64?
  private var nextOffset: Int64 = 0
  private var cancelled = false

  init(_ input: DemuxerFuzzInput) {
    bytes = input.media
    mode = input.mode
    readSizes = input.readSizes
  }

  /// The length the source says the resource has.
  private var told: Int64? {
    switch mode {
    case .seekable: return Int64(bytes.count)
    case .unknownLength, .forwardOnly: return nil
    case .shortLength: return Int64(bytes.count / 2)
    }
  }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    lock.lock()
    defer { lock.unlock() }
    if cancelled { throw PlayheadError(.cancelled, "cancelled", url: url) }
    let offset = request.range?.offset ?? 0
    if mode == .forwardOnly, offset != nextOffset {
      throw PlayheadError(
        .ioError, "the source cannot seek from byte \(nextOffset) to \(offset)", url: url)
    }
    position = offset
    let length = told.map { max(0, $0 - offset) }
    return DataResponseHead(url: url, length: length, totalLength: told)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    lock.lock()
    defer { lock.unlock() }
    if cancelled { throw PlayheadError(.cancelled, "read cancelled", url: url) }
    guard let offset = position else { throw PlayheadError.notOpen(url) }
    guard offset < Int64(bytes.count), buffer.count > 0 else { return 0 }
    let size = min(buffer.count, readSizes[readCount % readSizes.count], bytes.count - Int(offset))
    readCount += 1
    bytes.withUnsafeBytes { raw in
      buffer.baseAddress!.copyMemory(from: raw.baseAddress! + Int(offset), byteCount: size)
    }
    position = offset + Int64(size)
    nextOffset = offset + Int64(size)
    return size
  }

  func close() {
    lock.lock()
    position = nil
    lock.unlock()
  }

  func cancel() {
    lock.lock()
    cancelled = true
    lock.unlock()
  }
}
