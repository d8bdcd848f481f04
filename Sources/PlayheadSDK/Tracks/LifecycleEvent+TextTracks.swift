import Foundation
import PlayheadCore

extension LifecycleEventType {
  /// The session's text track was chosen (once when the item becomes ready, even when none
  /// is) or changed. Properties: the track's fields (`track` is null for none) and
  /// `automatic`.
  public static let textTrackChanged = LifecycleEventType(rawValue: "textTrackChanged")
  /// The selected text track's cues are loaded (properties: the track's fields and `cues`).
  public static let textTrackLoaded = LifecycleEventType(rawValue: "textTrackLoaded")
  /// The selected text track, or one of its segments, could not be fetched or parsed
  /// (`error`; properties: the track's fields).
  public static let textTrackFailedToLoad = LifecycleEventType(rawValue: "textTrackFailedToLoad")
  /// A cue of the selected text track became active (properties: the cue and track fields).
  public static let textCueEnter = LifecycleEventType(rawValue: "textCueEnter")
  /// A cue of the selected text track stopped being active.
  public static let textCueExit = LifecycleEventType(rawValue: "textCueExit")
  /// The audio rendition changed (properties: `audioTrack`, null for the variant's own
  /// audio, `language`, `label`).
  public static let audioTrackChanged = LifecycleEventType(rawValue: "audioTrackChanged")
}

/// A text cue as a lifecycle event carries it, read back from the event's properties.
public struct TextCueNotice: Sendable, Equatable {
  /// The cue's number in its track (`TextCue.id`).
  public let id: Int
  /// The cue's WebVTT identifier (empty when it has none).
  public let identifier: String
  /// The `TextTrackOption.id` of its track.
  public let trackID: String
  /// The track's language, if stated.
  public let language: String?
  public let start: MediaTime
  public let end: MediaTime
  /// The payload with markup.
  public let text: String
  /// The payload without markup.
  public let plainText: String
}

extension LifecycleEvent {
  /// The cue of a `textCueEnter` or `textCueExit` event; nil for other events.
  public var textCue: TextCueNotice? {
    guard type == .textCueEnter || type == .textCueExit,
      let id = properties["cue"]?.numberValue, let start = properties["start"]?.numberValue,
      let end = properties["end"]?.numberValue
    else { return nil }
    return TextCueNotice(
      id: Int(id), identifier: properties["identifier"]?.stringValue ?? "",
      trackID: properties["track"]?.stringValue ?? "",
      language: properties["language"]?.stringValue,
      start: MediaTime(seconds: start, preferredTimescale: 1000),
      end: MediaTime(seconds: end, preferredTimescale: 1000),
      text: properties["text"]?.stringValue ?? "",
      plainText: properties["plainText"]?.stringValue ?? "")
  }

  /// The `TextTrackOption.id` a text-track event is about; nil for other events and for
  /// a selection of none.
  public var textTrackID: String? {
    switch type {
    case .textTrackChanged, .textTrackLoaded, .textTrackFailedToLoad, .textCueEnter,
      .textCueExit:
      return properties["track"]?.stringValue
    default:
      return nil
    }
  }

  /// The lifecycle event for a text-track event of `player`'s item.
  static func textTrack(_ event: TextTrackEvent, clockTime: MediaTime, currentTime: MediaTime)
    -> LifecycleEvent
  {
    switch event {
    case .selectionChanged(let option, let isAutomatic):
      var properties = trackFields(option)
      properties["automatic"] = .bool(isAutomatic)
      return LifecycleEvent(
        type: .textTrackChanged, currentTime: currentTime, clockTime: clockTime,
        properties: properties)
    case .loaded(let option, let count):
      var properties = trackFields(option)
      properties["cues"] = .number(Double(count))
      return LifecycleEvent(
        type: .textTrackLoaded, currentTime: currentTime, clockTime: clockTime,
        properties: properties)
    case .failed(let option, let error):
      return LifecycleEvent(
        type: .textTrackFailedToLoad, error: error, currentTime: currentTime,
        clockTime: clockTime, properties: trackFields(option))
    case .cueEntered(let cue, let time):
      return LifecycleEvent(
        type: .textCueEnter, currentTime: time, clockTime: clockTime,
        properties: cueFields(cue))
    case .cueExited(let cue, let time):
      return LifecycleEvent(
        type: .textCueExit, currentTime: time, clockTime: clockTime, properties: cueFields(cue))
    case .audioChanged(let option):
      return LifecycleEvent(
        type: .audioTrackChanged, currentTime: currentTime, clockTime: clockTime,
        properties: [
          "audioTrack": option.map { .string($0.id) } ?? .null,
          "language": option?.language.map(JSONValue.string) ?? .null,
          "label": option.map { .string($0.label) } ?? .null,
        ])
    }
  }

  /// `track`, `language`, `label`, `kind`, `forced` and `source` of an option (`track` null
  /// for none).
  private static func trackFields(_ option: TextTrackOption?) -> [String: JSONValue] {
    guard let option else { return ["track": .null] }
    let source: String
    switch option.source {
    case .sidecar: source = "sidecar"
    case .inManifest: source = "inManifest"
    case .embedded: source = "embedded"
    }
    return [
      "track": .string(option.id), "language": option.language.map(JSONValue.string) ?? .null,
      "label": .string(option.label), "kind": .string(option.kind.rawValue),
      "forced": .bool(option.isForced), "source": .string(source),
    ]
  }

  /// The fields of a cue event: `cue` (its number), `identifier`, `track`, `language`,
  /// `start`, `end`, `text` and `plainText`.
  private static func cueFields(_ cue: TextCue) -> [String: JSONValue] {
    [
      "cue": .number(Double(cue.id)), "identifier": .string(cue.cue.identifier),
      "track": .string(cue.trackID), "language": cue.language.map(JSONValue.string) ?? .null,
      "start": seconds(cue.start), "end": seconds(cue.end),
      "text": .string(cue.text), "plainText": .string(cue.plainText),
    ]
  }

  private static func seconds(_ time: MediaTime) -> JSONValue {
    guard time.isNumeric else { return .null }
    return .number((time.seconds * 1_000_000).rounded() / 1_000_000)
  }
}
