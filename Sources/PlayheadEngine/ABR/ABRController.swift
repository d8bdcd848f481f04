/// Chooses the rendition of each segment of an adaptive stream.
///
/// The engine asks `selectInitialLevel` once per item (and after a seek that rebuilds the
/// source), `selectLevel` before every further segment, and `shouldAbandon` while a segment
/// downloads. Implementations are pure decision logic: they read the numbers in
/// `ABRContext` and keep whatever history they need from `didCompleteDownload(_:)`. Every
/// level index in and out is a `BitrateLevel.index`. Manual selection and caps in
/// `ABRContext.constraints` must be respected by every implementation.
public protocol ABRController: AnyObject {
  /// The level of the first segment; -1 only when `levels` is empty.
  func selectInitialLevel(levels: [BitrateLevel], context: ABRContext) -> Int
  /// The level of the next segment and the reason for it.
  func selectLevel(levels: [BitrateLevel], context: ABRContext) -> ABRDecision
  /// A lower level to restart the running download at, or nil to let it finish.
  ///
  /// `levels` is the same ladder `selectLevel` was given. With a manual selection the
  /// answer must be nil: the viewer's choice is never abandoned.
  func shouldAbandon(
    levels: [BitrateLevel], download: InProgressDownload, context: ABRContext
  ) -> Int?
  /// Reports a finished or abandoned download; the default does nothing.
  func didCompleteDownload(_ download: CompletedDownload)
  /// Forgets per-item history (a new item starts); the default does nothing.
  func reset()
}

extension ABRController {
  /// Does nothing.
  public func didCompleteDownload(_ download: CompletedDownload) {}
  /// Does nothing.
  public func reset() {}
}
