import Foundation

/// What an fMP4 text track's cues are written in: its sample entry.
public enum MP4TextFormat: String, Sendable, CaseIterable {
  /// `wvtt`: WebVTT in MP4 (ISO/IEC 14496-30 clause 7), samples of `vttc`/`vtte` boxes.
  case webVTT = "wvtt"
  /// `stpp`: TTML in MP4 (ISO/IEC 14496-30 clause 6), each sample a TTML document.
  case ttml = "stpp"
}

/// The text track of an fMP4 initialization section: its format, track ID, media timescale
/// (`mdhd`) and the fragment defaults of its `trex`.
///
/// Read once per Representation and reused for every segment:
/// ```swift
/// let track = try MP4TextTrack.parse(initBytes)
/// let segment = try MP4TextParser.parse(segment: bytes, track: track)
/// ```
public struct MP4TextTrack: Sendable, Equatable {
  /// The sample entry's format.
  public let format: MP4TextFormat
  /// The track's ID (`tkhd`), the one its fragments' `tfhd` names.
  public let trackID: UInt32
  /// Media time units per second (`mdhd`), 1 through `Int32.max`.
  public let timescale: Int32
  /// `trex` defaults for the track's fragments.
  let defaultSampleDuration: UInt32
  let defaultSampleSize: UInt32

  public init(format: MP4TextFormat, trackID: UInt32, timescale: Int32) {
    self.init(
      format: format, trackID: trackID, timescale: timescale, defaultSampleDuration: 0,
      defaultSampleSize: 0)
  }

  init(
    format: MP4TextFormat, trackID: UInt32, timescale: Int32, defaultSampleDuration: UInt32,
    defaultSampleSize: UInt32
  ) {
    self.format = format
    self.trackID = trackID
    self.timescale = timescale
    self.defaultSampleDuration = defaultSampleDuration
    self.defaultSampleSize = defaultSampleSize
  }

  /// Reads the first `wvtt` or `stpp` track of the initialization section `data`
  /// (`moov/trak/mdia/mdhd` for the timescale, `.../minf/stbl/stsd` for the sample entry,
  /// `moov/mvex/trex` for the defaults).
  ///
  /// Throws `.noTextTrack` when no track has such a sample entry, `.truncated` or
  /// `.malformed` for broken boxes (a zero timescale, one above `Int32.max`).
  public static func parse(_ data: Data, limits: MP4TextLimits = .default)
    throws(MP4TextError) -> MP4TextTrack
  {
    guard data.count <= limits.maxBytes else {
      throw MP4TextError(
        .limitExceeded, path: "",
        "initialization section of \(data.count) bytes, over the limit of \(limits.maxBytes)")
    }
    let reader = MP4BoxReader(bytes: [UInt8](data))
    return try parse(reader)
  }

  static func parse(_ reader: MP4BoxReader) throws(MP4TextError) -> MP4TextTrack {
    let top = try reader.boxes(in: 0..<reader.bytes.count, path: "")
    guard let moov = top.first(where: { $0.type == "moov" }) else {
      throw MP4TextError(.noTextTrack, path: "", "no moov box")
    }
    let moovBoxes = try reader.boxes(in: moov.payload, path: "moov")
    for (index, trak) in moovBoxes.filter({ $0.type == "trak" }).enumerated() {
      let path = "moov/trak[\(index + 1)]"
      guard let found = try textTrack(trak, reader: reader, path: path) else { continue }
      var duration: UInt32 = 0
      var size: UInt32 = 0
      if let mvex = moovBoxes.first(where: { $0.type == "mvex" }) {
        for trex in try reader.boxes(in: mvex.payload, path: "moov/mvex") where trex.type == "trex"
        {
          let p = trex.payload
          let id = try reader.uint32(at: p.lowerBound + 4, in: p, path: "moov/mvex/trex")
          guard id == found.trackID else { continue }
          duration = try reader.uint32(at: p.lowerBound + 12, in: p, path: "moov/mvex/trex")
          size = try reader.uint32(at: p.lowerBound + 16, in: p, path: "moov/mvex/trex")
        }
      }
      return MP4TextTrack(
        format: found.format, trackID: found.trackID, timescale: found.timescale,
        defaultSampleDuration: duration, defaultSampleSize: size)
    }
    throw MP4TextError(.noTextTrack, path: "moov", "no trak with a wvtt or stpp sample entry")
  }

  /// The track's format, ID and timescale when its sample entry is `wvtt` or `stpp`.
  private static func textTrack(_ trak: MP4Box, reader: MP4BoxReader, path: String)
    throws(MP4TextError) -> MP4TextTrack?
  {
    let children = try reader.boxes(in: trak.payload, path: path)
    guard let mdia = children.first(where: { $0.type == "mdia" }) else { return nil }
    let mdiaBoxes = try reader.boxes(in: mdia.payload, path: "\(path)/mdia")
    guard let minf = mdiaBoxes.first(where: { $0.type == "minf" }),
      let stbl = try reader.child("stbl", of: minf, path: "\(path)/mdia/minf"),
      let stsd = try reader.child("stsd", of: stbl, path: "\(path)/mdia/minf/stbl")
    else { return nil }
    let stsdPath = "\(path)/mdia/minf/stbl/stsd"
    // stsd: version/flags, entry count, then the entries.
    let entriesStart = stsd.payload.lowerBound + 8
    guard entriesStart <= stsd.payload.upperBound else {
      throw MP4TextError(.truncated, path: stsdPath, "the box ends inside its header")
    }
    let entries = try reader.boxes(in: entriesStart..<stsd.payload.upperBound, path: stsdPath)
    guard let entry = entries.first, let format = MP4TextFormat(rawValue: entry.type) else {
      return nil
    }
    guard let mdhd = mdiaBoxes.first(where: { $0.type == "mdhd" }) else {
      throw MP4TextError(.malformed, path: "\(path)/mdia", "a text track without mdhd")
    }
    let mdhdPath = "\(path)/mdia/mdhd"
    let (version, _) = try reader.versionAndFlags(mdhd.payload, path: mdhdPath)
    let timescale = try reader.uint32(
      at: mdhd.payload.lowerBound + (version == 1 ? 20 : 12), in: mdhd.payload, path: mdhdPath)
    guard timescale > 0, timescale <= UInt32(Int32.max) else {
      throw MP4TextError(.malformed, path: mdhdPath, "timescale \(timescale) is not 1…\(Int32.max)")
    }
    var trackID: UInt32 = 0
    if let tkhd = children.first(where: { $0.type == "tkhd" }) {
      let (tkhdVersion, _) = try reader.versionAndFlags(tkhd.payload, path: "\(path)/tkhd")
      trackID = try reader.uint32(
        at: tkhd.payload.lowerBound + (tkhdVersion == 1 ? 20 : 12), in: tkhd.payload,
        path: "\(path)/tkhd")
    }
    return MP4TextTrack(format: format, trackID: trackID, timescale: Int32(timescale))
  }
}
