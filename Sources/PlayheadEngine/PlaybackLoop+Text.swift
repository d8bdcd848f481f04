import Foundation
import PlayheadCore

/// The playback loop's text state of one item.
final class ActiveText {
  var renderer: TextRenderer?
  /// The next cue boundary the renderer asked for (item time).
  var nextBoundary: MediaTime?
  /// A selected rendition whose playlist failed: it holds nothing back.
  var failedTrack: RenditionInfo?
  /// The item's selection count the renderer was made for.
  var selection = -1
  /// Subtitle playlists that failed to load, as the loader reported them, not yet
  /// announced.
  var pendingFailures: [(rendition: RenditionInfo, error: PlayheadError)] = []
}

extension PlaybackLoop {
  /// Posts the application's text track choice for `item` (a subtitle rendition, a
  /// sidecar track, or none; already in the item's settings): a rendition goes to the
  /// loader, which loads its playlist; a sidecar track (or none) releases the loader's
  /// rendition.
  func textTrackSelected(_ track: RenditionInfo?, previous: RenditionInfo?, for item: PlayerItem) {
    post { loop in
      guard let active = loop.current, active.item === item else { return }
      active.text.failedTrack = nil
      let hadRendition = previous.map { !$0.isSidecarTextTrack } ?? false
      if let track, !track.isSidecarTextTrack {
        active.loader.selectSubtitleRendition(RenditionSelection(rendition: track))
      } else if hadRendition || active.state.selectedSubtitleRendition != nil {
        active.loader.selectSubtitleRendition(RenditionSelection(rendition: nil))
      }
      loop.syncTextRenderer(active)
    }
  }

  /// Once per step, after a pending seek completed: puts the renderer of the selected
  /// track in place and, while the position does not move, renders at it (cues that
  /// arrive enter at once).
  func stepText(_ active: ActiveItem) {
    noteTextFailures(active)
    syncTextRenderer(active)
    if rate == 0 || timeControl != .playing { renderText(active, at: active.position) }
  }

  /// Renders the text track at `position` and announces what changed.
  func renderText(_ active: ActiveItem, at position: MediaTime) {
    guard let renderer = active.text.renderer else { return }
    let context = RenderContext(
      isPlaying: rate != 0 && timeControl == .playing, forwardEnd: forwardEnd(active))
    active.text.nextBoundary = try? renderer.render(at: position, context: context)
    announce(renderer.takeNotices(), of: renderer, in: active)
  }

  /// The item ends at `endTime`: a cue that ends there exits there.
  func renderTextAtEnd(_ active: ActiveItem, _ endTime: MediaTime) {
    guard active.text.renderer != nil, endTime.isNumeric, endTime > active.position else { return }
    active.position = endTime
    renderText(active, at: endTime)
  }

  /// The next cue boundary, as a candidate for the loop's next deadline.
  func textDeadlines(_ active: ActiveItem) -> [MediaTime] {
    active.text.nextBoundary.map { [$0] } ?? []
  }

  /// Whether the start waits for the text track (fast mode only): a track is selected
  /// and its cues at the position are not in yet, nor failed.
  func textHoldsStart(_ active: ActiveItem) -> Bool {
    guard isFastMode, let wanted = active.item.selectedTextTrack,
      wanted != active.text.failedTrack
    else { return false }
    guard let renderer = active.text.renderer, renderer.track == wanted else { return true }
    return !renderer.isReady(at: active.position)
  }

  /// The position jumped (a seek): the next render enters and exits afresh.
  func resetText(_ active: ActiveItem, to position: MediaTime) {
    active.text.renderer?.reset(to: position)
    active.text.nextBoundary = nil
  }

  /// The loader could not load a selected rendition's playlist: `textTrackFailed`.
  private func noteTextFailures(_ active: ActiveItem) {
    let failures = active.text.pendingFailures
    active.text.pendingFailures = []
    for failure in failures where failure.rendition == active.item.selectedTextTrack {
      active.text.failedTrack = failure.rendition
      emit(.textTrackFailed(active.item, failure.rendition, failure.error))
    }
  }

  /// Replaces the renderer when the selection changed: the old track's active cues exit,
  /// and the new track's renderer starts once its cues can be read (a rendition's once
  /// the loader has its segments).
  func syncTextRenderer(_ active: ActiveItem) {
    let (wanted, selection) = active.item.readSettings {
      ($0.text.selectedTrack, $0.text.selectionCount)
    }
    if let renderer = active.text.renderer,
      renderer.track != wanted || active.text.selection != selection
    {
      renderer.disable()
      announce(renderer.takeNotices(), of: renderer, in: active)
      active.text.renderer = nil
      active.text.nextBoundary = nil
    }
    guard active.text.renderer == nil, let wanted,
      let source = textFeed(wanted, active)
    else { return }
    active.text.renderer = TextRenderer(track: wanted, source: source)
    active.text.selection = selection
    source.start()
  }

  /// What feeds `track`'s renderer: the loader's demuxer for a stream of the file, else a
  /// source reading the track's file or segments; nil while a rendition's segments are
  /// not loaded.
  private func textFeed(_ track: RenditionInfo, _ active: ActiveItem) -> (any TextCueFeed)? {
    if let streamIndex = track.streamIndex {
      return EmbeddedTextFeed(
        store: active.loader.embeddedText, streamIndex: streamIndex, position: active.position)
    }
    guard let plan = textPlan(track, active) else { return nil }
    return TextCueSource(
      plan: plan, fetcher: active.loader.textFetcher(override: active.item.textNetwork),
      lookAhead: active.item.subtitleLookAhead, clock: clock, loopWake: wake,
      position: active.position)
  }

  /// Where `track`'s cues come from; nil while a rendition's segments are not loaded.
  private func textPlan(_ track: RenditionInfo, _ active: ActiveItem) -> TextSourcePlan? {
    if track.isSidecarTextTrack {
      return track.uri.flatMap { URL(string: $0) }.map(TextSourcePlan.file)
    }
    guard let list = active.state.subtitleSegments, list.rendition == track else { return nil }
    return .segments(list, origin: active.media?.textOrigin)
  }

  /// Emits the renderer's notices, in order (the item's cues are the renderer's, published
  /// with the item's snapshot).
  private func announce(_ notices: [TextNotice], of renderer: TextRenderer, in active: ActiveItem) {
    let item = active.item
    for notice in notices {
      switch notice {
      case .entered(let cue): emit(.textCueEntered(item, cue))
      case .exited(let cue): emit(.textCueExited(item, cue))
      case .loaded(let count): emit(.textTrackLoaded(item, renderer.track, cueCount: count))
      case .failed(let error): emit(.textTrackFailed(item, renderer.track, error))
      }
    }
  }
}
