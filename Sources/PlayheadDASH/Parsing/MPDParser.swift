import Foundation
import PlayheadCore

/// Reads an MPD into `MPD`: through the one XML reader (no DTD, no entity expansion,
/// bounded by `XMLTreeLimits.mpd`), then element by element, with every error naming its
/// element path.
///
/// BaseURLs resolve level by level against the MPD's URL; one from the network that names
/// a local file is refused. Segment information is inherited down to each Representation.
/// A static MPD's Periods chain (`@start`, else the previous end); their durations come
/// from `@duration`, the next start or `mediaPresentationDuration`.
public enum MPDParser {
  /// Parses `data`, loaded from `url`.
  public static func parse(
    _ data: Data, url: URL, limits: XMLTreeLimits = .mpd
  ) throws(MPDError) -> MPD {
    let root: XMLTreeElement
    do {
      root = try XMLTreeReader.parse(data, limits: limits)
    } catch {
      throw MPDError(path: "line \(error.line)", "not an XML document: \(error.message)")
    }
    guard root.name == "MPD" else {
      throw MPDError(path: root.name, "the root element is not MPD", clause: "5.3.1")
    }
    var reader = MPDReader(url: url)
    return try reader.mpd(root)
  }
}

/// The walk over one MPD's tree.
struct MPDReader {
  let url: URL
  /// Whether the MPD came from the network (its URLs may then not name local files).
  let isRemote: Bool

  init(url: URL) {
    self.url = url
    isRemote = url.scheme?.lowercased() != "file"
  }

  mutating func mpd(_ element: XMLTreeElement) throws(MPDError) -> MPD {
    let path = "MPD"
    let typeText = element.attribute("type") ?? "static"
    guard let type = MPD.PresentationType(rawValue: typeText) else {
      throw MPDError(
        path: path + "/@type", "'\(typeText)' is not static or dynamic", clause: "5.3.1.2")
    }
    let essentials = descriptors(element, "EssentialProperty")
    if let first = essentials.first {
      throw MPDError(
        path: path + "/EssentialProperty",
        "'\(first.schemeIDURI)' is not understood, so the MPD cannot be used", clause: "5.8.4.8")
    }
    let baseURLs = try resolve(element, path: path, against: [url])
    var result = MPD(
      url: url, type: type, id: element.attribute("id"),
      profiles: (element.attribute("profiles") ?? "").split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
      },
      mediaPresentationDuration: try duration(element, "mediaPresentationDuration", path),
      minBufferTime: try duration(element, "minBufferTime", path),
      minimumUpdatePeriod: try duration(element, "minimumUpdatePeriod", path),
      timeShiftBufferDepth: try duration(element, "timeShiftBufferDepth", path),
      suggestedPresentationDelay: try duration(element, "suggestedPresentationDelay", path),
      maxSegmentDuration: try duration(element, "maxSegmentDuration", path),
      availabilityStartTime: try date(element, "availabilityStartTime", path),
      availabilityEndTime: try date(element, "availabilityEndTime", path),
      publishTime: try date(element, "publishTime", path),
      locations: try element.children("Location").enumerated().map {
        index, location throws(MPDError) in
        try resolveURL(location.text, against: url, path: "\(path)/Location[\(index + 1)]")
      },
      baseURLs: baseURLs, utcTimings: descriptors(element, "UTCTiming"),
      essentialProperties: essentials,
      supplementalProperties: descriptors(element, "SupplementalProperty"), periods: [])
    if type == .dynamic && result.availabilityStartTime == nil {
      throw MPDError(
        path: path + "/@availabilityStartTime", "a dynamic MPD needs one", clause: "5.3.1.2")
    }
    // No Period is allowed: a live MPD may announce its first one later.
    let periodElements = element.children("Period")
    var previousEnd: MediaTime? = type == .static ? .zero : nil
    for (index, periodElement) in periodElements.enumerated() {
      let periodPath = "\(path)/Period[\(index + 1)]"
      let explicitStart = try duration(periodElement, "start", periodPath)
      let explicitDuration = try duration(periodElement, "duration", periodPath)
      var period = try self.period(periodElement, path: periodPath, baseURLs: baseURLs)
      if let start = explicitStart {
        period.start = start
      } else if let previousEnd {
        period.start = previousEnd
      } else if index == 0 {
        period.start = .zero
      } else {
        throw MPDError(
          path: periodPath + "/@start", "no start, and the previous Period has no end",
          clause: "5.3.2.1")
      }
      period.duration = explicitDuration
      if index > 0, result.periods[index - 1].duration == nil {
        let previous = result.periods[index - 1]
        if period.start >= previous.start {
          result.periods[index - 1].duration = period.start - previous.start
        }
      }
      previousEnd = period.end
      result.periods.append(period)
    }
    if let last = result.periods.indices.last, result.periods[last].duration == nil,
      let total = result.mediaPresentationDuration, total >= result.periods[last].start
    {
      result.periods[last].duration = total - result.periods[last].start
    }
    return result
  }

  // MARK: Period, AdaptationSet, Representation

  /// A Period (none of its parts is required: a Period without AdaptationSets is read).
  func period(_ element: XMLTreeElement, path: String, baseURLs parents: [URL]) throws(MPDError)
    -> MPDPeriod
  {
    let baseURLs = try resolve(element, path: path, against: parents)
    let segments = MPDInheritedSegments().adding(try segmentFields(element, path: path))
    var sets: [MPDAdaptationSet] = []
    for (index, child) in element.children("AdaptationSet").enumerated() {
      let set = try adaptationSet(
        child, path: "\(path)/AdaptationSet[\(index + 1)]", baseURLs: baseURLs,
        inherited: segments)
      sets.append(set)
    }
    return MPDPeriod(
      id: element.attribute("id"), start: .zero, duration: nil, baseURLs: baseURLs,
      adaptationSets: sets,
      eventStreams: try element.children("EventStream").enumerated().map {
        index, stream throws(MPDError) in
        try eventStream(stream, path: "\(path)/EventStream[\(index + 1)]")
      })
  }

  func adaptationSet(
    _ element: XMLTreeElement, path: String, baseURLs parents: [URL],
    inherited: MPDInheritedSegments
  ) throws(MPDError) -> MPDAdaptationSet {
    let baseURLs = try resolve(element, path: path, against: parents)
    let segments = inherited.adding(try segmentFields(element, path: path))
    let protections = try contentProtections(element, path: path)
    let mimeType = element.attribute("mimeType")
    var set = MPDAdaptationSet(
      id: element.attribute("id"),
      contentType: element.attribute("contentType")
        ?? mimeType.flatMap { $0.split(separator: "/").first.map(String.init) },
      mimeType: mimeType, codecs: element.attribute("codecs"), language: element.attribute("lang"),
      roles: descriptors(element, "Role"), accessibilities: descriptors(element, "Accessibility"),
      labels: element.children("Label").map(\.text), frameRate: element.attribute("frameRate"),
      par: element.attribute("par"), sar: element.attribute("sar"),
      width: try integer(element, "width", path).map(Int.init),
      height: try integer(element, "height", path).map(Int.init),
      segmentAlignment: ["true", "1"].contains(element.attribute("segmentAlignment") ?? ""),
      essentialProperties: descriptors(element, "EssentialProperty"),
      supplementalProperties: descriptors(element, "SupplementalProperty"),
      contentProtections: protections,
      inbandEventStreams: descriptors(element, "InbandEventStream"), representations: [])
    let children = element.children("Representation")
    guard !children.isEmpty else {
      throw MPDError(path: path, "no Representation", clause: "5.3.3")
    }
    for (index, child) in children.enumerated() {
      set.representations.append(
        try representation(
          child, path: "\(path)/Representation[\(index + 1)]", set: set, baseURLs: baseURLs,
          inherited: segments))
    }
    return set
  }

  func representation(
    _ element: XMLTreeElement, path: String, set: MPDAdaptationSet, baseURLs parents: [URL],
    inherited: MPDInheritedSegments
  ) throws(MPDError) -> MPDRepresentation {
    // `@id` and `@bandwidth` are mandatory, but test MPDs and some packagers leave them
    // out: the id becomes the element's place, the bandwidth 0 (such a Representation is
    // never chosen over one that states it).
    let id = element.attribute("id") ?? path.split(separator: "/").suffix(2).joined(separator: "/")
    let bandwidth = try integer(element, "bandwidth", path) ?? 0
    let baseURLs = try resolve(element, path: path, against: parents)
    let segments = inherited.adding(try segmentFields(element, path: path))
    let own = try contentProtections(element, path: path)
    let mimeType = element.attribute("mimeType") ?? set.mimeType
    return MPDRepresentation(
      id: id, bandwidth: Int(bandwidth), codecs: element.attribute("codecs") ?? set.codecs,
      mimeType: mimeType,
      width: try integer(element, "width", path).map(Int.init) ?? set.width,
      height: try integer(element, "height", path).map(Int.init) ?? set.height,
      frameRate: element.attribute("frameRate") ?? set.frameRate,
      audioSamplingRate: element.attribute("audioSamplingRate"), baseURLs: baseURLs,
      contentProtections: set.contentProtections + own,
      addressing: try addressing(
        segments, path: path, representationID: id, baseURLs: baseURLs,
        isText: Self.isText(mimeType: mimeType, contentType: set.contentType)),
      essentialProperties: descriptors(element, "EssentialProperty"),
      supplementalProperties: descriptors(element, "SupplementalProperty"))
  }

  static func isText(mimeType: String?, contentType: String?) -> Bool {
    contentType == "text" || mimeType == "text/vtt" || mimeType == "application/ttml+xml"
  }
}
