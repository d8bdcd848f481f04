import Foundation
import PlayheadCore
import PlayheadMedia

extension ItemLoader {
  /// Plays `target`, an audio stream of the progressive file (`RenditionInfo.streamIndex`),
  /// from the play position: the audio decoded ahead is dropped and the same demuxer
  /// decodes the new stream from there, while the video goes on undisturbed
  /// (`DecodePipeline.switchAudio(toStream:at:seekPending:)`).
  ///
  /// With audio disabled only the selection changes. A stream whose decoder cannot open
  /// is logged and the audio that was playing goes on.
  func switchAudioStream(to target: RenditionInfo, main: inout RunPipeline, seekPending: Bool)
    throws(PlayheadError)
  {
    guard let index = target.streamIndex, settings.decodesAudio,
      main.pipeline.audioStream?.index != index
    else {
      recordAudioSelection(target)
      return
    }
    condition.lock()
    let switchTime = playbackPosition
    condition.unlock()
    do throws(PlayheadError) {
      try main.pipeline.switchAudio(toStream: index, at: switchTime, seekPending: seekPending)
    } catch {
      if error.code == .cancelled && isStopped { throw error }
      noteRecoverable(error)
      return
    }
    condition.lock()
    trimAudioQueueLocked(from: switchTime)
    runAudioDrained = false
    hasAudio = true
    status.audioEnded = false
    status.isFull = isFullLocked()
    condition.unlock()
    recordAudioSelection(target)
  }
}
