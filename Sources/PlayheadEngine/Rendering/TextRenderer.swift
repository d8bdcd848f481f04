import Foundation
import PlayheadCore
import PlayheadText

/// What the text renderer has to announce after a render: cue changes, and news of its
/// track's loading.
enum TextNotice {
  case entered(TimedTextCue)
  case exited(TimedTextCue)
  /// Everything up to the horizon is in (once per track), with the cue count.
  case loaded(cueCount: Int)
  case failed(PlayheadError)
}

/// The text track's renderer: fed cues on the item timeline by a `TextCueFeed`, it works
/// out at every render which cues are active at the position and queues their enters and
/// exits as notices, which the playback loop turns into `PlayerEvent`s.
///
/// The next render position it asks for is the next cue start or end, so that enters and
/// exits fall at their exact item times. After `reset(to:)` (a seek) the next render is a
/// jump: the cues no longer active exit, those active at the new position enter, and cues
/// jumped over are not announced. It is ready at a position once the cues there are in,
/// their load failed, or no cue can come there.
final class TextRenderer: TrackRenderer {
  let trackType = TrackType.text
  /// The track rendered: a subtitle rendition or a sidecar track.
  let track: RenditionInfo
  private let source: any TextCueFeed
  private var list: TextCueList
  private var jumped = true
  private var loadedSent = false
  private var sourceCaughtUp = false
  private var notices: [TextNotice] = []
  private var disabled = false

  init(track: RenditionInfo, source: any TextCueFeed) {
    self.track = track
    self.source = source
    list = TextCueList(track: track)
  }

  deinit { source.stop() }

  /// Every cue loaded so far, in start order.
  var cues: [TimedTextCue] { list.cues }
  /// The cues active at the last render, in start order.
  var activeCues: [TimedTextCue] { list.active }

  func render(at position: MediaTime, context: RenderContext) throws(PlayheadError) -> MediaTime? {
    guard !disabled else { return nil }
    let arrived = source.take()
    let added = list.add(arrived.cues)
    if arrived.caughtUp { sourceCaughtUp = true }
    let continuous = !jumped && added == 0
    jumped = false
    for change in list.move(to: position, continuous: continuous) {
      switch change {
      case .enter(let cue): notices.append(.entered(cue))
      case .exit(let cue): notices.append(.exited(cue))
      }
    }
    notices += arrived.failures.map(TextNotice.failed)
    if sourceCaughtUp && !loadedSent {
      loadedSent = true
      notices.append(.loaded(cueCount: list.cues.count))
    }
    let next = list.nextBoundary(after: position)
    if let end = context.forwardEnd, let next, next > end { return nil }
    return next
  }

  /// Takes the notices queued by the renders since the last call.
  func takeNotices() -> [TextNotice] {
    defer { notices = [] }
    return notices
  }

  func isReady(at position: MediaTime) -> Bool {
    disabled || source.covers(position)
  }

  var isEnded: Bool { false }

  func reset(to position: MediaTime) {
    jumped = true
    source.update(position: position)
  }

  /// Ends the active cues (their exits are queued as notices) and stops reading.
  func disable() {
    guard !disabled else { return }
    disabled = true
    source.stop()
    for change in list.clear() {
      if case .exit(let cue) = change { notices.append(.exited(cue)) }
    }
  }
}
