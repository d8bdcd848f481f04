import Playhead
import PlayheadUI

/// The JSON line `play --json` prints when the control bar lays out other controls:
/// `{"event":"controlsChanged","controls":["playback","jumpBack",…]}`, in layout order.
enum ControlsChangedLine {
  static func json(_ tags: [ControlTag]) -> String {
    JSONValue.object([
      JSONField("event", .string("controlsChanged")),
      JSONField("controls", .array(tags.map { .string($0.rawValue) })),
    ]).encoded
  }
}
