import Foundation
import PlayheadCore
import PlayheadMedia

extension Player {
  /// The audio enhancement filters' options (seed 003's `setFilterConfig` /
  /// `updateFilterConfig` for `audioEnhance`): normalisation, dialogue enhancement,
  /// surround widening.
  ///
  /// Reading it back gives the value just set. The playback thread applies a change to
  /// the audio it writes next: the old filters are drained first, so nothing is skipped.
  /// The filters delay the audio by their look-ahead (about 0.1 s), which the position
  /// accounts for, so picture and sound stay in step. A filter this FFmpeg lacks fails
  /// the item with `decoderUnavailable`.
  public var audioEnhancement: AudioEnhancement {
    get { loop.read { $0.audioEnhancement } }
    set {
      loop.publish { $0.audioEnhancement = newValue }
      loop.post { loop in loop.audioEnhancement = loop.read { $0.audioEnhancement } }
    }
  }

  /// Whether the enhancement filters run (seed 003's `setFilterValid("audioEnhance", …)`);
  /// turning them off keeps `audioEnhancement` for when they are turned on again.
  public var isAudioEnhancementEnabled: Bool {
    get { loop.read { $0.isAudioEnhancementEnabled } }
    set {
      loop.publish { $0.isAudioEnhancementEnabled = newValue }
      loop.post { loop in
        loop.isAudioEnhancementEnabled = loop.read { $0.isAudioEnhancementEnabled }
      }
    }
  }

  /// Which channel reaches the output (seed 003's `outputAudioChannel`): `.both` as the
  /// source has them, or only the left (right) channel, the others silenced.
  ///
  /// Applies to the audio written next. With a mono output the setting cannot pick a
  /// side there; the configuration's value, applied at decoding, holds instead.
  public var audioOutputChannel: AudioChannelMode {
    get { loop.read { $0.audioOutputChannel } }
    set {
      loop.publish { $0.audioOutputChannel = newValue }
      loop.post { loop in loop.audioChannel = loop.read { $0.audioOutputChannel } }
    }
  }
}
