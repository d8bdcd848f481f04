import Foundation
import PlayheadCore

/// The segment information one level declares (`SegmentBase`, `SegmentList` or
/// `SegmentTemplate` on a Period, AdaptationSet or Representation), every attribute
/// optional, merged down the levels: a lower level's attribute wins, a missing one is
/// inherited from the same element above (ISO/IEC 23009-1 5.3.9.1).
struct MPDSegmentFields: Sendable {
  enum Kind: Sendable { case base, list, template }

  var kind: Kind
  var path: String
  var timescale: Int64?
  var presentationTimeOffset: Int64?
  var duration: Int64?
  var startNumber: Int64?
  var indexRange: ByteRange?
  var initializationURL: String?
  var initializationRange: ByteRange?
  var initializationTemplate: String?
  var media: String?
  var segmentURLs: [(media: String?, range: ByteRange?)]?
  var timeline: MPDSegmentTimeline?
  /// `@availabilityTimeOffset` (seconds; `INF` is `.positiveInfinity`).
  var availabilityTimeOffset: MediaTime?

  /// These fields over `parent`'s (same kind).
  func merged(over parent: MPDSegmentFields?) -> MPDSegmentFields {
    guard let parent else { return self }
    var result = self
    result.timescale = timescale ?? parent.timescale
    result.presentationTimeOffset = presentationTimeOffset ?? parent.presentationTimeOffset
    result.duration = duration ?? parent.duration
    result.startNumber = startNumber ?? parent.startNumber
    result.indexRange = indexRange ?? parent.indexRange
    if initializationURL == nil && initializationRange == nil {
      result.initializationURL = parent.initializationURL
      result.initializationRange = parent.initializationRange
    }
    result.initializationTemplate = initializationTemplate ?? parent.initializationTemplate
    result.media = media ?? parent.media
    result.segmentURLs = segmentURLs ?? parent.segmentURLs
    result.timeline = timeline ?? parent.timeline
    result.availabilityTimeOffset = availabilityTimeOffset ?? parent.availabilityTimeOffset
    return result
  }
}

/// The three kinds as inherited to one level, and which kind the lowest level declared.
struct MPDInheritedSegments: Sendable {
  var base: MPDSegmentFields?
  var list: MPDSegmentFields?
  var template: MPDSegmentFields?
  /// The kind the nearest level declared (a Representation's own wins).
  var nearest: MPDSegmentFields.Kind?

  /// This level's declarations over the inherited ones.
  func adding(_ own: [MPDSegmentFields]) -> MPDInheritedSegments {
    var result = self
    for fields in own {
      switch fields.kind {
      case .base: result.base = fields.merged(over: base)
      case .list: result.list = fields.merged(over: list)
      case .template: result.template = fields.merged(over: template)
      }
      result.nearest = fields.kind
    }
    return result
  }
}
