import PlayheadHLS

/// Playhead's verdict on each playlist of the peer corpus, and why it differs from the
/// peer's where it does (summarized in docs/hls-playlists.md, peer conformance).
enum PeerPlaylistVerdicts {
  /// The URL (and master variables for `IMPORT`) a case is parsed with, where the peer's
  /// test gives one; others use `https://example.com/peer/<id>.m3u8`.
  static let contexts: [String: (url: String, importing: [String: String]?)] = [
    "hls.js/defines-variables-using-QUERYPARAM-name-value-pairs-in-parent-Playlist": (
      "https://www.x.com?foo=bar&a=ok&token=1234", nil
    ),
    "hls.js/defines-variables-using-QUERYPARAM-name-value-pairs-in-parent-Playlist-2": (
      "https://www.x.com/sec/video/1.m3u8?parent-token=1234", ["foo": "bar", "token": "1234"]
    ),
    "hls.js/imports-and-substitutes-variable-references-in-quoted-strings-URI-line": (
      "http://example.com/hls/index.m3u8", ["mvpVariable": "ok"]
    ),
    "media3/inheritedVariableSubstitution": (
      "https://example.com/test3.m3u8", ["imported_base": "long_path"]
    ),
    "media3/mv-parseMultivariantPlaylist_dependentPlaylistWithImportedQueryParam_placeholderSubstituted-mediaPlaylistString":
      ("http://example.com/", ["path": "appended/path"]),
    "media3/mv-parseMultivariantPlaylist_dependentPlaylistWithoutImport_placeholderNotSubstituted-mediaPlaylistString":
      ("http://example.com/", ["path": "appended/path"]),
    "media3/mv-PLAYLIST_WITH_DUPLICATE_QUERY_PARAM_NAMES": (
      "http://example.com/?query_param=value_1", nil
    ),
    "media3/mv-PLAYLIST_WITH_DUPLICATE_VARIABLE_AND_QUERY_PARAM_NAMES": (
      "http://example.com/?path=appended/path&codecs=mp4a.40.5", nil
    ),
    "media3/queryParamSubstitution": (
      "https://example.com/substitution.m3u8?queryparam_1=replaced_value.ts&param-2=22", nil
    ),
    "media3/queryParamSubstitution-fixednl": (
      "https://example.com/substitution.m3u8?queryparam_1=replaced_value.ts&param-2=22", nil
    ),
    "media3/queryParamSubstitution_duplicateQueryParamAndImportName_throws": (
      "https://example.com/substitution.m3u8?import_1=value_1", ["import_1": "value_1"]
    ),
    "media3/queryParamSubstitution_duplicateQueryParamAndImportName_throws-fixednl": (
      "https://example.com/substitution.m3u8?import_1=value_1", ["import_1": "value_1"]
    ),
    "media3/queryParamSubstitution_duplicateVariableAndImportName_throws": (
      "https://example.com/substitution.m3u8", ["import_1": "value_1"]
    ),
    "media3/queryParamSubstitution_duplicateVariableAndQueryParamName_throws": (
      "https://example.com/substitution.m3u8?queryparam_1=foo", nil
    ),
    "media3/queryParamSubstitution_queryParam_isCaseSensitiveOrThrows": (
      "https://example.com/substitution.m3u8?queryparam_1=replaced_value.ts", nil
    ),
    "shaka/import-variables-in-media-from-master-playlist-media": (
      "https://example.com/host/audio.m3u8?token=1",
      ["auth": "?token=1", "segmentPrefix": "/hls_test/segments/"]
    ),
    "shaka/parse-variables-in-media-playlist-media": (
      "https://example.com/host/audio.m3u8?fooParam=1", nil
    ),
    "shaka/parse-variables-master-playlist-master": (
      "https://example.com/host/master.m3u8?a=1&b=2", nil
    ),
  ]

  /// The cases Playhead rejects: the error kind and line.
  static let errors: [String: (kind: PlaylistParseError.Kind, line: Int)] = [
    "globocom-m3u8/IPTV_PLAYLIST_WITH_CUSTOM_TAGS": (.invalidValue, 4),
    "globocom-m3u8/PLAYLIST_WITH_NEGATIVE_MEDIA_SEQUENCE": (.invalidValue, 3),
    "globocom-m3u8/PLAYLIST_WITH_TAG_MEDIA_READY": (.invalidValue, 6),
    "globocom-m3u8/SIMPLE_PLAYLIST_MESSY": (.segmentWithoutDuration, 5),
    "globocom-m3u8/VARIANT_PLAYLIST_WITH_IFRAME_STABLE_VARIANT_ID": (.missingHeader, 1),
    "globocom-m3u8/VARIANT_PLAYLIST_WITH_STABLE_RENDITION_ID": (.missingHeader, 1),
    "globocom-m3u8/VARIANT_PLAYLIST_WITH_STABLE_VARIANT_ID": (.missingHeader, 1),
    "globocom-m3u8/WINDOWS_PLAYLIST": (.forbiddenURI, 8),
    "hls.js/EXT-X-DISCONTINUITY-SEQUENCE-must-not-appear-more-than-once": (.duplicateTag, 8),
    "hls.js/EXT-X-MEDIA-SEQUENCE-must-not-appear-more-than-once": (.duplicateTag, 7),
    "hls.js/EXT-X-PART-INF-must-not-appear-more-than-once": (.duplicateTag, 5),
    "hls.js/EXT-X-PLAYLIST-TYPE-must-not-appear-more-than-once": (.duplicateTag, 5),
    "hls.js/EXT-X-SERVER-CONTROL-must-not-appear-more-than-once": (.duplicateTag, 5),
    "hls.js/EXT-X-SKIP-must-not-appear-more-than-once": (.duplicateTag, 8),
    "hls.js/EXT-X-TARGETDURATION-must-not-appear-more-than-once": (.duplicateTag, 4),
    "hls.js/EXT-X-VERSION-must-not-appear-more-than-once": (.duplicateTag, 3),
    "hls.js/fails-to-parse-Media-Playlist-when-IMPORT-variable-is-not-present": (
      .undefinedVariable, 5
    ),
    "hls.js/fails-to-parse-Media-Playlist-when-variable-reference-has-no-definitio": (
      .undefinedVariable, 6
    ),
    "hls.js/fails-to-parse-Media-Playlist-when-variable-reference-precedes-definit": (
      .undefinedVariable, 6
    ),
    "hls.js/finds-Variable-References-in-a-playlist-parsed-after-one-that-was-reje": (
      .undefinedVariable, 4
    ),
    "hls.js/manifest-with-broken-syntax-returns-empty-array": (.missingHeader, 1),
    "hls.js/propagates-the-raw-programDateTime-to-the-fragment-following-the-init-": (
      .missingAttribute, 6
    ),
    "hls.js/returns-an-error-when-duplicate-Variables-are-found-in-Multivariant-Pl": (
      .duplicateVariable, 4
    ),
    "media3/encryptedMapTag": (.segmentWithoutDuration, 7),
    "media3/encryptedMapTagWithNoIvFails": (.segmentWithoutDuration, 7),
    "media3/mapTag": (.segmentWithoutDuration, 8),
    "media3/multivariantPlaylistAttributeInheritance": (.segmentWithoutDuration, 8),
    "media3/mv-PLAYLIST_WITH_CONTENT_STEERING_INFO_APPEARING_TWICE": (.duplicateTag, 5),
    "media3/mv-PLAYLIST_WITH_DUPLICATE_QUERY_PARAM_NAMES": (.duplicateVariable, 4),
    "media3/mv-PLAYLIST_WITH_DUPLICATE_VARIABLE_AND_QUERY_PARAM_NAMES": (.duplicateVariable, 4),
    "media3/mv-PLAYLIST_WITH_DUPLICATE_VARIABLE_NAMES": (.duplicateVariable, 4),
    "media3/mv-PLAYLIST_WITH_QUERY_PARAM_SUBSTITUTION": (.undefinedVariable, 3),
    "media3/mv-parseMultivariantPlaylist_dependentPlaylistWithoutImport_placeholderNotSubstituted-mediaPlaylistString":
      (.undefinedVariable, 6),
    "media3/parseMediaPlaylist_withSkippedSegments_correctlyMergedSegments": (
      .segmentWithoutDuration, 10
    ),
    "media3/queryParamSubstitution": (.segmentWithoutDuration, 10),
    "media3/queryParamSubstitution_duplicateQueryParamAndImportName_throws": (
      .duplicateVariable, 4
    ),
    "media3/queryParamSubstitution_duplicateQueryParamAndImportName_throws-fixednl": (
      .duplicateVariable, 4
    ),
    "media3/queryParamSubstitution_duplicateVariableAndImportName_throws": (.duplicateVariable, 4),
    "media3/queryParamSubstitution_duplicateVariableAndQueryParamName_throws": (
      .duplicateVariable, 4
    ),
    "media3/queryParamSubstitution_duplicateVariableName_throws": (.duplicateVariable, 4),
    "media3/queryParamSubstitution_missingQueryParam_throws": (.undefinedVariable, 3),
    "media3/queryParamSubstitution_queryParam_isCaseSensitiveOrThrows": (.undefinedVariable, 3),
    "media3/variableSubstitution": (.segmentWithoutDuration, 10),
    "shaka/EXTINF-media": (.segmentWithoutDuration, 5),
    "shaka/corrects-accumulated-gap-when-discontinuity-sequence-changes-master": (.forbiddenURI, 3),
    "shaka/maps-playhead-date-when-audio-and-video-start-at-different-P-master": (.forbiddenURI, 2),
    "shaka/maps-playhead-date-when-audio-and-video-start-at-different-P-master-withname": (
      .forbiddenURI, 2
    ),
    "shaka/parses-manifest-with-audio-groups-and-variants-masterPlaylist": (.invalidValue, 6),
    "videojs/empty": (.emptyPlaylist, 0),
    "videojs/emptyMediaSequence": (.invalidValue, 3),
    "videojs/extinf": (.invalidValue, 9),
    "videojs/invalidMediaSequence": (.invalidValue, 3),
    "videojs/invalidTargetDuration": (.invalidValue, 2),
    "videojs/liveMissingSegmentDuration": (.segmentWithoutDuration, 8),
    "videojs/llhls-byte-range": (.invalidValue, 7),
    "videojs/manifestExtTTargetdurationNegative": (.invalidValue, 2),
    "videojs/manifestNoExtM3u": (.missingHeader, 1),
    "videojs/master": (.missingHeader, 1),
    "videojs/missingExtinf": (.segmentWithoutDuration, 8),
    "videojs/missingSegmentDuration": (.segmentWithoutDuration, 8),
    "videojs/multipleTargetDurations": (.segmentWithoutDuration, 2),
    "videojs/negativeMediaSequence": (.invalidValue, 3),
    "videojs/start": (.missingHeader, 1),
    "videojs/streamInfInvalid": (.missingHeader, 1),
    "videojs/twoMediaSequences": (.duplicateTag, 4),
  ]

  /// The cases whose peer test expects the playlist to be rejected (a parse error, or for
  /// Shaka a manifest error of its player).
  static let peerRejects: Set<String> = [
    "hls.js/EXT-X-DISCONTINUITY-SEQUENCE-must-not-appear-more-than-once",
    "hls.js/EXT-X-ENDLIST-must-not-appear-more-than-once",
    "hls.js/EXT-X-MEDIA-SEQUENCE-must-appear-before-the-first-Media-Segment",
    "hls.js/EXT-X-MEDIA-SEQUENCE-must-not-appear-more-than-once",
    "hls.js/EXT-X-PART-INF-must-not-appear-more-than-once",
    "hls.js/EXT-X-PLAYLIST-TYPE-must-not-appear-more-than-once",
    "hls.js/EXT-X-SERVER-CONTROL-must-not-appear-more-than-once",
    "hls.js/EXT-X-SKIP-must-not-appear-more-than-once",
    "hls.js/EXT-X-TARGETDURATION-must-not-appear-more-than-once",
    "hls.js/EXT-X-VERSION-must-not-appear-more-than-once",
    "hls.js/errors-when-a-Media-Segment-precedes-EXT-X-SKIP-and-EXT-X-MEDIA-SEQUEN",
    "hls.js/fails-to-parse-Media-Playlist-when-IMPORT-variable-is-not-present",
    "hls.js/fails-to-parse-Media-Playlist-when-variable-reference-has-no-definitio",
    "hls.js/fails-to-parse-Media-Playlist-when-variable-reference-precedes-definit",
    "hls.js/finds-Variable-References-in-a-playlist-parsed-after-one-that-was-reje",
    "hls.js/manifest-with-broken-syntax-returns-empty-array",
    "hls.js/returns-an-error-when-duplicate-Variables-are-found-in-Multivariant-Pl",
    "media3/encryptedMapTagWithNoIvFails",
    "media3/encryptedMapTagWithNoIvFails-fixednl",
    "media3/mv-PLAYLIST_WITH_CONTENT_STEERING_INFO_APPEARING_TWICE",
    "media3/mv-PLAYLIST_WITH_CONTENT_STEERING_INFO_NO_SERVER_URI",
    "media3/mv-PLAYLIST_WITH_DUPLICATE_QUERY_PARAM_NAMES",
    "media3/mv-PLAYLIST_WITH_DUPLICATE_VARIABLE_AND_QUERY_PARAM_NAMES",
    "media3/mv-PLAYLIST_WITH_DUPLICATE_VARIABLE_NAMES",
    "media3/mv-PLAYLIST_WITH_QUERY_PARAM_SUBSTITUTION",
    "media3/parseMediaPlaylist_withInterstitialClientDefinedAttributeInvalidUpdate_throwsIllegalArgumentException",
    "media3/parseMediaPlaylist_withInterstitialStartDateInvalidUpdate_throwsIllegalArgumentException",
    "media3/parseMediaPlaylist_withInterstitialTimelineAttributeChanged_throwsIllegalArgumentException",
    "media3/parseMediaPlaylist_withInterstitialWithoutId_throwsParserException",
    "media3/queryParamSubstitution_duplicateQueryParamAndImportName_throws",
    "media3/queryParamSubstitution_duplicateQueryParamAndImportName_throws-fixednl",
    "media3/queryParamSubstitution_duplicateVariableAndImportName_throws",
    "media3/queryParamSubstitution_duplicateVariableAndQueryParamName_throws",
    "media3/queryParamSubstitution_duplicateVariableName_throws",
    "media3/queryParamSubstitution_missingQueryParam_throws",
    "media3/queryParamSubstitution_queryParam_isCaseSensitiveOrThrows",
    "shaka/fails-on-AES-128-if-WebCrypto-APIs-are-not-available-master",
    "shaka/fails-on-AES-128-if-WebCrypto-APIs-are-not-available-master-withname",
    "shaka/fails-on-AES-128-if-WebCrypto-APIs-are-not-available-mediaWithMp4AesEncryption",
    "shaka/fails-on-AES-256-GCM-if-IV-is-provided-mediaWithGcmEncryption",
    "shaka/if-FairPlay-encryption-with-MSE-and-mp2t-content-media",
    "shaka/if-SAMPLE-AES-encryption-with-MSE-and-mp2t-content-media",
    "shaka/if-unable-to-guess-codecs-master",
    "shaka/if-unable-to-guess-codecs-master-withname",
    "shaka/if-unable-to-guess-codecs-media",
    "shaka/throw-error-when-all-segments-are-gap-media",
    "shaka/throw-error-when-no-segments-media",
  ]

  /// Why a verdict differs from the peer's, by category (each cites the RFC or the issue).
  enum Reason: String, CaseIterable {
    case bandwidth =
      "the BANDWIDTH value runs into the next attribute (a missing comma in the peer's string), so it is not a number"
    case byterange =
      "RFC 8216 4.3.2.2: EXT-X-BYTERANGE is n[@o]; an '@' with no offset is malformed"
    case daterange =
      "RFC 8216 4.3.2.7 puts the same-ID rule on the server; Playhead keeps every EXT-X-DATERANGE as written (warning for one without ID) and leaves merging to the application"
    case empty = "an empty file is a playlist error (issue 11); the peer returns an empty manifest"
    case extinf =
      "RFC 8216 4.3.2.1: every segment needs its EXTINF; the peer reads a URI line without one"
    case header =
      "RFC 8216 4.3.1.1: the first line must be #EXTM3U; the peer reads a playlist without it"
    case iv = "RFC 8216 4.3.2.4: IV is a hexadecimal-sequence; a placeholder text is malformed"
    case javatypo =
      "the peer test string lacks a line break (a Java concatenation), so a tag and a URI share a line and the segment has no EXTINF; the DERIVED -fixednl case checks the intent"
    case mapiv =
      "AES-128 EXT-X-MAP without IV: accepted with a warning, the IV from the media sequence as for segments (issue 11); the peer rejects it"
    case mapuri = "RFC 8216 4.3.2.5: EXT-X-MAP requires URI"
    case method =
      "Playhead keeps every key method and fails only the segments that need one it cannot decrypt, when they are played (issue 11); the peer rejects the method at parse time"
    case number =
      "RFC 8216 4.2: a decimal-integer or decimal-floating-point has no sign, letters or empty value; the peer ignores the malformed tag"
    case origin =
      "the origin rule: a playlist loaded over https may reference only http(s) (a test: scheme, a C:\\ path); the peer loads them through its own scheme handler"
    case player =
      "the peer's failure is its player's, not the playlist's (no WebCrypto, MSE cannot play the codecs or SAMPLE-AES TS, nothing playable); the text is valid HLS and Playhead parses it"
    case repeatconflict =
      "a conflicting repeat of a once-only tag is an error naming both lines (decision 0019); the peer keeps one of the values"
    case repeatsame =
      "an identical repeat of a once-only tag: RFC 8216 4.3.3 forbids the repeat, but its meaning is unambiguous, so Playhead warns naming both lines (decision 0019)"
    case seqlate =
      "EXT-X-MEDIA-SEQUENCE after the first segment: RFC 8216 4.3.3.2 says before, but the meaning is clear; Playhead applies it to every segment with a warning"
    case skipafter =
      "EXT-X-SKIP after segments applies to all of them with a warning, as for EXT-X-MEDIA-SEQUENCE"
    case steering =
      "EXT-X-CONTENT-STEERING without SERVER-URI is informational: kept as an unknown tag with a warning"
    case strict =
      "a URI line without EXTINF (RFC 8216 4.3.2.1: every segment needs one); the peer skips the junk line by default and rejects it only in its strict mode"
    case undefined =
      "RFC 8216 4.3.5.1 (8216bis 4.4.2.3): a reference to an undefined variable is an error the client must fail on; the peer leaves the placeholder"
  }

  /// The cases whose verdict differs from the peer's, with the reason.
  static let disagreements: [String: Reason] = [
    "globocom-m3u8/IPTV_PLAYLIST_WITH_CUSTOM_TAGS": .number,
    "globocom-m3u8/PLAYLIST_WITH_NEGATIVE_MEDIA_SEQUENCE": .number,
    "globocom-m3u8/PLAYLIST_WITH_TAG_MEDIA_READY": .iv,
    "globocom-m3u8/SIMPLE_PLAYLIST_MESSY": .strict,
    "globocom-m3u8/VARIANT_PLAYLIST_WITH_IFRAME_STABLE_VARIANT_ID": .header,
    "globocom-m3u8/VARIANT_PLAYLIST_WITH_STABLE_RENDITION_ID": .header,
    "globocom-m3u8/VARIANT_PLAYLIST_WITH_STABLE_VARIANT_ID": .header,
    "globocom-m3u8/WINDOWS_PLAYLIST": .origin,
    "hls.js/EXT-X-ENDLIST-must-not-appear-more-than-once": .repeatsame,
    "hls.js/EXT-X-MEDIA-SEQUENCE-must-appear-before-the-first-Media-Segment": .seqlate,
    "hls.js/errors-when-a-Media-Segment-precedes-EXT-X-SKIP-and-EXT-X-MEDIA-SEQUEN": .skipafter,
    "hls.js/propagates-the-raw-programDateTime-to-the-fragment-following-the-init-": .mapuri,
    "media3/encryptedMapTag": .javatypo,
    "media3/encryptedMapTagWithNoIvFails-fixednl": .mapiv,
    "media3/mapTag": .javatypo,
    "media3/multivariantPlaylistAttributeInheritance": .javatypo,
    "media3/mv-PLAYLIST_WITH_CONTENT_STEERING_INFO_NO_SERVER_URI": .steering,
    "media3/mv-parseMultivariantPlaylist_dependentPlaylistWithoutImport_placeholderNotSubstituted-mediaPlaylistString":
      .undefined,
    "media3/parseMediaPlaylist_withInterstitialClientDefinedAttributeInvalidUpdate_throwsIllegalArgumentException":
      .daterange,
    "media3/parseMediaPlaylist_withInterstitialStartDateInvalidUpdate_throwsIllegalArgumentException":
      .daterange,
    "media3/parseMediaPlaylist_withInterstitialTimelineAttributeChanged_throwsIllegalArgumentException":
      .daterange,
    "media3/parseMediaPlaylist_withInterstitialWithoutId_throwsParserException": .daterange,
    "media3/parseMediaPlaylist_withSkippedSegments_correctlyMergedSegments": .javatypo,
    "media3/queryParamSubstitution": .javatypo,
    "media3/variableSubstitution": .javatypo,
    "shaka/EXTINF-media": .extinf,
    "shaka/corrects-accumulated-gap-when-discontinuity-sequence-changes-master": .origin,
    "shaka/fails-on-AES-128-if-WebCrypto-APIs-are-not-available-master": .player,
    "shaka/fails-on-AES-128-if-WebCrypto-APIs-are-not-available-master-withname": .player,
    "shaka/fails-on-AES-128-if-WebCrypto-APIs-are-not-available-mediaWithMp4AesEncryption": .player,
    "shaka/fails-on-AES-256-GCM-if-IV-is-provided-mediaWithGcmEncryption": .method,
    "shaka/if-FairPlay-encryption-with-MSE-and-mp2t-content-media": .player,
    "shaka/if-SAMPLE-AES-encryption-with-MSE-and-mp2t-content-media": .player,
    "shaka/if-unable-to-guess-codecs-master": .player,
    "shaka/if-unable-to-guess-codecs-master-withname": .player,
    "shaka/if-unable-to-guess-codecs-media": .player,
    "shaka/maps-playhead-date-when-audio-and-video-start-at-different-P-master": .origin,
    "shaka/maps-playhead-date-when-audio-and-video-start-at-different-P-master-withname": .origin,
    "shaka/parses-manifest-with-audio-groups-and-variants-masterPlaylist": .bandwidth,
    "shaka/throw-error-when-all-segments-are-gap-media": .player,
    "shaka/throw-error-when-no-segments-media": .player,
    "videojs/empty": .empty,
    "videojs/emptyMediaSequence": .number,
    "videojs/extinf": .number,
    "videojs/invalidMediaSequence": .number,
    "videojs/invalidTargetDuration": .number,
    "videojs/liveMissingSegmentDuration": .extinf,
    "videojs/llhls-byte-range": .byterange,
    "videojs/manifestExtTTargetdurationNegative": .number,
    "videojs/manifestNoExtM3u": .header,
    "videojs/master": .header,
    "videojs/missingExtinf": .extinf,
    "videojs/missingSegmentDuration": .extinf,
    "videojs/multipleTargetDurations": .extinf,
    "videojs/negativeMediaSequence": .number,
    "videojs/start": .header,
    "videojs/streamInfInvalid": .header,
    "videojs/twoMediaSequences": .repeatconflict,
  ]

  /// Counts the peer's (text) expectation gives, where the peer counts what Playhead's
  /// model holds: not a delta update merged with the previous playlist (hls.js, Media3
  /// count the skipped segments), preload-hint parts Media3 counts as trailing parts,
  /// rendition reports Media3 adds for the playlist itself, or variants Media3 merges by
  /// URL — those expectations are left out.
  static let counts: [String: [String: Int]] = [
    "globocom-m3u8/LIVE_IMAGE_PLAYLIST": ["segments": 10],
    "globocom-m3u8/SIMPLE_PLAYLIST_WITH_QUOTED_TITLE": ["segments": 1],
    "globocom-m3u8/SIMPLE_PLAYLIST_WITH_RESOLUTION": ["variants": 2],
    "globocom-m3u8/SIMPLE_PLAYLIST_WITH_UNQUOTED_TITLE": ["segments": 1],
    "globocom-m3u8/VARIANT_PLAYLIST_WITH_ALT_IFRAME_PLAYLISTS_LAYOUT": ["iFrameVariants": 4],
    "globocom-m3u8/VARIANT_PLAYLIST_WITH_IFRAME_AVERAGE_BANDWIDTH": ["iFrameVariants": 4],
    "globocom-m3u8/VARIANT_PLAYLIST_WITH_IFRAME_HDCP_LEVEL": ["iFrameVariants": 4],
    "globocom-m3u8/VARIANT_PLAYLIST_WITH_IFRAME_PLAYLISTS": ["iFrameVariants": 4],
    "globocom-m3u8/VARIANT_PLAYLIST_WITH_IFRAME_VIDEO_RANGE": ["iFrameVariants": 4],
    "hls.js/allows-spaces-in-the-fragment-files": ["segments": 2],
    "hls.js/deals-with-spaces-after-fragment-files": ["segments": 2],
    "hls.js/does-not-care-about-the-attribute-order": ["variants": 1],
    "hls.js/does-not-care-about-the-attribute-order-2": ["variants": 1],
    "hls.js/does-not-care-about-the-attribute-order-3": ["variants": 1],
    "hls.js/level-with-0-frag-returns-empty-fragment-array": ["segments": 0],
    "hls.js/parse-AES-256-and-AES-256-CTR-encrypted-URLs-with-explicit-IV": ["segments": 2],
    "hls.js/parse-AES-encrypted-URLS-with-a-com-apple-streamingkeydelivery-KEYFORM": [
      "segments": 3
    ],
    "hls.js/parse-AES-encrypted-URLs-with-implicit-IV": ["segments": 3],
    "hls.js/parse-clear-enc-clear-enc-playlist": ["segments": 8],
    "hls.js/parse-fmp4-level-with-discontinuities-and-program-date-time": ["segments": 22],
    "hls.js/parse-level-with-EXT-X-BYTERANGE-after-EXTINF": ["segments": 10],
    "hls.js/parse-level-with-EXT-X-BYTERANGE-before-EXT-X-MAP-tag": ["segments": 3],
    "hls.js/parse-level-with-EXT-X-BYTERANGE-before-EXTINF": ["segments": 10],
    "hls.js/parse-level-with-EXT-X-BYTERANGE-without-offset": ["segments": 3],
    "hls.js/parse-level-with-EXT-X-KEY-after-EXTINF": ["segments": 8],
    "hls.js/parse-level-with-EXTINF-line-without-comma": ["segments": 5],
    "hls.js/parse-level-with-several-fragments": ["segments": 5],
    "hls.js/parse-level-with-single-char-fragment-URI": ["segments": 2],
    "hls.js/parse-level-with-unicode-white-space-in-fragment-URI": ["segments": 2],
    "hls.js/parses-EXT-X-I-FRAME-STREAM-INF-on-the-last-line-without-a-trailing-ne": [
      "variants": 1
    ],
    "hls.js/parses-EXTINF-without-a-leading-digit": ["segments": 1],
    "hls.js/parses-FairPlay-KEYID-from-Widevine-or-PlayReady-EXT-X-KEY-tags-when-a": [
      "segments": 1
    ],
    "hls.js/parses-correctly-EXT-X-DISCONTINUITY-SEQUENCE-and-increases-continuity": [
      "segments": 5
    ],
    "hls.js/parses-discontinuity-and-maintains-continuity-counter": ["segments": 5],
    "hls.js/parses-manifest-containing-comment": ["variants": 1],
    "hls.js/parses-manifest-with-10-levels": ["variants": 10],
    "hls.js/parses-manifest-with-EXT-X-SESSION-DATA": ["variants": 1],
    "hls.js/parses-manifest-with-EXT-X-SESSION-DATA-and-10-levels": ["variants": 10],
    "hls.js/parses-manifest-with-EXT-X-SESSION-KEYs": ["variants": 2],
    "hls.js/parses-manifest-with-one-level": ["variants": 1],
    "hls.js/parses-manifest-without-codecs": ["variants": 1],
    "hls.js/parses-playlists-with-EXT-X-PROGRAM-DATE-TIME-after-EXTINF-before-frag": [
      "segments": 3
    ],
    "hls.js/return-custom-tags-in-fragment-object": ["segments": 10],
    "media3/parseMediaPlaylist_withRenditionReportBeforeSegementsDefaultLastPart_sameLastPartIndexAsCurrentPlaylist":
      ["renditionReports": 1],
    "media3/parseMediaPlaylist_withRenditionReportBeforeSegementsDefaultMsn_sameMsnAsCurrentPlaylist":
      ["renditionReports": 1],
    "media3/parseMediaPlaylist_withRenditionReportBeforeSegements_sameMsnAndLastPartIndexAsCurrentPlaylist":
      ["renditionReports": 1],
    "media3/parseMediaPlaylist_withRenditionReportBeforeSegmentsWithoutPartTargetDurationWithoutLastMsn_sameLastMsnAsCurrentPlaylist":
      ["renditionReports": 1],
    "media3/parseMediaPlaylist_withRenditionReportLowLatencyFullSegment_rollingPartIndexUriParam": [
      "renditionReports": 1
    ],
    "media3/parseMediaPlaylist_withRenditionReportLowLatencyWithoutLastMsn_sameMsnAsCurrentPlaylist":
      ["renditionReports": 1],
    "media3/parseMediaPlaylist_withRenditionReportLowLatencyWithoutLastPartIndex_ignoredPreloadPart":
      ["renditionReports": 1],
    "media3/parseMediaPlaylist_withRenditionReportLowLatencyWithoutLastPartIndex_sameLastPartIndexAsCurrentPlaylist":
      ["renditionReports": 1],
    "media3/parseMediaPlaylist_withRenditionReportLowLatency_parseAllAttributes": [
      "renditionReports": 2
    ],
    "media3/parseMediaPlaylist_withRenditionReportWithoutPartTargetDurationWithoutLastMsn_sameLastMsnAsCurrentPlaylist":
      ["renditionReports": 1],
    "media3/parseMediaPlaylist_withRenditionReportWithoutPartTargetDuration_lastPartIndexUnset": [
      "renditionReports": 1
    ],
    "media3/parseMediaPlaylist_withSkippedSegments_correctlyMergedSegments": ["segments": 3],
    "media3/parseMediaPlaylist_withSkippedSegments_correctlyMergedSegments-previousPlaylistString":
      ["segments": 3],
    "media3/parseMediaPlaylist_withUnboundedPreloadHintTypePart_ignoresPreloadPart": [
      "trailingParts": 1
    ],
  ]

  /// How many of the 576 original (not `DERIVED`) playlists agree at least.
  static let minimumAgreeing = 522
}
