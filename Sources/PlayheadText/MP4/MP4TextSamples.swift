/// One sample of a text track's fragment: its time on the media timeline (in the track's
/// timescale) and where its bytes are.
struct MP4TextSample {
  /// Presentation time (decode time plus composition offset).
  let time: Int64
  let duration: Int64
  let bytes: Range<Int>
}

/// The samples of a media segment's fragments for one track (ISO/IEC 14496-12 8.8):
/// every `moof/traf` of the track, its `tfhd` defaults (else the `trex`'s), its `tfdt`, and
/// each `trun`'s durations, sizes, composition offsets and data offset.
enum MP4TextSamples {
  /// Reads the samples of `track` in `reader`'s bytes, in order; each sample's bytes lie
  /// within the segment. Work is linear in the bytes and the samples (at most
  /// `limits.maxSamples`).
  static func read(_ reader: MP4BoxReader, track: MP4TextTrack, limits: MP4TextLimits)
    throws(MP4TextError) -> (samples: [MP4TextSample], start: Int64?)
  {
    var samples: [MP4TextSample] = []
    var start: Int64?
    var nextTime: Int64 = 0
    let top = try reader.boxes(in: 0..<reader.bytes.count, path: "")
    var moofIndex = 0
    for moof in top where moof.type == "moof" {
      moofIndex += 1
      let moofPath = "moof[\(moofIndex)]"
      for traf in try reader.boxes(in: moof.payload, path: moofPath) where traf.type == "traf" {
        let path = "\(moofPath)/traf"
        let boxes = try reader.boxes(in: traf.payload, path: path)
        guard let tfhd = boxes.first(where: { $0.type == "tfhd" }) else {
          throw MP4TextError(.malformed, path: path, "a traf without tfhd")
        }
        let header = try TrackFragmentHeader(
          tfhd, reader: reader, track: track, moof: moof,
          path: "\(path)/tfhd")
        guard header.trackID == track.trackID || track.trackID == 0 else { continue }
        if let tfdt = boxes.first(where: { $0.type == "tfdt" }) {
          let tfdtPath = "\(path)/tfdt"
          let (version, _) = try reader.versionAndFlags(tfdt.payload, path: tfdtPath)
          let at = tfdt.payload.lowerBound + 4
          let time =
            version == 1
            ? try reader.uint64(at: at, in: tfdt.payload, path: tfdtPath)
            : UInt64(try reader.uint32(at: at, in: tfdt.payload, path: tfdtPath))
          guard time <= UInt64(Int64.max / 2) else {
            throw MP4TextError(.malformed, path: tfdtPath, "decode time \(time) is out of range")
          }
          nextTime = Int64(time)
        }
        if start == nil { start = nextTime }
        var dataPosition = header.baseOffset
        var runIndex = 0
        for trun in boxes where trun.type == "trun" {
          runIndex += 1
          try readRun(
            trun, reader: reader, header: header, path: "\(path)/trun[\(runIndex)]",
            limits: limits, time: &nextTime, data: &dataPosition, into: &samples)
        }
      }
    }
    return (samples, start)
  }

  /// The `tfhd` fields that apply to a fragment's runs.
  private struct TrackFragmentHeader {
    let trackID: UInt32
    let baseOffset: Int
    let duration: UInt32
    let size: UInt32

    init(_ box: MP4Box, reader: MP4BoxReader, track: MP4TextTrack, moof: MP4Box, path: String)
      throws(MP4TextError)
    {
      let p = box.payload
      let (_, flags) = try reader.versionAndFlags(p, path: path)
      var at = p.lowerBound + 4
      trackID = try reader.uint32(at: at, in: p, path: path)
      at += 4
      var base = moof.start
      if flags & 0x01 != 0 {
        let offset = try reader.uint64(at: at, in: p, path: path)
        guard offset <= UInt64(reader.bytes.count) else {
          throw MP4TextError(
            .malformed, path: path, "base data offset \(offset) is past the segment's end")
        }
        base = Int(offset)
        at += 8
      }
      if flags & 0x02 != 0 { at += 4 }  // sample description index
      var duration = track.defaultSampleDuration
      var size = track.defaultSampleSize
      if flags & 0x08 != 0 {
        duration = try reader.uint32(at: at, in: p, path: path)
        at += 4
      }
      if flags & 0x10 != 0 {
        size = try reader.uint32(at: at, in: p, path: path)
        at += 4
      }
      self.baseOffset = base
      self.duration = duration
      self.size = size
    }
  }

  /// One `trun`: its samples appended, the time and data position moved past them.
  private static func readRun(
    _ trun: MP4Box, reader: MP4BoxReader, header: TrackFragmentHeader, path: String,
    limits: MP4TextLimits, time: inout Int64, data: inout Int, into samples: inout [MP4TextSample]
  ) throws(MP4TextError) {
    let p = trun.payload
    let (version, flags) = try reader.versionAndFlags(p, path: path)
    let count = try reader.uint32(at: p.lowerBound + 4, in: p, path: path)
    guard Int(count) <= limits.maxSamples - samples.count else {
      throw MP4TextError(
        .limitExceeded, path: path,
        "\(count) samples, over the limit of \(limits.maxSamples) in a segment")
    }
    var at = p.lowerBound + 8
    if flags & 0x01 != 0 {
      let offset = Int32(bitPattern: try reader.uint32(at: at, in: p, path: path))
      data = header.baseOffset + Int(offset)
      at += 4
    }
    if flags & 0x04 != 0 { at += 4 }  // first sample flags
    let entrySize = [0x100, 0x200, 0x400, 0x800].filter { flags & $0 != 0 }.count * 4
    guard Int(count) * entrySize <= p.upperBound - at else {
      throw MP4TextError(
        .truncated, path: path, "\(count) samples do not fit in the box")
    }
    samples.reserveCapacity(samples.count + Int(count))
    for _ in 0..<Int(count) {
      var duration = header.duration
      var size = header.size
      var offset: Int64 = 0
      if flags & 0x100 != 0 {
        duration = try reader.uint32(at: at, in: p, path: path)
        at += 4
      }
      if flags & 0x200 != 0 {
        size = try reader.uint32(at: at, in: p, path: path)
        at += 4
      }
      if flags & 0x400 != 0 { at += 4 }
      if flags & 0x800 != 0 {
        let raw = try reader.uint32(at: at, in: p, path: path)
        offset = version == 0 ? Int64(raw) : Int64(Int32(bitPattern: raw))
        at += 4
      }
      guard data >= 0, Int(size) <= reader.bytes.count - data else {
        throw MP4TextError(
          .malformed, path: path,
          "sample \(samples.count + 1) (\(size) bytes at \(data)) lies outside the segment's "
            + "\(reader.bytes.count) bytes")
      }
      samples.append(
        MP4TextSample(
          time: time + offset, duration: Int64(duration), bytes: data..<(data + Int(size))))
      data += Int(size)
      time += Int64(duration)
    }
  }
}
