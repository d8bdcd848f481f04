import Foundation
import PlayheadCore
import PlayheadDASH

/// Lists the thumbnail cues of an MPD's DASH-IF thumbnail tile sets (IOP 6.2.6): in each
/// Period, one Representation's segments, each image cut into its tiles in row-major order,
/// each tile an equal part of its segment's duration.
///
/// This lives in the SDK, not in `PlayheadDASH`: `ThumbnailTrack` and `ThumbnailReference`
/// are SDK types and `PlayheadDASH` depends on Core only. What is DASH's own (the grid, the
/// tile size, which descriptor applies) is in `PlayheadDASH` (`MPDThumbnailTiling`).
///
/// Pure and bounded: segments are walked lazily and the walk stops at `maximumCues` cues or
/// segments, so the work is linear in them, whatever the MPD says. Problems never trap: a set whose
/// tiling cannot be read, or whose segments cannot be listed, is left out with a warning.
struct DASHThumbnailCues {
  /// The cues, in Period order.
  var cues: [ThumbnailCue] = []
  /// Sets and segments left out, and truncation.
  var warnings: [String] = []
  /// Whether the MPD has any thumbnail tile set (usable or not).
  var hasThumbnailSets = false
  /// Whether the Representation the caller asked for was found.
  var foundRequestedRepresentation = false

  /// A usable Representation of a thumbnail set with its tiling.
  private struct Candidate {
    var representation: MPDRepresentation
    var tiling: MPDThumbnailTiling
  }

  /// Lists the cues of `mpd`; see `ThumbnailTrack.init(mpd:representationID:at:maximumCues:)`.
  init(mpd: MPD, representationID: String?, now: Date?, maximumCues: Int) {
    let schemes = ThumbnailTrack.allowedImageSchemes(forTrackURL: mpd.url)
    var periodIndices = Array(mpd.periods.indices)
    if mpd.type == .dynamic {
      if let now {
        periodIndices = mpd.periodIndices(availableAt: now)
      } else {
        periodIndices = []
        if mpd.periods.contains(where: { $0.adaptationSets.contains(where: \.isThumbnailTiles) }) {
          hasThumbnailSets = true
          warnings.append("MPD: a dynamic MPD's thumbnails need the time (now); none listed")
        }
      }
    }
    for index in periodIndices {
      let period = mpd.periods[index]
      let path = "MPD/Period[\(index + 1)]"
      guard
        let chosen = choose(
          in: period, path: path, representationID: representationID)
      else { continue }
      let segments: AnySequence<MPDSegmentReference>
      if mpd.type == .dynamic, let now {
        segments = AnySequence(
          chosen.representation.availableSegments(
            in: period, of: mpd, at: now, maxCount: max(1, maximumCues)
          ).segments)
      } else {
        segments = chosen.representation.segmentSequence(in: period)
      }
      let full = add(
        segments, tiling: chosen.tiling, period: period,
        path: "\(path)/Representation[id=\(chosen.representation.id)]", schemes: schemes,
        maximumCues: maximumCues)
      if !full {
        warnings.append("MPD: thumbnails truncated at \(maximumCues) cues")
        break
      }
    }
  }

  /// The Representation of `period`'s thumbnail sets to use: the one with `representationID`
  /// when given, else the one with the widest tiles (then the tallest, then the first).
  private mutating func choose(in period: MPDPeriod, path: String, representationID: String?)
    -> Candidate?
  {
    var best: Candidate?
    for (setIndex, set) in period.adaptationSets.enumerated() where set.isThumbnailTiles {
      hasThumbnailSets = true
      for (index, representation) in set.representations.enumerated() {
        if let representationID {
          guard representation.id == representationID else { continue }
          foundRequestedRepresentation = true
        }
        let place = "\(path)/AdaptationSet[\(setIndex + 1)]/Representation[\(index + 1)]"
        let tiling: MPDThumbnailTiling
        do {
          tiling = try set.thumbnailTiling(of: representation, path: place)
        } catch {
          warnings.append("\(error); thumbnail set ignored")
          continue
        }
        if case .unusable(let reason) = representation.addressing {
          warnings.append("\(place): \(reason); thumbnail set ignored")
          continue
        }
        let candidate = Candidate(representation: representation, tiling: tiling)
        if let current = best,
          (current.tiling.tileWidth, current.tiling.tileHeight)
            >= (tiling.tileWidth, tiling.tileHeight)
        {
          continue
        }
        best = candidate
      }
    }
    return best
  }

  /// Adds the tiles of `segments`; false when `maximumCues` was reached.
  private mutating func add(
    _ segments: AnySequence<MPDSegmentReference>, tiling: MPDThumbnailTiling, period: MPDPeriod,
    path: String, schemes: Set<String>, maximumCues: Int
  ) -> Bool {
    let count = tiling.tileCount
    var skipped = 0
    defer {
      if skipped > 0 {
        warnings.append("\(path): \(skipped) segments without a usable image or duration left out")
      }
    }
    var walked = 0
    for segment in segments {
      // Every usable segment gives at least one cue: walking more segments than cues is
      // never needed, which bounds the walk when segments are left out.
      walked += 1
      guard walked <= maximumCues else { return false }
      if let end = period.end, segment.start >= end { break }
      guard segment.range == nil, segment.start.isNumeric, segment.duration.isNumeric,
        segment.duration > .zero,
        let scheme = segment.url.scheme?.lowercased(), schemes.contains(scheme)
      else {
        skipped += 1
        continue
      }
      // Exact tile times: the duration in a timescale `count` times finer (when it fits).
      let fine = Int32(clamping: Int64(segment.duration.timescale) * Int64(count))
      let length = segment.duration.convertScale(fine)
      let segmentEnd = segment.start + segment.duration
      for tile in 0..<count {
        guard cues.count < maximumCues else { return false }
        let start =
          segment.start + length.multiplied(byRatio: Int64(tile), denominator: Int64(count))
        let next =
          tile == count - 1
          ? segmentEnd
          : segment.start + length.multiplied(byRatio: Int64(tile + 1), denominator: Int64(count))
        let end = period.end.map { MediaTime.minimum($0, next) } ?? next
        guard start < end else { break }
        let origin = tiling.origin(ofTile: tile)
        let region = ThumbnailRegion(
          x: origin.x, y: origin.y, width: tiling.tileWidth, height: tiling.tileHeight)
        cues.append(
          ThumbnailCue(
            start: start, end: end,
            reference: ThumbnailReference(imageURL: segment.url, region: region)))
      }
    }
    return true
  }
}
