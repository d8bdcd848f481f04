extension ControlLayout {
  /// The kinds of layout the SDK provides (seed 000's "provided layouts").
  public enum Kind: String, Sendable, CaseIterable, Codable {
    /// Video on demand (`basicVODControlLayout`).
    case vod
    /// Live video without seeking (`basicLiveControlLayout`).
    case live
    /// Live video with a seekable window (`basicLiveDVRControlLayout`).
    case liveDVR = "dvr"
    /// Audio on demand (`basicControlViewWithAODLayout`).
    case audioOnlyVOD = "aod"
    /// Live audio.
    case liveAudio = "live-audio"
    /// Live audio with a seekable window.
    case liveDVRAudio = "dvr-audio"

    /// The kind `automaticControlTypeSelection` picks for a session: audio-only media
    /// takes the audio layouts, and the stream kind picks VOD, live or live DVR.
    public static func automatic(isAudioOnly: Bool, streamKind: StreamKind) -> Kind {
      switch (isAudioOnly, streamKind) {
      case (false, .onDemand): return .vod
      case (false, .live): return .live
      case (false, .liveDVR): return .liveDVR
      case (true, .onDemand): return .audioOnlyVOD
      case (true, .live): return .liveAudio
      case (true, .liveDVR): return .liveDVRAudio
      }
    }

    /// Whether the layout is one of the audio-only ones.
    public var isAudioOnly: Bool {
      self == .audioOnlyVOD || self == .liveAudio || self == .liveDVRAudio
    }
  }

  /// What a stream offers the controls: a seekable whole, a live edge only, or a live
  /// edge with a window behind it.
  public enum StreamKind: String, Sendable, Codable {
    /// A stream with an end: seek anywhere.
    case onDemand
    /// A live stream whose window is too short to seek in.
    case live
    /// A live stream with a window to seek back in (DVR).
    case liveDVR
  }

  /// The provided layout of `kind`.
  public static func provided(_ kind: Kind) -> ControlLayout {
    switch kind {
    case .vod: return basicVOD()
    case .live: return basicLive()
    case .liveDVR: return basicLiveDVR()
    case .audioOnlyVOD: return basicAudioOnlyVOD()
    case .liveAudio: return basicLiveAudio()
    case .liveDVRAudio: return basicLiveDVRAudio()
    }
  }

  /// The VOD layout: play/pause at the bar's left edge, jump back, current time / duration,
  /// the elastic slider, then subtitles, bitrate and full screen; compact puts the times
  /// and slider on a row above the buttons.
  public static func basicVOD() -> ControlLayout {
    ControlLayout(
      standardRows: [
        [
          .init(tag: .playback), .init(tag: .jumpBack), .init(tag: .currentTime),
          .init(tag: .timeSeparator), .init(tag: .duration), slider, .init(tag: .closedCaption),
          .init(tag: .preferredBitrate), .init(tag: .screenMode), removedExternalRoute,
        ]
      ],
      compactRows: [
        [.init(tag: .currentTime), slider, .init(tag: .duration)],
        [
          .init(tag: .playback), .init(tag: .jumpBack), spacer, .init(tag: .closedCaption),
          .init(tag: .preferredBitrate), .init(tag: .screenMode), removedExternalRoute,
        ],
      ])
  }

  /// The live layout: play/pause, the live badge, subtitles, bitrate and full screen; no
  /// slider and no times.
  public static func basicLive() -> ControlLayout {
    let row: [ControlLayoutView] = [
      .init(tag: .playback), .init(tag: .liveIndicator), spacer, .init(tag: .closedCaption),
      .init(tag: .preferredBitrate), .init(tag: .screenMode), removedExternalRoute,
    ]
    return ControlLayout(standardRows: [row], compactRows: [row])
  }

  /// The live DVR layout: the VOD controls with the distance to live as the current time,
  /// a slider over the seekable window and the live badge (go to live).
  public static func basicLiveDVR() -> ControlLayout {
    ControlLayout(
      standardRows: [
        [
          .init(tag: .playback), .init(tag: .jumpBack), .init(tag: .currentTime), slider,
          .init(tag: .liveIndicator), .init(tag: .closedCaption), .init(tag: .preferredBitrate),
          .init(tag: .screenMode), removedExternalRoute,
        ]
      ],
      compactRows: [
        [.init(tag: .currentTime), slider, .init(tag: .liveIndicator)],
        [
          .init(tag: .playback), .init(tag: .jumpBack), spacer, .init(tag: .closedCaption),
          .init(tag: .preferredBitrate), .init(tag: .screenMode), removedExternalRoute,
        ],
      ])
  }

  /// The audio-on-demand layout: the VOD controls without full screen and bitrate;
  /// the subtitles button lists audio tracks and any text tracks.
  public static func basicAudioOnlyVOD() -> ControlLayout {
    ControlLayout(
      standardRows: [
        [
          .init(tag: .playback), .init(tag: .jumpBack), .init(tag: .currentTime),
          .init(tag: .timeSeparator), .init(tag: .duration), slider, .init(tag: .closedCaption),
          removedExternalRoute,
        ]
      ],
      compactRows: [
        [.init(tag: .currentTime), slider, .init(tag: .duration)],
        [
          .init(tag: .playback), .init(tag: .jumpBack), spacer, .init(tag: .closedCaption),
          removedExternalRoute,
        ],
      ])
  }

  /// The live-audio layout: play/pause, the live badge and the track menu.
  public static func basicLiveAudio() -> ControlLayout {
    let row: [ControlLayoutView] = [
      .init(tag: .playback), .init(tag: .liveIndicator), spacer, .init(tag: .closedCaption),
      removedExternalRoute,
    ]
    return ControlLayout(standardRows: [row], compactRows: [row])
  }

  /// The live DVR audio layout: the live DVR controls without full screen and bitrate.
  public static func basicLiveDVRAudio() -> ControlLayout {
    ControlLayout(
      standardRows: [
        [
          .init(tag: .playback), .init(tag: .jumpBack), .init(tag: .currentTime), slider,
          .init(tag: .liveIndicator), .init(tag: .closedCaption), removedExternalRoute,
        ]
      ],
      compactRows: [
        [.init(tag: .currentTime), slider, .init(tag: .liveIndicator)],
        [
          .init(tag: .playback), .init(tag: .jumpBack), spacer, .init(tag: .closedCaption),
          removedExternalRoute,
        ],
      ])
  }

  private static var slider: ControlLayoutView { .init(tag: .progressSlider, elasticity: 1) }
  private static var spacer: ControlLayoutView {
    .init(id: "spacer", tag: .empty, width: 0, elasticity: 1)
  }
  private static var removedExternalRoute: ControlLayoutView {
    .init(tag: .externalRoute, isRemoved: true)
  }
}
