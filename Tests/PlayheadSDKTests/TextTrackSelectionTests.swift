import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import XCTest

/// The automatic choice of a text track: preference list, default and forced tracks.
final class TextTrackSelectionTests: XCTestCase {
  private func option(
    _ id: String, _ language: String?, kind: TextTrackKind = .subtitles, isDefault: Bool = false,
    isForced: Bool = false, selectable: Bool = true
  ) -> TextTrackOption {
    TextTrackOption(
      id: id, language: language, label: id, kind: kind, isDefault: isDefault,
      isForced: isForced, source: .sidecar(URL(fileURLWithPath: "/tmp/\(id).vtt")),
      isSelectable: selectable)
  }

  private var tracks: [TextTrackOption] {
    [
      option("en", "en"),
      option("en-forced", "en", isForced: true),
      option("fr", "fr-FR"),
      option("fr-forced", "fr", isForced: true),
      option("de-default", "de", isDefault: true),
      option("ja-chapters", "ja", kind: .chapters, selectable: false),
    ]
  }

  private func choose(
    _ languages: [String], _ mode: TextTrackPreferences.Mode, audio: String?,
    in options: [TextTrackOption]? = nil
  ) -> String? {
    TextTrackPreferences(languages: languages, mode: mode)
      .choose(from: options ?? tracks, audioLanguage: audio)?.id
  }

  func testAutomaticShowsForcedSubtitlesWhenTheViewerUnderstandsTheAudio() {
    XCTAssertEqual(choose(["fr"], .automatic, audio: "fr"), "fr-forced")
    XCTAssertEqual(choose(["fr", "en"], .automatic, audio: "eng"), "en-forced", "eng is en")
    // Understood audio without a forced track in its language: the default track.
    XCTAssertEqual(choose(["de"], .automatic, audio: "de"), "de-default")
    // Nothing forced and nothing default: none.
    XCTAssertNil(choose(["en"], .automatic, audio: "en", in: [option("en", "en")]))
  }

  func testAutomaticShowsPreferredSubtitlesWhenTheAudioIsForeign() {
    XCTAssertEqual(choose(["fr", "en"], .automatic, audio: "ja"), "fr", "first preferred language")
    XCTAssertEqual(choose(["it", "en"], .automatic, audio: "ja"), "en", "the next language")
    XCTAssertEqual(choose(["it"], .automatic, audio: "ja"), "de-default", "then the default")
    XCTAssertEqual(
      choose(["it"], .automatic, audio: "en", in: [option("en-forced", "en", isForced: true)]),
      "en-forced", "then the forced track in the audio's language")
  }

  func testAutomaticWithAnUnknownAudioLanguageTakesTheFirstPreferredAsTheAudio() {
    XCTAssertEqual(choose(["fr"], .automatic, audio: nil), "fr-forced")
    XCTAssertEqual(choose(["fr"], .automatic, audio: "und"), "fr-forced", "und is unknown")
    XCTAssertEqual(choose([], .automatic, audio: nil), "de-default")
  }

  func testAlwaysShowsFullSubtitlesInAPreferredLanguage() {
    XCTAssertEqual(choose(["fr"], .always, audio: "fr"), "fr")
    XCTAssertEqual(choose(["en-US"], .always, audio: nil), "en", "language-only match")
    XCTAssertEqual(choose(["ja"], .always, audio: "en"), "de-default", "no ja subtitles")
    XCTAssertEqual(
      choose(["ja"], .always, audio: "en", in: [option("en-forced", "en", isForced: true)]),
      "en-forced")
    XCTAssertNil(choose(["ja"], .always, audio: "en", in: [option("fr", "fr")]))
  }

  func testAnExactTagWinsOverALanguageOnlyMatch() {
    let options = [option("pt", "pt"), option("pt-BR", "pt-BR"), option("pt-PT", "pt-PT")]
    XCTAssertEqual(choose(["pt-BR"], .always, audio: nil, in: options), "pt-BR")
    XCTAssertEqual(choose(["pt-br"], .always, audio: nil, in: options), "pt-BR", "any case")
    XCTAssertEqual(choose(["pt_PT"], .always, audio: nil, in: options), "pt-PT", "underscore")
    XCTAssertEqual(choose(["pt-AO"], .always, audio: nil, in: options), "pt", "first of equals")
  }

  func testForcedOnlyAndTheApplicationsAudioLanguage() {
    XCTAssertEqual(choose(["en"], .forcedOnly, audio: "fr"), "fr-forced")
    XCTAssertNil(choose(["en"], .forcedOnly, audio: "ja"))
    let preferences = TextTrackPreferences(
      languages: ["en"], mode: .automatic, audioLanguage: "fr")
    XCTAssertEqual(
      preferences.choose(from: tracks, audioLanguage: "en")?.id, "en",
      "the application's audio (fr) wins over the stream's (en): the viewer needs subtitles")
    XCTAssertEqual(
      TextTrackPreferences(languages: ["en"]).choose(from: tracks, audioLanguage: "en")?.id,
      "en-forced")
  }

  func testUnselectableOptionsAreNeverChosen() {
    let options = [
      option("ja-chapters", "ja", kind: .chapters, isDefault: true, selectable: false),
      option("ja", "ja", selectable: false),
    ]
    XCTAssertNil(choose(["ja"], .always, audio: nil, in: options))
    XCTAssertNil(choose([], .automatic, audio: nil, in: options))
  }

  func testOptionsFromCatalogTracksAndRenditions() throws {
    let vtt = TextTrack(
      src: URL(string: "https://cdn.example/en.vtt"), srclang: "en", label: "English",
      kind: "subtitles", isDefault: true)
    let chapters = TextTrack(
      src: URL(string: "https://cdn.example/ch.vtt"), srclang: "en", kind: "chapters")
    let ttml = TextTrack(
      src: URL(string: "https://cdn.example/en.ttml"), srclang: "en", kind: "captions",
      mimeType: "application/ttml+xml")
    let forced = TextTrack(
      src: URL(string: "https://cdn.example/fr.vtt"), srclang: "fr", kind: "subtitles",
      properties: ["forced": .bool(true)])
    let inBand = TextTrack(src: nil, srclang: "de", kind: "captions")
    let first = try XCTUnwrap(TextTrackOption(sidecar: vtt, index: 0))
    XCTAssertEqual(first.id, "sidecar:0")
    XCTAssertEqual(first.label, "English")
    XCTAssertTrue(first.isDefault && first.isSelectable)
    XCTAssertEqual(first.source, .sidecar(URL(string: "https://cdn.example/en.vtt")!))
    XCTAssertFalse(try XCTUnwrap(TextTrackOption(sidecar: chapters, index: 1)).isSelectable)
    XCTAssertFalse(try XCTUnwrap(TextTrackOption(sidecar: ttml, index: 2)).isSelectable)
    XCTAssertTrue(try XCTUnwrap(TextTrackOption(sidecar: forced, index: 3)).isForced)
    XCTAssertNil(TextTrackOption(sidecar: inBand, index: 4), "a track without src is left out")

    let base = URL(string: "https://cdn.example/hls/master.m3u8")!
    let subtitles = RenditionInfo(
      type: "subtitles", groupID: "subs", name: "Español", language: "es", isDefault: false,
      autoselect: true, forced: true, uri: "subs/es.m3u8")
    let captions = RenditionInfo(
      type: "closedCaptions", groupID: "cc", name: "CC1", language: "en", isDefault: false,
      autoselect: true, forced: false, uri: nil)
    let audio = RenditionInfo(
      type: "audio", groupID: "aud", name: "English", language: "en", isDefault: true,
      autoselect: true, forced: false, uri: "audio/en.m3u8")
    let spanish = try XCTUnwrap(TextTrackOption(rendition: subtitles, relativeTo: base))
    XCTAssertEqual(spanish.id, "hls:subs:Español")
    XCTAssertTrue(spanish.isForced && spanish.isSelectable)
    XCTAssertEqual(
      spanish.source,
      .inManifest(
        groupID: "subs", name: "Español", uri: URL(string: "https://cdn.example/hls/subs/es.m3u8")))
    let closed = try XCTUnwrap(TextTrackOption(rendition: captions, relativeTo: base))
    XCTAssertEqual(closed.kind, .captions)
    XCTAssertFalse(closed.isSelectable, "closed captions in the video are listed only")
    XCTAssertNil(TextTrackOption(rendition: audio, relativeTo: base))
    let audioOption = try XCTUnwrap(AudioTrackOption(rendition: audio, relativeTo: base))
    XCTAssertEqual(audioOption.id, "hls:aud:English")
    XCTAssertTrue(audioOption.isDefault)
    XCTAssertNil(AudioTrackOption(rendition: subtitles, relativeTo: base))
  }

  func testLanguageTags() {
    XCTAssertEqual(TrackLanguage.normalized("EN_us"), "en-us")
    XCTAssertEqual(TrackLanguage.normalized("fre"), "fr")
    XCTAssertEqual(TrackLanguage.normalized("ger"), "de")
    XCTAssertNil(TrackLanguage.normalized("und"))
    XCTAssertNil(TrackLanguage.normalized(""))
    XCTAssertNil(TrackLanguage.normalized("12"))
    XCTAssertEqual(TrackLanguage.match("zh-Hant", "zh-hant"), .exact)
    XCTAssertEqual(TrackLanguage.match("zho", "zh-Hans"), .language)
    XCTAssertEqual(TrackLanguage.match("en", "fr"), TrackLanguage.Match.none)
  }
}
