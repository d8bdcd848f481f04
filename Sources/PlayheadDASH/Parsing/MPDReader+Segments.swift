import Foundation
import PlayheadCore

extension MPDReader {
  /// The segment information `element` declares itself.
  func segmentFields(_ element: XMLTreeElement, path: String) throws(MPDError)
    -> [MPDSegmentFields]
  {
    var result: [MPDSegmentFields] = []
    for (name, kind) in [
      ("SegmentBase", MPDSegmentFields.Kind.base), ("SegmentList", .list),
      ("SegmentTemplate", .template),
    ] {
      guard let child = element.child(name) else { continue }
      let childPath = "\(path)/\(name)"
      var fields = MPDSegmentFields(kind: kind, path: childPath)
      fields.timescale = try integer(child, "timescale", childPath)
      fields.presentationTimeOffset = try integer(child, "presentationTimeOffset", childPath)
      fields.duration = try integer(child, "duration", childPath)
      fields.startNumber = try integer(child, "startNumber", childPath)
      fields.indexRange = try byteRange(child.attribute("indexRange"), childPath + "/@indexRange")
      fields.availabilityTimeOffset = try seconds(child, "availabilityTimeOffset", childPath)
      if let initialization = child.child("Initialization") {
        fields.initializationURL = initialization.attribute("sourceURL")
        fields.initializationRange = try byteRange(
          initialization.attribute("range"), childPath + "/Initialization/@range")
      }
      if kind == .template {
        fields.initializationTemplate = child.attribute("initialization")
        fields.media = child.attribute("media")
      }
      if kind == .list {
        let urls = child.children("SegmentURL")
        if !urls.isEmpty {
          fields.segmentURLs = try urls.enumerated().map { index, url throws(MPDError) in
            (
              url.attribute("media"),
              try byteRange(
                url.attribute("mediaRange"), "\(childPath)/SegmentURL[\(index + 1)]/@mediaRange")
            )
          }
        }
      }
      if let timeline = child.child("SegmentTimeline") {
        fields.timeline = try self.timeline(timeline, path: childPath + "/SegmentTimeline")
      }
      result.append(fields)
    }
    return result
  }

  func timeline(_ element: XMLTreeElement, path: String) throws(MPDError) -> MPDSegmentTimeline {
    var entries: [MPDSegmentTimeline.Entry] = []
    for (index, child) in element.children("S").enumerated() {
      let childPath = "\(path)/S[\(index + 1)]"
      guard let duration = try integer(child, "d", childPath), duration > 0 else {
        throw MPDError(path: childPath + "/@d", "missing or not positive", clause: "5.3.9.6")
      }
      var repeatCount: Int64 = 0
      if let text = child.attribute("r") {
        guard let value = Int64(text), value >= -1 else {
          throw MPDError(path: childPath + "/@r", "'\(text)' is not -1 or more")
        }
        repeatCount = value
      }
      entries.append(
        MPDSegmentTimeline.Entry(
          time: try integer(child, "t", childPath), duration: duration,
          repeatCount: repeatCount, number: try integer(child, "n", childPath)))
    }
    return MPDSegmentTimeline(entries: entries)
  }

  /// The addressing of a Representation from what it inherits: the kind its nearest level
  /// declared, checked to be usable.
  func addressing(
    _ segments: MPDInheritedSegments, path: String, representationID: String, baseURLs: [URL],
    isText: Bool
  ) throws(MPDError) -> MPDSegmentAddressing {
    guard let base = baseURLs.first else {
      throw MPDError(path: path, "no BaseURL to resolve segments against")
    }
    func timescale(_ fields: MPDSegmentFields) throws(MPDError) -> Int64 {
      let value = fields.timescale ?? 1
      guard value > 0, value <= Int64(Int32.max) else {
        throw MPDError(path: fields.path + "/@timescale", "\(value) is out of range")
      }
      return value
    }
    func initialization(_ fields: MPDSegmentFields) throws(MPDError) -> MPDURLRange? {
      guard fields.initializationURL != nil || fields.initializationRange != nil else {
        return nil
      }
      let target =
        try fields.initializationURL.map { text throws(MPDError) in
          try resolveURL(text, against: base, path: fields.path + "/Initialization/@sourceURL")
        } ?? base
      return MPDURLRange(url: target, range: fields.initializationRange)
    }
    switch segments.nearest {
    case .template?:
      guard let fields = segments.template else { break }
      guard let mediaText = fields.media else {
        return .unusable(reason: "\(fields.path)/@media: missing (ISO/IEC 23009-1 5.3.9.4)")
      }
      let media: MPDURLTemplate
      do { media = try MPDURLTemplate(mediaText) } catch {
        throw MPDError(path: fields.path + "/@media", error.message, clause: "5.3.9.4.4")
      }
      var initialization: MPDURLTemplate?
      if let text = fields.initializationTemplate {
        do { initialization = try MPDURLTemplate(text) } catch {
          throw MPDError(
            path: fields.path + "/@initialization", error.message, clause: "5.3.9.4.4")
        }
      }
      // Neither @duration nor a timeline with entries: no segment yet (a live timeline
      // may be empty until its first segment).
      return .template(
        MPDSegmentTemplate(
          timescale: try timescale(fields),
          presentationTimeOffset: fields.presentationTimeOffset ?? 0,
          duration: fields.timeline == nil ? fields.duration : nil,
          startNumber: fields.startNumber ?? 1, media: media, initialization: initialization,
          timeline: fields.timeline, availabilityTimeOffset: fields.availabilityTimeOffset))
    case .list?:
      guard let fields = segments.list else { break }
      let urls = fields.segmentURLs ?? []
      guard !urls.isEmpty else {
        return .unusable(reason: "\(fields.path): no SegmentURL (ISO/IEC 23009-1 5.3.9.3)")
      }
      if urls.count > 1 || fields.timeline != nil {
        guard fields.duration != nil || fields.timeline.map({ !$0.entries.isEmpty }) == true else {
          return .unusable(
            reason: "\(fields.path): several segments without @duration or a SegmentTimeline"
              + " (ISO/IEC 23009-1 5.3.9.2)")
        }
      }
      var references: [MPDURLRange] = []
      for (index, entry) in urls.enumerated() {
        let target =
          try entry.media.map { text throws(MPDError) in
            try resolveURL(text, against: base, path: "\(fields.path)/SegmentURL[\(index + 1)]")
          } ?? base
        references.append(MPDURLRange(url: target, range: entry.range))
      }
      return .list(
        MPDSegmentList(
          timescale: try timescale(fields),
          presentationTimeOffset: fields.presentationTimeOffset ?? 0, duration: fields.duration,
          startNumber: fields.startNumber ?? 1, initialization: try initialization(fields),
          segments: references, timeline: fields.timeline,
          availabilityTimeOffset: fields.availabilityTimeOffset))
    case .base?:
      guard let fields = segments.base else { break }
      // Without @indexRange, an Initialization range in the media file itself says where
      // to look: the sidx is guessed to follow it (`MPDSegmentBase.indexFetchRange`).
      let indexFollowsInitialization =
        fields.initializationRange != nil && fields.initializationURL == nil
      guard fields.indexRange != nil || isText || indexFollowsInitialization else {
        return .unusable(
          reason: "\(fields.path)/@indexRange: missing, no index of the segments"
            + " (ISO/IEC 23009-1 5.3.9.2)")
      }
      return .base(
        MPDSegmentBase(
          timescale: try timescale(fields),
          presentationTimeOffset: fields.presentationTimeOffset ?? 0,
          indexRange: fields.indexRange, initialization: try initialization(fields), media: base,
          availabilityTimeOffset: fields.availabilityTimeOffset))
    case nil:
      break
    }
    // No segment information: the BaseURL is the one segment (a text file, or a whole
    // media file played without an index).
    return .base(
      MPDSegmentBase(
        timescale: 1, presentationTimeOffset: 0, indexRange: nil, initialization: nil, media: base,
        availabilityTimeOffset: nil))
  }
}
