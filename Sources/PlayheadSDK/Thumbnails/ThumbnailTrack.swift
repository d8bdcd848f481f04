import Foundation
import PlayheadCore
import PlayheadText

/// One thumbnail of a track: the time span it stands for and where its picture is.
public struct ThumbnailCue: Sendable, Hashable {
  /// When the span starts (inclusive).
  public var start: MediaTime
  /// When the span ends (exclusive).
  public var end: MediaTime
  /// The picture.
  public var reference: ThumbnailReference

  public init(start: MediaTime, end: MediaTime, reference: ThumbnailReference) {
    self.start = start
    self.end = end
    self.reference = reference
  }
}

/// The seek thumbnails of a video, read from a WebVTT thumbnails file: each cue's payload
/// is an image URL (relative to the file's URL), optionally with a `#xywh=x,y,w,h` sprite
/// region. A DASH MPD's thumbnail tiles give the same track (`init(mpd:…)`), as can any
/// list of cues (`init(cues:url:warnings:)`).
///
/// Lookup rule (`cue(at:)`, `thumbnail(at:)`), by binary search over the cues sorted by
/// start time (file order among equal starts):
/// - a time before the first cue's start, at or after the end of the track (the latest
///   cue end), or not numeric gives nil;
/// - otherwise the cue with the latest start at or before the time wins. Inside a cue
///   that is the cue itself (its end is exclusive, so at a boundary the next cue wins); in
///   a gap between cues it is the previous cue, held until the next one starts, as a
///   seek bar keeps showing the last picture; among overlapping cues the one that started
///   last wins.
///
/// Bad input never traps. A missing `WEBVTT` header or an exceeded parser limit throws;
/// a cue whose payload is not a usable URL (empty, several lines, not a URL, a scheme
/// not allowed, a malformed `#xywh=` fragment) is kept as a hole that gives nil over its
/// span, and is reported in `warnings`, as are the parser's own warnings.
///
/// ```swift
/// let track = try ThumbnailTrack(data: vttData, url: vttURL)
/// if let reference = track.thumbnail(at: MediaTime(seconds: 12, preferredTimescale: 1000)) {
///   print(reference.imageURL, reference.region ?? "whole image")
/// }
/// ```
public struct ThumbnailTrack: Sendable, Equatable {
  /// The thumbnails file's URL, against which relative image URLs were resolved.
  public let url: URL?
  /// The usable thumbnails, sorted by start time.
  public let thumbnails: [ThumbnailCue]
  /// Recoverable problems: the WebVTT parser's (`line N: …`) and unusable cues
  /// (`cue at 00:00:05.000: …`).
  public let warnings: [String]
  /// Every cue, usable or not, sorted by start time (stable).
  private let entries: [Entry]
  /// The latest end among the cues: the end of the track.
  public let end: MediaTime

  private struct Entry: Sendable, Equatable {
    var start: MediaTime
    var end: MediaTime
    var reference: ThumbnailReference?
  }

  /// The schemes an image may have in a file loaded from `url`: a file from the network
  /// may name only `http`/`https` images; a local file may also name local images.
  public static func allowedImageSchemes(forTrackURL url: URL?) -> Set<String> {
    switch url?.scheme?.lowercased() {
    case "http"?, "https"?: return ["http", "https"]
    default: return ["http", "https", "file"]
    }
  }

  /// Builds the track from a parsed WebVTT document whose relative URLs are relative to
  /// `url` (nil when the file has no URL: then only absolute URLs work).
  ///
  /// `allowedSchemes` defaults to `allowedImageSchemes(forTrackURL: url)`.
  public init(document: WebVTTDocument, url: URL?, allowedSchemes: Set<String>? = nil) {
    let schemes = allowedSchemes ?? Self.allowedImageSchemes(forTrackURL: url)
    var warnings = document.warnings.map(\.description)
    var entries: [Entry] = []
    entries.reserveCapacity(document.cues.count)
    for cue in document.cues where cue.start.isNumeric && cue.end.isNumeric {
      switch ThumbnailReference.parse(payload: cue.text, relativeTo: url, allowedSchemes: schemes)
      {
      case .success(let reference):
        entries.append(Entry(start: cue.start, end: cue.end, reference: reference))
      case .failure(let error):
        warnings.append("cue at \(WebVTTWriter.timestamp(cue.start)): \(error.message)")
        entries.append(Entry(start: cue.start, end: cue.end, reference: nil))
      }
    }
    self.init(entries: entries, url: url, warnings: warnings)
  }

  /// Builds a track from cues made elsewhere (a DASH thumbnail set, an application's own
  /// list); `url` is where they came from (nil when nowhere), `warnings` what was left out.
  ///
  /// Cues whose start or end is not numeric are dropped; the others are sorted by start
  /// time (stable), and the lookup rule is the same as for a WebVTT file.
  public init(cues: [ThumbnailCue], url: URL?, warnings: [String] = []) {
    let entries = cues.filter { $0.start.isNumeric && $0.end.isNumeric }.map {
      Entry(start: $0.start, end: $0.end, reference: $0.reference)
    }
    self.init(entries: entries, url: url, warnings: warnings)
  }

  private init(entries: [Entry], url: URL?, warnings: [String]) {
    // A stable sort: equal starts keep the given order.
    let sorted = entries.enumerated().sorted { lhs, rhs in
      lhs.element.start == rhs.element.start
        ? lhs.offset < rhs.offset : lhs.element.start < rhs.element.start
    }.map(\.element)
    self.url = url
    self.entries = sorted
    self.warnings = warnings
    self.thumbnails = sorted.compactMap { entry in
      entry.reference.map { ThumbnailCue(start: entry.start, end: entry.end, reference: $0) }
    }
    self.end = sorted.reduce(MediaTime.invalid) { latest, entry in
      latest.isNumeric ? MediaTime.maximum(latest, entry.end) : entry.end
    }
  }

  /// Parses a WebVTT thumbnails file loaded from `url`.
  ///
  /// Throws `.unsupportedFormat` (with the parser's line number) when the data is not
  /// WebVTT or exceeds the parser's limits.
  public init(data: Data, url: URL?, allowedSchemes: Set<String>? = nil) throws(PlayheadError) {
    let document: WebVTTDocument
    do {
      document = try WebVTTParser.parse(data)
    } catch {
      let name = url?.absoluteString ?? "the thumbnails file"
      throw PlayheadError(
        .unsupportedFormat, "\(name) is not a WebVTT thumbnails file: \(error)", url: url)
    }
    self.init(document: document, url: url, allowedSchemes: allowedSchemes)
  }

  /// The thumbnail cue for `time` by the type's lookup rule; nil when there is none.
  public func cue(at time: MediaTime) -> ThumbnailCue? {
    guard let index = entryIndex(at: time), let reference = entries[index].reference else {
      return nil
    }
    let entry = entries[index]
    return ThumbnailCue(start: entry.start, end: entry.end, reference: reference)
  }

  /// The picture for `time` by the type's lookup rule; nil when there is none.
  public func thumbnail(at time: MediaTime) -> ThumbnailReference? {
    guard let index = entryIndex(at: time) else { return nil }
    return entries[index].reference
  }

  /// The index of the entry with the latest start at or before `time`, within the track.
  private func entryIndex(at time: MediaTime) -> Int? {
    guard time.isNumeric, end.isNumeric, time < end else { return nil }
    // The first entry starting after `time`; the one before it wins.
    var low = 0
    var high = entries.count
    while low < high {
      let middle = low + (high - low) / 2
      if entries[middle].start <= time {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low == 0 ? nil : low - 1
  }
}
