import Foundation
import PlayheadCore
import PlayheadEngine

/// What a session provider needs to make a session: the player configuration the
/// controller built (clock, outputs, buffer options) and the controller's current settings.
public struct PlaybackSessionContext: Sendable {
  /// The configuration to build the session's player with.
  public var playerConfiguration: PlayerConfiguration
  /// The controller's options when the session was made.
  public var options: PlaybackControllerOptions
  /// The preferred peak bit rate to set on the item (bits/s; 0 = no cap).
  public var preferredPeakBitRate: Double
  /// Whether the session plays a bumper rather than content.
  public var isBumper: Bool
  /// The preview limit to set on the item (`PlayerItem.previewDuration`; `.invalid` =
  /// the whole video).
  public var previewDuration: MediaTime

  public init(
    playerConfiguration: PlayerConfiguration, options: PlaybackControllerOptions = .init(),
    preferredPeakBitRate: Double = 0, isBumper: Bool = false, previewDuration: MediaTime = .invalid
  ) {
    self.playerConfiguration = playerConfiguration
    self.options = options
    self.preferredPeakBitRate = preferredPeakBitRate
    self.isBumper = isBumper
    self.previewDuration = previewDuration
  }
}

/// Makes playback sessions for a controller; providers chain through `upstream`.
///
/// The basic provider (`PlayerSDKManager.createBasicSessionProvider(options:)`) is the root:
/// it chooses a source and builds the player. A plug-in provider usually changes the video
/// it is given (adds text tracks, cue points), asks its upstream for the session (the basic
/// provider when `upstream` is nil) and attaches its own behaviour with
/// `PlaybackSession.attach(_:)`. `makeSession` is called on the controller's queue and must
/// not block on the network.
public protocol PlaybackSessionProvider: AnyObject, Sendable {
  /// The provider this one hands work to; nil for a root provider.
  var upstream: (any PlaybackSessionProvider)? { get }
  /// Makes the session for `video`.
  func makeSession(for video: Video, context: PlaybackSessionContext) -> PlaybackSession
}

/// Options of the basic session provider.
public struct BasicSessionProviderOptions: Sendable {
  /// How a source is chosen among a video's sources (seed 001's order by default).
  public var sourceSelectionPolicy: SourceSelectionPolicy

  public init(sourceSelectionPolicy: SourceSelectionPolicy = .default) {
    self.sourceSelectionPolicy = sourceSelectionPolicy
  }
}

/// The root provider: chooses a source with the options' policy and makes the player.
///
/// When the policy chooses nothing it logs "no playable source …" through the manager's
/// log handler and returns a session without a player, carrying `.noPlayableSource`; the
/// controller then sends `fail` for it.
public final class BasicSessionProvider: PlaybackSessionProvider {
  /// The options the provider was made with.
  public let options: BasicSessionProviderOptions
  /// Always nil: the basic provider is a root.
  public var upstream: (any PlaybackSessionProvider)? { nil }
  private let log: @Sendable (String) -> Void

  init(options: BasicSessionProviderOptions, log: @escaping @Sendable (String) -> Void) {
    self.options = options
    self.log = log
  }

  public func makeSession(for video: Video, context: PlaybackSessionContext) -> PlaybackSession {
    let source: Source
    do {
      source = try options.sourceSelectionPolicy.chooseSource(for: video)
    } catch {
      log(error.message)
      return PlaybackSession(video: video, failure: error)
    }
    let item = PlayerItem(url: source.url)
    if context.preferredPeakBitRate > 0 {
      item.preferredPeakBitRate = context.preferredPeakBitRate
    }
    item.previewDuration = context.previewDuration
    let player = Player(playerItem: item, configuration: context.playerConfiguration)
    return PlaybackSession(video: video, source: source, player: player)
  }
}

extension PlaybackSessionProvider {
  /// Asks `upstream` for the session, or a default basic provider when there is none.
  public func makeUpstreamSession(for video: Video, context: PlaybackSessionContext)
    -> PlaybackSession
  {
    let root = upstream ?? PlayerSDKManager.shared.createBasicSessionProvider()
    return root.makeSession(for: video, context: context)
  }
}
