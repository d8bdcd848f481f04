import Foundation
import PlayheadCore
import PlayheadEngine

/// Playhead on the desktop's media controls: an MPRIS2 service on the session D-Bus, the
/// Linux counterpart of seed 000's `MPRemoteCommandCenter` and Now Playing.
///
/// It owns the bus name `org.mpris.MediaPlayer2.playhead` (or, when another player holds
/// it, `org.mpris.MediaPlayer2.playhead.instance<PID>`) and serves `/org/mpris/MediaPlayer2`
/// with the `org.mpris.MediaPlayer2` and `org.mpris.MediaPlayer2.Player` interfaces:
/// Play, Pause, PlayPause, Stop, Next, Previous, Seek, SetPosition; PlaybackStatus,
/// Position, Rate, Volume, Metadata (track id, length, title, URL, artwork URL) and the
/// Can… flags. Media keys and desktop widgets (`playerctl`, GNOME, KDE) then control the
/// player. Changes are announced with `PropertiesChanged`, seeks with `Seeked`.
///
/// ```swift
/// let mpris = try MPRISService(player: player, metadata: { MPRISMetadata(title: "Movie") })
/// // … mpris.close() when done
/// ```
public final class MPRISService: Sendable {
  /// The bus name owned.
  public let busName: String
  let connection: DBusConnection
  let player: Player
  let metadataSource: @Sendable () -> MPRISMetadata
  let handlers: MPRISHandlers
  private let observer: Locked<ObserverToken?> = Locked(nil)
  let published = Locked(Published())

  /// What was last announced, to send `PropertiesChanged` on changes only.
  struct Published: Sendable, Equatable {
    var status = ""
    var metadata: [String: DBusValue] = [:]
    var volume = -1.0
    var rate = -1.0
  }

  static let path = "/org/mpris/MediaPlayer2"
  static let rootInterface = "org.mpris.MediaPlayer2"
  static let playerInterface = "org.mpris.MediaPlayer2.Player"
  static let baseName = "org.mpris.MediaPlayer2.playhead"

  /// Serves `player` on the session bus (at `busAddress`, else the one the environment
  /// names). `metadata` is read whenever a client asks or the item changes. Throws
  /// `.connectionFailed` without a bus, or when neither name can be owned.
  public init(
    player: Player, metadata: @escaping @Sendable () -> MPRISMetadata,
    handlers: MPRISHandlers = MPRISHandlers(), busAddress: String? = nil
  ) throws(PlayheadError) {
    let connection = try DBusConnection(address: busAddress)
    var name = Self.baseName
    if try !connection.requestName(name) {
      name = "\(Self.baseName).instance\(getpid())"
      guard try connection.requestName(name) else {
        connection.close()
        throw PlayheadError(.connectionFailed, "D-Bus: the name \(name) is taken")
      }
    }
    self.busName = name
    self.connection = connection
    self.player = player
    self.metadataSource = metadata
    self.handlers = handlers
    connection.start { [weak self] message in self?.handle(message) }
    let token = player.addEventObserver(queue: DispatchQueue(label: "playhead.mpris.events")) {
      [weak self] event in self?.playerDid(event)
    }
    observer.withLock { $0 = token }
  }

  deinit { connection.close() }

  /// Leaves the bus (the name is released) and stops following the player.
  public func close() {
    if let token = observer.withLock({ token in
      defer { token = nil }
      return token
    }) {
      player.removeEventObserver(token)
    }
    connection.close()
  }

  /// Announces changed properties now (the metadata source changed, say).
  public func propertiesDidChange() {
    announceChanges()
  }

  private func playerDid(_ event: PlayerEvent) {
    switch event.kind {
    case .seekCompleted(_, let finished) where finished:
      if let signal = DBusMessage.signal(
        path: Self.path, interface: Self.playerInterface, member: "Seeked")
      {
        signal.append([.int64(positionMicroseconds)])
        connection.send(signal)
      }
      announceChanges()
    case .rateChanged, .currentItemChanged, .durationChanged, .didPlayToEnd,
      .itemStatusChanged:
      announceChanges()
    default:
      break
    }
  }
}

/// What the desktop shows of the item playing (MPRIS `Metadata`).
public struct MPRISMetadata: Sendable, Equatable {
  /// The title (`xesam:title`).
  public var title: String?
  /// The media's URL (`xesam:url`).
  public var url: URL?
  /// Artwork to show (`mpris:artUrl`).
  public var artworkURL: URL?

  /// Metadata with the given fields.
  public init(title: String? = nil, url: URL? = nil, artworkURL: URL? = nil) {
    self.title = title
    self.url = url
    self.artworkURL = artworkURL
  }
}

/// What the desktop may ask beyond play, pause and seek; nil leaves a command out (its
/// `Can…` property is then false).
public struct MPRISHandlers: Sendable {
  /// Next item (`Next`).
  public var next: (@Sendable () -> Void)?
  /// Previous item (`Previous`).
  public var previous: (@Sendable () -> Void)?
  /// Quit the application (`Quit`).
  public var quit: (@Sendable () -> Void)?
  /// Bring the window forward (`Raise`).
  public var raise: (@Sendable () -> Void)?

  /// Handlers for the given commands.
  public init(
    next: (@Sendable () -> Void)? = nil, previous: (@Sendable () -> Void)? = nil,
    quit: (@Sendable () -> Void)? = nil, raise: (@Sendable () -> Void)? = nil
  ) {
    self.next = next
    self.previous = previous
    self.quit = quit
    self.raise = raise
  }
}
