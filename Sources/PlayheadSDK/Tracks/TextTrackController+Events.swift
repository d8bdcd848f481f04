import Foundation
import PlayheadCore
import PlayheadEngine

extension TextTrackController {
  /// Follows `player`'s events: its item's readiness and failure, audio changes and the
  /// text renderer's events. Called once, from `init`.
  func observe(_ player: Player) {
    let events = player.addEventObserver(queue: work) { [weak self] event in
      self?.handle(event)
    }
    write { state in state.playerTokens = [events] }
  }

  /// One player event. On `work`.
  private func handle(_ event: PlayerEvent) {
    switch event.kind {
    case .itemStatusChanged(let item, .readyToPlay):
      itemBecameReady(item)
    case .itemStatusChanged(_, .failed):
      releaseStartHold()
    case .audioRenditionChanged(let item, let rendition):
      audioChanged(in: item, to: rendition)
    case .textCueEntered, .textCueExited, .textTrackLoaded, .textTrackFailed:
      engineTextEvent(event)
    default:
      break
    }
  }
}
