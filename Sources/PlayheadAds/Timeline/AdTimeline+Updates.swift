import Foundation
import PlayheadCore

extension AdTimeline {
  /// The index of the slot with `id`, if any.
  public func index(ofSlot id: String) -> Int? {
    slots.firstIndex { $0.id == id }
  }

  /// The pre-roll slot still to play, if any.
  public var pendingPreroll: Int? {
    slots.firstIndex { $0.position == .preroll && !$0.isFinished }
  }

  /// The post-roll slot still to play, if any.
  public var pendingPostroll: Int? {
    slots.firstIndex { $0.position == .postroll && !$0.isFinished }
  }

  /// The content times of mid-roll slots, played or not (for boundary observers and the
  /// slider's markers).
  public var midrollTimes: [MediaTime] {
    slots.compactMap {
      if case .midroll(let time) = $0.position { return time }
      return nil
    }
  }

  /// Unplayed mid-roll slots with `from < time ≤ to`, in order.
  public func unplayedMidrolls(after from: MediaTime, upTo to: MediaTime) -> [Int] {
    slots.indices.filter { index in
      guard case .midroll(let time) = slots[index].position, !slots[index].isFinished else {
        return false
      }
      return time > from && time <= to
    }
  }

  /// The slots a seek from `from` to `target` plays before landing, per `mode`; a seek
  /// backwards plays none.
  public func slotsToPlay(seekingFrom from: MediaTime, to target: MediaTime, mode: AdSeekMode)
    -> [Int]
  {
    guard target > from else { return [] }
    let crossed = unplayedMidrolls(after: from, upTo: target)
    switch mode {
    case .none: return []
    case .all: return crossed
    case .last: return crossed.last.map { [$0] } ?? []
    }
  }

  /// Gives a tag slot its ads (put in pod order, all available); a slot left with no ad
  /// fails (303) when its turn comes.
  public mutating func setAds(_ ads: [LinearAd], forSlot index: Int) {
    guard slots.indices.contains(index) else { return }
    let pod = Self.podOrder(ads)
    slots[index].ads = pod
    slots[index].adStates = Array(repeating: .available, count: pod.count)
    slots[index].isLoaded = true
    slots[index].errorCode = nil
  }

  /// Makes a slot playable again, as if its break had never played: every ad available,
  /// no error; a slot whose ads are fetched (a tag, an asset list) is fetched anew.
  public mutating func rearm(_ index: Int) {
    guard slots.indices.contains(index) else { return }
    slots[index].errorCode = nil
    switch slots[index].adBreak.source {
    case .ads:
      slots[index].adStates = Array(repeating: .available, count: slots[index].ads.count)
    case .tag, .assetList:
      slots[index].ads = []
      slots[index].adStates = []
      slots[index].isLoaded = false
    }
  }

  /// Marks a slot as given up, with the IAB error code.
  public mutating func failSlot(_ index: Int, errorCode: Int) {
    guard slots.indices.contains(index) else { return }
    slots[index].errorCode = errorCode
  }

  /// Sets the state of one ad.
  public mutating func setState(_ state: AdState, ofAd adIndex: Int, inSlot index: Int) {
    guard slots.indices.contains(index), slots[index].adStates.indices.contains(adIndex) else {
      return
    }
    slots[index].adStates[adIndex] = state
  }

  /// Number of ads in all loaded slots (`[ADCOUNT]` counts a pod's own).
  public var loadedAdCount: Int { slots.reduce(0) { $0 + $1.ads.count } }
}
