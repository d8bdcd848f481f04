/// The Playback API cue-point fields beyond type, time, name and metadata.
extension CuePoint {
  /// Whether playback stops at the cue point (`force_stop`; the API reference also spells
  /// it `force-stop`); false when absent.
  public var forceStop: Bool {
    properties.bool("force_stop") ?? properties.bool("force-stop") ?? false
  }
}
