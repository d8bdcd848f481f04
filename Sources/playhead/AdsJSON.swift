import Foundation
import Playhead
import PlayheadAds

/// The `ads --json` object (the schema is in docs/ads.md).
enum AdsJSON {
  static func value(_ resolution: AdTagResolution, url: URL) -> JSONValue {
    switch resolution {
    case .vast(let vast):
      return .object(
        [
          JSONField("kind", .string("vast")),
          JSONField("url", .string(url.absoluteString)),
          JSONField("version", .text(vast.document?.version)),
        ] + resolutionFields(vast))
    case .vmap(let vmap):
      return .object([
        JSONField("kind", .string("vmap")),
        JSONField("url", .string(url.absoluteString)),
        JSONField("version", .text(vmap.document.version)),
        JSONField("breaks", .array(vmap.breaks.map(breakValue))),
      ])
    }
  }

  static func breakValue(_ resolved: ResolvedAdBreak) -> JSONValue {
    let adBreak = resolved.adBreak
    var fields = [
      JSONField("timeOffset", .string(adBreak.timeOffset.description)),
      JSONField(
        "offsetSeconds",
        adBreak.timeOffset.contentTime(duration: nil).map(JSONValue.seconds) ?? .null),
      JSONField("breakType", .string(adBreak.breakType.names)),
      JSONField("breakId", .text(adBreak.breakID)),
      JSONField("repeatAfter", adBreak.repeatAfter.map(JSONValue.seconds) ?? .null),
    ]
    let source: String
    var tag: String?
    switch adBreak.adSource?.content {
    case nil, .none?: source = "none"
    case .adTagURI(let uri, _)?:
      source = "adTag"
      tag = uri
    case .vastAdData?, .invalidVASTAdData?: source = "inline"
    case .customAdData?: source = "custom"
    }
    fields.append(JSONField("source", .string(source)))
    fields.append(JSONField("adTagURI", .text(tag)))
    fields.append(JSONField("tracking", trackingValue(adBreak.trackingEvents)))
    fields.append(
      JSONField(
        "sourceError",
        resolved.sourceError.map {
          .object([JSONField("code", .int($0.code)), JSONField("message", .string($0.message))])
        } ?? .null))
    fields += resolutionFields(resolved.resolution ?? VASTResolution())
    return .object(fields)
  }

  static func resolutionFields(_ resolution: VASTResolution) -> [JSONField] {
    [
      JSONField("ads", .array(resolution.ads.map(adValue))),
      JSONField("fallbackAds", .array(resolution.fallbackAds.map(adValue))),
      JSONField("failures", .array(resolution.failures.map(failureValue))),
    ]
  }

  static func adValue(_ resolved: ResolvedVASTAd) -> JSONValue {
    let ad = resolved.ad
    let linear = ad.linear
    var media: JSONValue = .null
    var mediaError: JSONValue = .null
    if let linear {
      switch VASTMediaSelection().choose(from: linear) {
      case .success(let file):
        media = .object([
          JSONField("url", .string(file.url)), JSONField("type", .text(file.type)),
          JSONField("width", .int(file.width)), JSONField("height", .int(file.height)),
          JSONField("bitrateKbps", .int(file.bitrateKbps)),
          JSONField("delivery", .text(file.delivery)),
        ])
      case .failure(let failure):
        mediaError = .int(failure.code.rawValue)
      }
    }
    var skip: JSONValue = .null
    var skipSeconds: JSONValue = .null
    if let offset = linear?.skipOffset {
      skip = .string(offset.description)
      skipSeconds = offset.time(inAdOf: linear?.duration).map(JSONValue.seconds) ?? .null
    }
    return .object([
      JSONField("id", .text(ad.id)),
      JSONField("sequence", .int(resolved.podSequence)),
      JSONField("adSystem", .text(ad.adSystem)),
      JSONField("adTitle", .text(ad.adTitle)),
      JSONField("linear", .bool(linear != nil)),
      JSONField("duration", linear?.duration.map(JSONValue.seconds) ?? .null),
      JSONField("skipOffset", skip),
      JSONField("skipOffsetSeconds", skipSeconds),
      JSONField("mediaFiles", .int(linear?.mediaFiles.count ?? 0)),
      JSONField("mediaFile", media),
      JSONField("mediaError", mediaError),
      JSONField("impressions", .int(ad.impressions.count)),
      JSONField("errorUrls", .int(ad.errorURLs.count)),
      JSONField("tracking", trackingValue(linear?.trackingEvents ?? [])),
      JSONField("clickThrough", .text(linear?.videoClicks?.clickThrough)),
      JSONField("clickTracking", .int(linear?.videoClicks?.clickTracking.count ?? 0)),
      JSONField("companions", .int(ad.companions.count)),
      JSONField("nonLinears", .int(ad.nonLinears.count)),
      JSONField("verifications", .int(ad.verifications.count)),
      JSONField("wrapperAdIds", .array(resolved.wrapperAdIDs.map { .text($0) })),
      JSONField("chain", .array(resolved.wrapperChain.map { .string($0.absoluteString) })),
    ])
  }

  static func failureValue(_ failure: VASTAdFailure) -> JSONValue {
    .object([
      JSONField("code", .int(failure.code.rawValue)),
      JSONField("meaning", .string(failure.code.meaning)),
      JSONField("message", .string(failure.message)),
      JSONField("adId", .text(failure.adID)),
      JSONField("sequence", .int(failure.sequence)),
      JSONField("fallback", .bool(failure.isFallback)),
      JSONField("errorUrls", .array(failure.errorURLs.map { .string($0) })),
      JSONField("chain", .array(failure.wrapperChain.map { .string($0.absoluteString) })),
    ])
  }

  /// `{"start": 2, "firstQuartile": 1, …}` in order of first appearance.
  static func trackingValue(_ events: [VASTTracking]) -> JSONValue {
    .object(AdsText.counts(events).map { JSONField($0.0, .integer(Int64($0.1))) })
  }
}
