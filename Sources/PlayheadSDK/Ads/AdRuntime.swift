import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadHLS
import PlayheadMedia

/// The controller's working state for one session's ads; only the controller's queue
/// touches it (hence the unchecked `Sendable`, as `SessionRuntime`).
final class AdRuntime: @unchecked Sendable {
  let plugin: AdsSessionPlugin
  let beacons: AdBeaconSender
  /// The breaks on the content timeline; nil while the schedule is being fetched.
  var timeline: AdTimeline?
  /// Whether fetching the schedule ended (with breaks, none, or a failure).
  var scheduleSettled = false
  /// A first play arrived before the schedule: the content waits (at most the ad timeout).
  var isAwaitingSchedule = false
  /// A first play arrived before the content was ready: breaks wait for it (the content's
  /// duration places them, and events keep one order).
  var isAwaitingContent = false
  /// The break playing, or being fetched to play.
  var active: ActiveAdBreak?
  /// Breaks a seek plays, in turn, after the active one (snapback with `.all`).
  var queuedSlots: [Int] = []
  /// The content's `end` waits for the post-roll.
  var isEndPending = false
  /// What the session's ads came to (the CLI's summary).
  var summary = AdSummary()
  /// The first ad of the next break, opened ahead (paused, hidden).
  var prefetched: (slot: Int, ad: ActiveAd)?
  /// The slot whose tag is being fetched ahead of its break, if any.
  var fetchingSlot: Int?
  /// The content's server-side ad periods (stitched in, marked in the stream), once ready.
  var serverSidePeriods: [AdPeriod] = []
  /// The server-side periods already played through.
  var watchedPeriods: Set<String> = []
  /// The server-side period playing, if any.
  var activePeriod: AdPeriod?
  /// Where the content goes once the period a seek snapped back to is over.
  var periodLanding: MediaTime?
  /// The boundary observer at the periods' edges, replaced when they change.
  var periodEdgesToken: ObserverToken?
  /// The HLS interstitials on the timeline, by slot id.
  var interstitials: [String: InterstitialBreak] = [:]
  /// Interstitials read but not put on the timeline (no place, or a live one long
  /// passed), by id: they are not considered again.
  var declinedInterstitials: Set<String> = []
  /// The latest interstitial schedule of the content (its segment boundaries snap edges).
  var interstitialSchedule: InterstitialSchedule?
  /// A schedule that arrived before the timeline did: read once the timeline is made.
  var isInterstitialScheduleWaiting = false
  /// Issues of the playlist's interstitials already logged.
  var loggedInterstitialIssues: Set<InterstitialIssue> = []
  /// The `_HLS_primary_id` of the session's asset-list requests.
  let primaryID = UUID().uuidString

  /// A slot was inserted at `index`: the indices held at or after it move up by one.
  func slotInserted(at index: Int) {
    queuedSlots = queuedSlots.map { $0 >= index ? $0 + 1 : $0 }
    if let active, active.slot >= index { active.slot += 1 }
    if let prefetched, prefetched.slot >= index {
      self.prefetched = (prefetched.slot + 1, prefetched.ad)
    }
    if let fetchingSlot, fetchingSlot >= index { self.fetchingSlot = fetchingSlot + 1 }
  }
  /// With stitched ads: the timeline slot each server-side period carries, by period id.
  var stitchedSlots: [String: Int] = [:]
  /// The stitched break playing, if any.
  var stitched: StitchedBreakPlay?

  /// Whether the schedule's breaks are stitched into the content (not played on their own).
  var isStitched: Bool { plugin.configuration.adsAreStitched }

  init(plugin: AdsSessionPlugin, report: @escaping @Sendable (AdBeaconResult) -> Void) {
    self.plugin = plugin
    beacons = AdBeaconSender(
      loader: plugin.loader, maxInFlight: plugin.configuration.maxBeaconsInFlight,
      report: report)
  }

  /// The content times where the content must stop for a break still to play.
  var pausePoints: [MediaTime] {
    guard let timeline, !isStitched else { return [] }
    return timeline.slots.compactMap { slot in
      guard case .midroll(let time) = slot.position, !slot.isFinished else { return nil }
      return time
    }
  }
}

/// One break being played.
final class ActiveAdBreak: @unchecked Sendable {
  // Unchecked Sendable: touched only on the controller's queue.
  /// Its timeline slot (moves up when a slot is inserted before it).
  var slot: Int
  /// Whether the content plays once the break is over.
  let resumesContent: Bool
  /// Whether playing the content into the break started it (a pause point, the pre-roll),
  /// rather than a seek past it: only then does an interstitial's resume offset apply.
  let reachedByPlay: Bool
  /// How much of the break's ads has played (an interstitial's `X-PLAYOUT-LIMIT` and
  /// default resume offset count it).
  var playedTime: MediaTime = .zero
  /// The ad's index in the pod; -1 until the first ad starts.
  var adIndex = -1
  var ad: ActiveAd?
  /// Fetching the break's VAST tag (its ads are not known yet).
  var isFetching = false
  var hasEntered = false

  init(slot: Int, resumesContent: Bool, reachedByPlay: Bool = false) {
    self.slot = slot
    self.resumesContent = resumesContent
    self.reachedByPlay = reachedByPlay
  }
}

/// One ad being played, on a player of its own.
final class ActiveAd: @unchecked Sendable {
  // Unchecked Sendable: touched only on the controller's queue.
  let index: Int
  let ad: LinearAd
  let media: VASTMediaFile
  let player: Player
  /// The ad's item (set up before the player has made it current).
  let item: PlayerItem
  let gate: AdVideoGate
  var tokens: [ObserverToken] = []
  var hasStarted = false
  var isPaused = false
  /// Its duration: the media's once ready, the document's before.
  var duration: MediaTime?
  /// Tracking events already sent in this play (each goes once).
  var sent: Set<AdTrackingEvent> = []
  var startTimer: ClockTimer?

  init(
    index: Int, ad: LinearAd, media: VASTMediaFile, player: Player, item: PlayerItem,
    gate: AdVideoGate
  ) {
    self.index = index
    self.ad = ad
    self.media = media
    self.player = player
    self.item = item
    self.gate = gate
    duration = ad.duration
  }
}

/// What a session's ads came to.
public struct AdSummary: Sendable, Equatable {
  /// Breaks that started (`adSequenceEnter`).
  public var breaks = 0
  /// Ads that started playing.
  public var adsStarted = 0
  /// Ads played to their end.
  public var adsCompleted = 0
  /// Ads the viewer skipped.
  public var adsSkipped = 0
  /// Ads and breaks that failed (`adError`).
  public var errors = 0

  public init() {}
}

/// Passes an ad player's frames to the session's view only while the ad is on screen, so
/// an ad prepared ahead never shows early.
final class AdVideoGate: VideoSink, Sendable {
  private let target: (any VideoSink)?
  private let open = Locked(false)

  init(target: (any VideoSink)?) {
    self.target = target
  }

  var isOpen: Bool {
    get { open.value }
    set { open.withLock { $0 = newValue } }
  }

  func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    guard isOpen, let target else { return }
    try target.present(frame, itemTime: itemTime)
  }

  func clear() {}
}

/// Calls `fire` on `queue` when `clock` reaches `deadline`, unless cancelled first; waits
/// on a clock thread, so a manual clock decides when (tests, fast mode).
final class ClockTimer: Sendable {
  private let signal = WakeSignal()
  private let cancelled = Locked(false)

  init(
    clock: any Clock, afterMs delayMs: Int, queue: DispatchQueue,
    fire: @escaping @Sendable () -> Void
  ) {
    let deadline = clock.now + .fromMilliseconds(max(0, delayMs))
    let signal = signal
    let cancelled = cancelled
    clock.startThread(named: "playhead.ads.timer", stackSize: nil) {
      while !cancelled.value {
        if clock.wait(until: deadline, orUntil: signal) {
          if !cancelled.value { queue.async(execute: fire) }
          return
        }
      }
    }
  }

  /// Stops the timer; `fire` is not called afterwards (unless already queued).
  func cancel() {
    cancelled.withLock { $0 = true }
    signal.raise()
  }
}
