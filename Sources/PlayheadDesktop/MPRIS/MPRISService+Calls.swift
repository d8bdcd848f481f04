import Foundation
import PlayheadCore
import PlayheadEngine

extension MPRISService {
  static let propertiesInterface = "org.freedesktop.DBus.Properties"
  static let introspectableInterface = "org.freedesktop.DBus.Introspectable"
  /// The object path naming the current track (MPRIS `mpris:trackid`).
  static let trackPath = "/org/playhead/track/current"

  /// Answers one method call (on the D-Bus thread).
  func handle(_ call: DBusMessage) {
    guard call.isMethodCall else { return }
    let interface = call.interface
    let member = call.member ?? ""
    let arguments = call.arguments()
    var reply: [DBusValue] = []
    var variantReply: DBusValue?
    switch (interface, member) {
    case (Self.introspectableInterface, "Introspect"):
      reply = [.string(Self.introspectionXML)]
    case (Self.propertiesInterface, "Get"):
      guard case .string(let owner)? = arguments.first, arguments.count >= 2,
        case .string(let name) = arguments[1], let value = properties(of: owner)[name]
      else { return fail(call, "org.freedesktop.DBus.Error.InvalidArgs", "no such property") }
      variantReply = value
    case (Self.propertiesInterface, "GetAll"):
      guard case .string(let owner)? = arguments.first else {
        return fail(call, "org.freedesktop.DBus.Error.InvalidArgs", "an interface name is needed")
      }
      reply = [.dictionary(properties(of: owner))]
    case (Self.propertiesInterface, "Set"):
      guard arguments.count >= 3, case .string(let owner) = arguments[0],
        case .string(let name) = arguments[1], set(name, of: owner, to: arguments[2])
      else {
        return fail(
          call, "org.freedesktop.DBus.Error.PropertyReadOnly", "the property cannot be set")
      }
    case (Self.rootInterface, _), (nil, "Raise"), (nil, "Quit"):
      guard callRoot(member) else { return unknown(call) }
    case (Self.playerInterface, _), (nil, _):
      guard callPlayer(member, arguments) else { return unknown(call) }
    default:
      return unknown(call)
    }
    guard call.expectsReply, let message = DBusMessage.methodReturn(to: call) else { return }
    if let variantReply {
      message.appendVariant(variantReply)
    } else {
      message.append(reply)
    }
    connection.send(message)
  }

  private func callRoot(_ member: String) -> Bool {
    switch member {
    case "Raise": handlers.raise?()
    case "Quit": handlers.quit?()
    default: return false
    }
    return true
  }

  private func callPlayer(_ member: String, _ arguments: [DBusValue]) -> Bool {
    switch member {
    case "Play": player.play()
    case "Pause": player.pause()
    case "PlayPause": if player.rate == 0 { player.play() } else { player.pause() }
    case "Stop":
      player.pause()
      player.seek(to: seekableStart)
    case "Next": handlers.next?()
    case "Previous": handlers.previous?()
    case "Seek":
      guard case .int64(let offset)? = arguments.first else { return false }
      seek(toMicroseconds: positionMicroseconds + offset)
    case "SetPosition":
      // The track id must be the current track's, as the specification says.
      guard arguments.count >= 2, case .objectPath(let track) = arguments[0],
        case .int64(let position) = arguments[1]
      else { return false }
      if track == Self.trackPath && position >= 0 { seek(toMicroseconds: position) }
    case "OpenUri":
      return true
    default:
      return false
    }
    return true
  }

  private func seek(toMicroseconds target: Int64) {
    var time = MediaTime(value: max(0, target), timescale: 1_000_000)
    if let item = player.currentItem {
      if let last = item.seekableTimeRanges.last, let first = item.seekableTimeRanges.first {
        time = min(max(time, first.start), last.end)
      } else if item.duration.isNumeric {
        time = min(time, item.duration)
      }
    }
    player.seek(to: time)
  }

  private var seekableStart: MediaTime {
    player.currentItem?.seekableTimeRanges.first?.start ?? .zero
  }

  private func unknown(_ call: DBusMessage) {
    fail(call, "org.freedesktop.DBus.Error.UnknownMethod", "no method \(call.member ?? "?")")
  }

  private func fail(_ call: DBusMessage, _ name: String, _ text: String) {
    guard call.expectsReply, let message = DBusMessage.error(to: call, name: name, message: text)
    else { return }
    connection.send(message)
  }

  // MARK: Properties

  var positionMicroseconds: Int64 {
    let seconds = player.currentItem?.currentTime().seconds ?? 0
    return seconds.isFinite ? Int64((seconds * 1_000_000).rounded()) : 0
  }

  var playbackStatus: String {
    guard let item = player.currentItem else { return "Stopped" }
    if case .failed = item.status { return "Stopped" }
    return player.rate != 0 ? "Playing" : "Paused"
  }

  var metadata: [String: DBusValue] {
    let source = metadataSource()
    var entries: [String: DBusValue] = ["mpris:trackid": .objectPath(Self.trackPath)]
    if let item = player.currentItem, item.duration.isNumeric, item.duration.seconds > 0 {
      entries["mpris:length"] = .int64(Int64((item.duration.seconds * 1_000_000).rounded()))
    }
    if let title = source.title { entries["xesam:title"] = .string(title) }
    if let url = source.url { entries["xesam:url"] = .string(url.absoluteString) }
    if let art = source.artworkURL { entries["mpris:artUrl"] = .string(art.absoluteString) }
    return entries
  }

  /// The properties of `interface` by name (empty for another interface).
  func properties(of interface: String) -> [String: DBusValue] {
    switch interface {
    case Self.rootInterface:
      return [
        "CanQuit": .bool(handlers.quit != nil), "CanRaise": .bool(handlers.raise != nil),
        "HasTrackList": .bool(false), "Identity": .string("Playhead"),
        "SupportedUriSchemes": .strings(["file", "http", "https"]),
        "SupportedMimeTypes": .strings([
          "video/mp4", "video/x-matroska", "video/webm", "video/mp2t", "audio/mpeg",
          "application/vnd.apple.mpegurl",
        ]),
      ]
    case Self.playerInterface:
      return [
        "PlaybackStatus": .string(playbackStatus), "Rate": .double(Double(player.defaultRate)),
        "Metadata": .dictionary(metadata), "Volume": .double(Double(player.volume)),
        "Position": .int64(positionMicroseconds), "MinimumRate": .double(0.5),
        "MaximumRate": .double(2), "CanGoNext": .bool(handlers.next != nil),
        "CanGoPrevious": .bool(handlers.previous != nil), "CanPlay": .bool(true),
        "CanPause": .bool(true), "CanSeek": .bool(true), "CanControl": .bool(true),
      ]
    default:
      return [:]
    }
  }

  /// Sets a writable property: Volume (0…1) and Rate (0.5…2); false for any other.
  private func set(_ name: String, of interface: String, to value: DBusValue) -> Bool {
    guard interface == Self.playerInterface, case .double(let number) = value, number.isFinite
    else { return false }
    switch name {
    case "Volume": player.volume = Float(min(1, max(0, number)))
    case "Rate":
      guard number > 0 else {
        player.pause()
        return true
      }
      player.defaultRate = Float(min(2, max(0.5, number)))
      if player.rate != 0 { player.rate = player.defaultRate }
    default: return false
    }
    announceChanges()
    return true
  }

  /// Sends `PropertiesChanged` for the Player properties that changed since last time.
  func announceChanges() {
    let now = Published(
      status: playbackStatus, metadata: metadata, volume: Double(player.volume),
      rate: Double(player.defaultRate))
    let before = published.withLock { published in
      defer { published = now }
      return published
    }
    var changed: [String: DBusValue] = [:]
    if now.status != before.status { changed["PlaybackStatus"] = .string(now.status) }
    if now.metadata != before.metadata { changed["Metadata"] = .dictionary(now.metadata) }
    if now.volume != before.volume { changed["Volume"] = .double(now.volume) }
    if now.rate != before.rate { changed["Rate"] = .double(now.rate) }
    guard !changed.isEmpty,
      let signal = DBusMessage.signal(
        path: Self.path, interface: Self.propertiesInterface, member: "PropertiesChanged")
    else { return }
    signal.append([.string(Self.playerInterface), .dictionary(changed), .strings([])])
    connection.send(signal)
  }
}
