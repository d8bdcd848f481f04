import Foundation
import PlayheadCore
import PlayheadEngine

/// The SDK's entry point: a factory for playback controllers and session providers.
///
/// `PlayerSDKManager.shared.sessionID` identifies this process's SDK session in analytics;
/// it is unique per process and does not change while the process lives.
public final class PlayerSDKManager: Sendable {
  /// The process-wide manager.
  public static let shared = PlayerSDKManager()

  /// A random identifier, made once per process (a UUID string).
  public let sessionID: String

  private let logHandlerBox = LogHandlerBox()

  private init() {
    sessionID = UUID().uuidString.lowercased()
  }

  /// Where the SDK's log lines go (standard error by default); set nil to silence them.
  public var logHandler: (@Sendable (String) -> Void)? {
    get { logHandlerBox.handler }
    set { logHandlerBox.handler = newValue }
  }

  /// Writes one log line through `logHandler`.
  func log(_ line: String) {
    logHandlerBox.handler?("playhead: " + line)
  }

  /// A controller with the basic session provider and the default view strategy.
  public func createPlaybackController(
    playerConfiguration: PlayerConfiguration = PlayerConfiguration(),
    callbackQueue: DispatchQueue = .main
  ) -> PlaybackController {
    createPlaybackController(
      sessionProvider: nil, viewStrategy: nil, playerConfiguration: playerConfiguration,
      callbackQueue: callbackQueue)
  }

  /// A controller whose sessions come from `sessionProvider` (the basic provider when nil)
  /// and whose `view` is built by `viewStrategy` (the video view itself when nil).
  ///
  /// `playerConfiguration` gives the clock, the audio output and the engine settings each
  /// session's player is built with (its video sink is the controller's video view).
  /// Delegate and consumer calls run on `callbackQueue`.
  public func createPlaybackController(
    sessionProvider: (any PlaybackSessionProvider)?, viewStrategy: ViewStrategy?,
    playerConfiguration: PlayerConfiguration = PlayerConfiguration(),
    callbackQueue: DispatchQueue = .main
  ) -> PlaybackController {
    PlaybackController(
      provider: sessionProvider ?? createBasicSessionProvider(),
      viewStrategy: viewStrategy, playerConfiguration: playerConfiguration,
      callbackQueue: callbackQueue, manager: self)
  }

  /// The root session provider that applies `options.sourceSelectionPolicy`.
  public func createBasicSessionProvider(
    options: BasicSessionProviderOptions = BasicSessionProviderOptions()
  ) -> BasicSessionProvider {
    BasicSessionProvider(options: options) { [weak self] line in self?.log(line) }
  }
}

/// The manager's log handler, behind a lock.
private final class LogHandlerBox: Sendable {
  private let stored = Locked<(@Sendable (String) -> Void)?>({ line in
    FileHandle.standardError.write(Data((line + "\n").utf8))
  })

  var handler: (@Sendable (String) -> Void)? {
    get { stored.value }
    set { stored.withLock { $0 = newValue } }
  }
}
