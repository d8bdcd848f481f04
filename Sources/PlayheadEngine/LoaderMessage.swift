import Foundation
import PlayheadCore
import PlayheadNet

/// What an item loader tells the playback loop, in the order it happened (Media3's handler
/// messages): posted to the loader's mailbox, which raises the loop's wake signal, and
/// taken by the loop at the start of its next step (`ItemLoader.takeMessages()`).
///
/// Discrete facts travel as messages; what only has a current value (queued media, bytes
/// read, the source's buffer and activity) stays in the loader's status, which the loop
/// reads when it needs it.
enum LoaderMessage: Sendable {
  /// The media opened (after `backupUsed`, when it came from a backup URL).
  case opened(OpenedMedia)
  /// The media could not be opened, or loading failed before it did.
  case failed(PlayheadError)
  /// The media is being opened from `url`, the application's backup for the asset.
  case backupUsed(URL)
  /// The first data after the seek of `generation` was queued: the seek lands at `time`.
  case seekLanded(generation: Int, time: MediaTime)
  /// An error that did not stop loading (a packet that failed to decode, a segment retried).
  case recoverableError(PlayheadError)
  /// The rendition being decoded changed (the first one is the initial choice), and why
  /// the downloader chose it.
  case variantChanged(VariantInfo, VariantChangeReason)
  /// The alternate renditions of the variant being played (at the start, and when a
  /// switch moves to a variant with other groups).
  case renditionsListed(audio: [RenditionInfo], subtitles: [RenditionInfo])
  /// The audio rendition playing now (nil: the variant's own audio).
  case audioRenditionSelected(RenditionInfo?)
  /// The subtitle rendition selected (nil: none) and its segments; selecting one again
  /// sends it again with its playlist read anew.
  case subtitleRenditionSelected(RenditionInfo?, segments: SubtitleSegmentList?)
  /// The playlist of the subtitle rendition asked for could not be loaded; the selection
  /// stays as it was.
  case subtitleFailed(RenditionInfo, PlayheadError)
  /// The item's expired-URL refresher refreshed a URL or gave up (posted by the refresher
  /// before the loads waiting on it go on, so before any failure that follows from it).
  case sourceRefresh(SourceRefreshEvent)
}

extension ItemLoader {
  /// Posts `message` to the loop; the caller holds `condition`.
  func postLocked(_ message: LoaderMessage) {
    outbox.append(message)
  }

  /// Posts `message` to the loop and wakes it.
  func post(_ message: LoaderMessage) {
    condition.lock()
    outbox.append(message)
    condition.unlock()
    notifyLoop()
  }

  /// The messages posted since the last call, oldest first.
  func takeMessages() -> [LoaderMessage] {
    condition.lock()
    defer { condition.unlock() }
    let messages = outbox
    outbox.removeAll()
    return messages
  }
}

extension PlaybackLoop {
  /// Takes one of the current item's loader messages into the loop's state; what the step
  /// reports later in its course (errors, rendition changes) waits in the item for it.
  func receive(_ message: LoaderMessage, _ active: ActiveItem) {
    switch message {
    case .opened(let media):
      if active.media == nil && !active.failed { becomeReady(active, media) }
    case .failed(let error):
      if !active.failed { itemFailed(active, error) }
    case .backupUsed(let url):
      active.backupURL = url
    case .seekLanded(let generation, let time):
      if active.seek?.generation == generation { active.landedSeekTime = time }
    case .recoverableError(let error):
      active.pendingErrors.append(error)
    case .variantChanged(let variant, let reason):
      active.pendingVariants.append((variant, reason))
    case .renditionsListed(let audio, let subtitles):
      active.state.audioRenditions = audio
      active.state.subtitleRenditions = subtitles
    case .audioRenditionSelected(let rendition):
      active.state.selectedAudioRendition = rendition
      active.audioSelectionKnown = true
    case .subtitleRenditionSelected(let rendition, let segments):
      active.state.selectedSubtitleRendition = rendition
      active.state.subtitleSegments = segments
      active.subtitleSelectionKnown = true
    case .subtitleFailed(let rendition, let error):
      active.text.pendingFailures.append((rendition, error))
    case .sourceRefresh(let event):
      reportSourceRefresh(event, of: active.item)
    }
  }
}
