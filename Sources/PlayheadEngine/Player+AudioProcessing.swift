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
    get { loop.settings.value.audioEnhancement }
    set { loop.changeSettings { $0.audioEnhancement = newValue } }
  }

  /// Whether the enhancement filters run (seed 003's `setFilterValid("audioEnhance", …)`);
  /// turning them off keeps `audioEnhancement` for when they are turned on again.
  public var isAudioEnhancementEnabled: Bool {
    get { loop.settings.value.isAudioEnhancementEnabled }
    set { loop.changeSettings { $0.isAudioEnhancementEnabled = newValue } }
  }

  /// Which channel reaches the output (seed 003's `outputAudioChannel`): `.both` as the
  /// source has them, or only the left (right) channel, the others silenced.
  ///
  /// Applies to the audio written next. With a mono output the setting cannot pick a
  /// side there; the configuration's value, applied at decoding, holds instead.
  public var audioOutputChannel: AudioChannelMode {
    get { loop.settings.value.audioOutputChannel }
    set { loop.changeSettings { $0.audioOutputChannel = newValue } }
  }
}
