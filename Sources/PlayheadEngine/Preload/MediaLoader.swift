import Foundation
import PlayheadCore
import PlayheadNet

/// Preloads the start of videos into the disk cache before they play (the seed's
/// `AliMediaLoaderV2`): a later play of the same source reads the preloaded bytes from the
/// cache instead of the network, so its first frame comes sooner.
///
/// Use `MediaLoader.shared` or independent instances; each has its own tasks, slots and
/// callback queue. `addTask(_:listener:)` returns a task ID at once; the work happens on
/// the loader's threads, at most `Configuration.maximumConcurrentTasks` tasks at a time,
/// in the order they were added. A task fetches, for HLS, the master playlist, the chosen
/// variant's media playlist, its initialisation section, keys and the segments covering
/// the duration (and the same of the alternate audio rendition a player would choose);
/// for a progressive file, the bytes a demuxer reads to reach the duration (its header
/// and the media data up to that time), in the cache's chunks. See docs/preload.md.
///
/// A task needs a cache: the configuration's `cache` (set it, or build the loader from
/// the `PlayerConfiguration` the app plays with). Without one, with the cache closed or
/// read-only, or while `MediaCache.isEnabled` is false, the task fails with
/// `.invalidState`. Errors never retry beyond the request configuration's retries and
/// never trap: a 404 or a malformed playlist ends the task with the listener's error
/// callback.
///
/// ```swift
/// MediaLoader.shared.configuration = MediaLoader.Configuration(player: playerConfiguration)
/// var config = PreloadConfig(durationMs: 1000)
/// config.setDefaultBandwidth(400_000)
/// let id = MediaLoader.shared.addTask(PreloadTask(url: url, config: config), listener: self)
/// ```
public final class MediaLoader: @unchecked Sendable {
  // Unchecked Sendable: every `var` is guarded by `condition`; jobs are guarded by it too.

  /// The loader most apps use; it has no cache until one is configured.
  public static let shared = MediaLoader()

  /// Where a loader's tasks store their bytes and how they load.
  public struct Configuration: Sendable {
    /// The cache preloaded bytes land in; nil refuses every task.
    public var cache: MediaCache?
    /// Caps and start preference for HLS (use the player's, so the rendition a task
    /// preloads is the one the player starts on).
    public var hls: HLSConfiguration
    /// Timeout, retries and headers of every request (use the player's).
    public var request: RequestConfiguration
    /// The network requests go over (the player's `PlayerConfiguration.network`); nil: files
    /// and HTTP(S).
    public var network: (any DataSourceFactory)?
    /// How many tasks fetch at once (at least 1).
    public var maximumConcurrentTasks: Int
    /// The clock of retry waits (and of the refresh handler's timeout).
    public var clock: any Clock
    /// Asked for a fresh URL when one a task loads expires (the player's
    /// `PlayerConfiguration.urlSourceExpiredHandler`); the refresh happens below the
    /// cache, so the bytes are stored under the URLs a player asks for. A failed refresh
    /// fails the task with `.sourceExpired`. Nil: an expired URL fails the task with its
    /// HTTP status. See docs/expiry.md.
    public var urlSourceExpiredHandler: URLSourceExpiredHandler?
    /// How expired URLs are recognised and how long and how often a refresh may take.
    public var sourceRefresh: SourceRefreshOptions

    /// Creates a configuration; without a cache every task fails.
    public init(
      cache: MediaCache? = nil, hls: HLSConfiguration = HLSConfiguration(),
      request: RequestConfiguration = RequestConfiguration(),
      network: (any DataSourceFactory)? = nil,
      maximumConcurrentTasks: Int = 2, clock: any Clock = HostClock.shared,
      urlSourceExpiredHandler: URLSourceExpiredHandler? = nil,
      sourceRefresh: SourceRefreshOptions = SourceRefreshOptions()
    ) {
      self.cache = cache
      self.hls = hls
      self.request = request
      self.network = network
      self.maximumConcurrentTasks = maximumConcurrentTasks
      self.clock = clock
      self.urlSourceExpiredHandler = urlSourceExpiredHandler
      self.sourceRefresh = sourceRefresh
    }

    /// The configuration matching what a player built with `player` plays through: its
    /// cache, HLS configuration, requests, network, clock and URL refresh.
    public init(player: PlayerConfiguration, maximumConcurrentTasks: Int = 2) {
      self.init(
        cache: player.cache, hls: player.hls, request: player.request, network: player.network,
        maximumConcurrentTasks: maximumConcurrentTasks, clock: player.clock,
        urlSourceExpiredHandler: player.urlSourceExpiredHandler,
        sourceRefresh: player.sourceRefresh)
    }
  }

  let condition = NSCondition()
  private var storedConfiguration: Configuration
  private var jobs: [String: PreloadJob] = [:]
  /// Jobs added and not yet started, in order.
  private var waiting: [PreloadJob] = []
  /// How many slots are taken (running jobs that are not paused).
  private var busySlots = 0
  /// Delivers listener callbacks, in order.
  let callbackQueue = DispatchQueue(label: "playhead.preload.callbacks")

  /// Creates an independent loader.
  public init(configuration: Configuration = Configuration()) {
    storedConfiguration = configuration
  }

  /// The configuration; a change applies to tasks that start afterwards.
  public var configuration: Configuration {
    get {
      condition.lock()
      defer { condition.unlock() }
      return storedConfiguration
    }
    set {
      condition.lock()
      storedConfiguration = newValue
      pumpLocked()
      condition.unlock()
    }
  }

  /// The cache tasks store into (the configuration's).
  public var cache: MediaCache? {
    get { configuration.cache }
    set { configuration.cache = newValue }
  }

  /// Adds `task` and returns its ID (unique within this loader); it starts when a slot
  /// is free. `listener` is told once how it ended.
  @discardableResult
  public func addTask(_ task: PreloadTask, listener: (any PreloadListener)? = nil) -> String {
    condition.lock()
    let id = TaskIdentifiers.next()
    let job = PreloadJob(id: id, task: task, listener: listener, loader: self)
    jobs[id] = job
    waiting.append(job)
    pumpLocked()
    condition.unlock()
    return id
  }

  /// Cancels a task: a waiting or paused task ends at once; a running one stops its
  /// request in flight. The listener hears `preloadWasCanceled` once. Bytes already
  /// fetched stay in the cache. An unknown or finished task is left as it is.
  public func cancelTask(_ id: String) {
    condition.lock()
    guard let job = jobs[id], !job.state.isFinished else {
      condition.unlock()
      return
    }
    job.cancelRequested = true
    if !job.started {
      waiting.removeAll { $0 === job }
      finishLocked(job, with: .canceled)
      condition.unlock()
      return
    }
    let inFlight = job.cancellables
    condition.broadcast()
    condition.unlock()
    for item in inFlight { item() }
  }

  /// Cancels every unfinished task.
  public func cancelAll() {
    condition.lock()
    let ids = jobs.values.filter { !$0.state.isFinished }.map(\.id)
    condition.unlock()
    for id in ids { cancelTask(id) }
  }

  /// Pauses a task: it sends no further request until `resumeTask` (a request already in
  /// flight finishes and its bytes are kept). A paused task frees its slot. An unknown or
  /// finished task is left as it is.
  public func pauseTask(_ id: String) {
    condition.lock()
    defer { condition.unlock() }
    guard let job = jobs[id], !job.state.isFinished, !job.pauseRequested else { return }
    job.pauseRequested = true
    if job.state == .running || job.state == .waiting { job.state = .paused }
    condition.broadcast()
  }

  /// Resumes a paused task; it continues when a slot is free.
  public func resumeTask(_ id: String) {
    condition.lock()
    defer { condition.unlock() }
    guard let job = jobs[id], !job.state.isFinished, job.pauseRequested else { return }
    job.pauseRequested = false
    if job.state == .paused { job.state = job.started ? .running : .waiting }
    pumpLocked()
    condition.broadcast()
  }

  /// The state of a task, or nil for an unknown ID.
  public func state(ofTask id: String) -> PreloadTaskState? {
    condition.lock()
    defer { condition.unlock() }
    return jobs[id]?.state
  }

  /// Blocks until the task has finished or `timeoutMs` of host time passed; returns
  /// its state then (nil for an unknown ID). For command-line tools and tests.
  public func waitForTask(_ id: String, timeoutMs: Int) -> PreloadTaskState? {
    let deadline = Date().addingTimeInterval(max(0, Double(timeoutMs) / 1000))
    condition.lock()
    defer { condition.unlock() }
    while let job = jobs[id], !job.state.isFinished {
      if !condition.wait(until: deadline) { break }
    }
    return jobs[id]?.state
  }

  // MARK: Scheduling (callers hold `condition`)

  /// Starts waiting jobs while slots are free.
  private func pumpLocked() {
    let limit = max(1, storedConfiguration.maximumConcurrentTasks)
    while busySlots < limit, let index = waiting.firstIndex(where: { !$0.pauseRequested }) {
      let job = waiting.remove(at: index)
      job.started = true
      job.state = .running
      job.configuration = storedConfiguration
      busySlots += 1
      // The thread keeps the loader alive until the job has reported (the job's
      // reference to it is unowned).
      // A plain thread (the host clock's): a preload is no player's worker; its waits on
      // the configuration's clock are those of a thread outside the player.
      HostClock.shared.startThread(named: "playhead.preload") { [self] in
        withExtendedLifetime(self) { job.run() }
      }
    }
  }

  /// Called by a job at each checkpoint: throws `.cancelled` after `cancelTask`, and
  /// while paused gives up the slot and waits for `resumeTask` and a free slot.
  func checkpoint(_ job: PreloadJob) throws(PlayheadError) {
    condition.lock()
    defer { condition.unlock() }
    guard job.pauseRequested || job.cancelRequested else { return }
    if job.cancelRequested { throw job.cancelledError }
    busySlots -= 1
    pumpLocked()
    condition.broadcast()
    // Paused again while it waited for a slot, it waits for the resume again.
    let limit = { max(1, self.storedConfiguration.maximumConcurrentTasks) }
    while (job.pauseRequested || busySlots >= limit()) && !job.cancelRequested {
      condition.wait()
    }
    busySlots += 1
    if job.cancelRequested { throw job.cancelledError }
  }

  /// Registers what cancels the job's request in flight; runs it at once when the job
  /// was cancelled meanwhile.
  func register(_ job: PreloadJob, cancel: @escaping @Sendable () -> Void) {
    condition.lock()
    let cancelled = job.cancelRequested
    if !cancelled { job.cancellables.append(cancel) }
    condition.unlock()
    if cancelled { cancel() }
  }

  /// Ends a running job with `result`: frees its slot, starts the next, tells the listener.
  func jobEnded(_ job: PreloadJob, result: Result<PreloadReport, PlayheadError>) {
    condition.lock()
    busySlots -= 1
    job.cancellables = []
    let final: PreloadTaskState
    switch result {
    case _ where job.cancelRequested: final = .canceled
    case .success(let report): final = .completed(report)
    case .failure(let error): final = error.code == .cancelled ? .canceled : .failed(error)
    }
    finishLocked(job, with: final)
    pumpLocked()
    condition.unlock()
  }

  /// Records the final state and queues the one listener call.
  private func finishLocked(_ job: PreloadJob, with state: PreloadTaskState) {
    job.state = state
    condition.broadcast()
    guard let listener = job.listener else { return }
    let id = job.id
    let url = job.task.url
    callbackQueue.async {
      switch state {
      case .completed(let report): listener.preloadDidComplete(taskID: id, url: url, report: report)
      case .failed(let error): listener.preloadDidFail(taskID: id, url: url, error: error)
      default: listener.preloadWasCanceled(taskID: id, url: url)
      }
    }
  }
}

/// Task IDs unique in the process, so that one listener can serve several loaders.
enum TaskIdentifiers {
  /// The next ID: `preload-N`, N from the process-wide ID source.
  static func next() -> String {
    "preload-\(ProcessUniqueID.next())"
  }
}
