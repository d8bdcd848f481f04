import Foundation
import PlayheadCore
import PlayheadEngine

extension PlaybackController {
  /// Delivers `notification` on the callback queue: delegate first, then consumers in the
  /// order they were added, then the plug-ins attached to the session. Call on the queue.
  func notify(_ notification: ControllerNotification) {
    let delegate = readSettings { $0.delegate.value }
    let consumers = self.consumers
    let plugins = notification.session?.attachedPlugins ?? []
    callbackQueue.async { [self] in
      if let delegate { notification.deliver(to: delegate, from: self) }
      for consumer in consumers { notification.deliver(to: consumer) }
      for plugin in plugins { notification.deliver(to: plugin) }
    }
  }

  /// Sends a lifecycle event of `runtime`'s session. Call on the queue.
  func sendLifecycle(
    _ type: LifecycleEventType, _ runtime: SessionRuntime, error: PlayheadError? = nil,
    time: MediaTime? = nil, previousTime: MediaTime? = nil
  ) {
    let currentTime = time ?? runtime.player?.currentTime() ?? .invalid
    let event = LifecycleEvent(
      type: type, error: error, currentTime: currentTime, previousTime: previousTime,
      clockTime: clock.now)
    notify(.lifecycle(runtime.session, event))
  }

  /// Registers a session consumer; it receives the current session at once, if there is one.
  ///
  /// The controller retains consumers until they are removed.
  public func addSessionConsumer(_ consumer: any PlaybackSessionConsumer) {
    queue.async { [self] in
      consumers.append(consumer)
      if let session = current?.session {
        callbackQueue.async { consumer.didAdvanceTo(session) }
      }
    }
  }

  /// Removes a session consumer (compared by identity); it receives nothing afterwards
  /// except calls already queued.
  public func removeSessionConsumer(_ consumer: any PlaybackSessionConsumer) {
    queue.async { [self] in
      consumers.removeAll { $0 === consumer }
    }
  }

  /// Updates the session's QoE snapshot. Call on the queue.
  func refreshQoE(_ runtime: SessionRuntime) {
    runtime.session.updateQoE(runtime.qoe.snapshot(item: runtime.player?.currentItem))
  }
}
