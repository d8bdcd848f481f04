import Foundation
import PlayheadCore

extension DownloadManager {
  /// Starts a `.requested` download with its selection (the seed's `start`).
  ///
  /// With `encryptionKey` (16 bytes) the files are encrypted at rest (the seed's secure
  /// download) and play only with that key registered in `OfflineKeyRegistry.shared`.
  /// Starting a download in another state resumes it (see `resume`). Throws
  /// `.invalidArgument` for a key that is not 16 bytes.
  public func start(_ id: DownloadID, encryptionKey: [UInt8]? = nil) throws(PlayheadError) {
    try launch(id, encryptionKey: encryptionKey)
  }

  /// Continues a `.suspended`, `.error` or `.cancelled` download (a cancelled one starts
  /// again from nothing); files already on disk are kept and the partial one continues from
  /// where its bytes stop. A download encrypted at rest needs its key again: passed here,
  /// or registered in `OfflineKeyRegistry.shared`; otherwise `.invalidArgument`. Resuming a
  /// running or completed download does nothing.
  public func resume(_ id: DownloadID, encryptionKey: [UInt8]? = nil) throws(PlayheadError) {
    try launch(id, encryptionKey: encryptionKey)
  }

  /// Resumes every `.suspended` download (after a restart, say); errors are reported per
  /// download with `.failed` and skipped.
  public func resumeAll() {
    for record in downloads where record.state == .suspended {
      do {
        try resume(record.id)
      } catch {
        deliver(.failed(record.id, error))
      }
    }
  }

  /// Stops a running download and keeps its files (`.suspended`); waits until its thread
  /// has stopped writing. Pausing a download that is not running does nothing.
  public func pause(_ id: DownloadID) throws(PlayheadError) {
    try stop(id, as: .suspended)
  }

  /// Stops a download and removes its files and plan; the record stays `.cancelled` (with
  /// its selection) and `resume` starts it again from nothing.
  public func cancel(_ id: DownloadID) throws(PlayheadError) {
    try stop(id, as: .cancelled)
    let record = try existing(id)
    removeFiles(of: record)
    state.withLock { state in
      if var current = state.records[id] {
        current.progress = DownloadProgress(expectedBytes: current.progress.expectedBytes)
        current.encryptionKeyID = nil
        state.records[id] = current
      }
      // The key goes with its key ID: a restart without a key must not encrypt with it, or
      // a later run (which no longer has it) would store the rest of the files clear.
      state.keys[id] = nil
      saveIndexQuietly(&state)
    }
  }

  /// Stops a download, removes its files and plan, and forgets it.
  public func delete(_ id: DownloadID) throws(PlayheadError) {
    let record = try existing(id)
    try stop(id, as: .cancelled, deleting: true)
    removeFiles(of: record)
    try state.withLock { (state) throws(PlayheadError) in
      state.records[id] = nil
      state.order.removeAll { $0 == id }
      state.prepared[id] = nil
      state.keys[id] = nil
      state.freshURLs[id] = nil
      try saveIndex(state)
    }
  }

  /// Blocks until the download is not `.downloading` (or `timeoutMs` pass) and
  /// returns its record; nil for an unknown ID. For command-line tools and tests.
  public func waitUntilStopped(_ id: DownloadID, timeoutMs: Int = 3_600_000) -> DownloadRecord? {
    let done = DispatchSemaphore(value: 0)
    let token = addObserver { event in
      switch event {
      case .completed(let eventID, _) where eventID == id: done.signal()
      case .failed(let eventID, _) where eventID == id: done.signal()
      case .stateChanged(let eventID, let state) where eventID == id && state != .downloading:
        done.signal()
      default: break
      }
    }
    defer { removeObserver(token) }
    guard let record = record(for: id) else { return nil }
    if record.state != .downloading { return record }
    // Events are delivered after the state changes, so the record is final when a run's
    // end is signalled. An end event of an earlier run may still be on its way to this
    // observer (a `.stateChanged` follows its `.failed`): such a signal finds the record
    // still downloading and the wait goes on.
    let deadline = DispatchTime.now() + .milliseconds(timeoutMs)
    while self.record(for: id)?.state == .downloading {
      if done.wait(timeout: deadline) == .timedOut { break }
    }
    return self.record(for: id)
  }

  // MARK: Internals

  private func launch(_ id: DownloadID, encryptionKey: [UInt8]?)
    throws(PlayheadError)
  {
    if let encryptionKey, encryptionKey.count != 16 {
      throw PlayheadError(
        .invalidArgument,
        "an encryption key must be 16 bytes (32 hex digits), not \(encryptionKey.count)")
    }
    let givenID = try encryptionKey.map { key throws(PlayheadError) in
      try OfflineKeyRegistry.keyID(for: key)
    }
    let control = DownloadControl()
    // Nil when the download is already running or completed (nothing to do).
    let launched = try state.withLock {
      (state) throws(PlayheadError) -> (key: [UInt8]?, saved: Result<Void, PlayheadError>)? in
      guard var record = state.records[id] else { throw Self.unknown(id) }
      if record.state == .downloading || record.state == .completed { return nil }
      var key = encryptionKey ?? state.keys[id]
      if let storedID = record.encryptionKeyID {
        if let givenID, givenID != storedID {
          throw PlayheadError(
            .invalidArgument,
            "download \(id) was started with another encryption key (key ID \(storedID))")
        }
        if key == nil { key = OfflineKeyRegistry.shared.key(forKeyID: storedID) }
        guard key != nil else {
          throw PlayheadError(
            .invalidArgument,
            "download \(id) is encrypted at rest; resume it with its key (key ID \(storedID))")
        }
      } else if record.state != .requested && record.state != .cancelled && key != nil
        && record.progress.downloadedBytes > 0
      {
        throw PlayheadError(
          .invalidArgument,
          "download \(id) was started without encryption; it cannot be encrypted on resume")
      }
      record.encryptionKeyID = givenID ?? record.encryptionKeyID
      record.state = .downloading
      record.failure = nil
      state.records[id] = record
      state.keys[id] = key
      state.running[id] = control
      return (key, Result { () throws(PlayheadError) in try saveIndex(state) })
    }
    guard let launched else { return }
    let (key, saved) = launched
    if case .failure(let error) = saved {
      finish(id, control: control, state: .error, failure: error)
      control.markFinished()
      throw error
    }
    deliver(.stateChanged(id, .downloading))
    let runKey = key
    // Downloads run on no player's clock: their waits are in real time.
    HostClock.shared.startThread(named: "playhead.download.\(id.rawValue.prefix(8))") {
      [self] in
      run(id, control: control, key: runKey)
      control.markFinished()
    }
  }

  /// Stops the download's thread (if running) and sets `state`; a completed download can
  /// be stopped only by `delete` (`deleting`).
  private func stop(_ id: DownloadID, as newState: DownloadState, deleting: Bool = false)
    throws(PlayheadError)
  {
    let (control, changes) = try state.withLock {
      (state) throws(PlayheadError) -> (DownloadControl?, Bool) in
      guard var record = state.records[id] else { throw Self.unknown(id) }
      if newState == .cancelled && record.state == .completed && !deleting {
        throw PlayheadError(
          .invalidState, "download \(id) is completed; delete it to remove its files")
      }
      let control = state.running.removeValue(forKey: id)
      control?.cancel()
      let changes = control != nil || (newState == .cancelled && record.state != .cancelled)
      if changes {
        record.state = newState
        state.records[id] = record
        saveIndexQuietly(&state)
      }
      return (control, changes)
    }
    control?.wake()
    control?.waitUntilFinished()
    if changes { deliver(.stateChanged(id, newState)) }
  }

  /// Ends a run in `state` unless it was stopped meanwhile (pause, cancel, delete): sends
  /// `event` (completion or failure), then `.stateChanged`. Returns whether the state was set.
  @discardableResult
  func finish(
    _ id: DownloadID, control: DownloadControl, state newState: DownloadState,
    failure: PlayheadError?, announcing event: DownloadEvent? = nil
  ) -> Bool {
    let ended = state.withLock { state in
      guard state.running[id] === control, !control.isCancelled, var record = state.records[id]
      else { return false }
      state.running[id] = nil
      record.state = newState
      record.failure = failure.map(DownloadFailure.init)
      state.records[id] = record
      saveIndexQuietly(&state)
      return true
    }
    guard ended else { return false }
    if let event { deliver(event) }
    deliver(.stateChanged(id, newState))
    return true
  }
}
