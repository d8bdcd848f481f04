import Foundation
import Playhead

/// `play --start S --ad-tag URL`: the first session goes to S as `seekWithoutAds` does, no
/// break before S playing (the controller's `adsDisabled` is on until the seek lands).
final class StartWithoutAds: PlaybackSessionConsumer, Sendable {
  private let controller: PlaybackController
  private let start: MediaTime
  private let done = Locked(false)

  init(controller: PlaybackController, start: MediaTime) {
    self.controller = controller
    self.start = start
  }

  func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
    guard lifecycleEvent.type == .ready else { return }
    let first = done.withLock { done in
      defer { done = true }
      return !done
    }
    guard first else { return }
    let controller = controller
    controller.seekWithoutAds(to: start) { _ in controller.adsDisabled = false }
  }
}

/// Opens an ad's click-through in the desktop's browser (`xdg-open`), without waiting.
enum ClickThrough {
  static let open: @Sendable (URL) -> Void = { url in
    guard url.scheme == "http" || url.scheme == "https" else { return }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["xdg-open", url.absoluteString]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try? process.run()
  }
}
