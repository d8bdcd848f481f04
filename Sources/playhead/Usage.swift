/// The help texts, printed to standard output by `--help`.
enum Usage {
  /// `playhead --help`.
  static let tool = """
    Usage: playhead <command> [options]
           playhead <command> --help

    Plays, probes and snapshots media with the Playhead engine.

    Commands:
      play       Play a file or URL in real time (or as fast as it decodes with --fast)
      probe      Show the container, duration and tracks of a file or URL
      snapshot   Write the frame at a given time as a PNG file
      playlist   Parse an HLS playlist (M3U8) and print it, as JSON, or as written back
      manifest   Read a DASH MPD (or an M3U8) and print it checked, or as JSON
      ads        Resolve a VAST or VMAP ad document through its wrappers and print it
      catalog    Fetch a video or playlist from the video cloud's Playback API
      thumbnails Write seek thumbnails (images or sprite sheets) and their WebVTT file
      download   Download an HLS stream or a file into a folder for offline playback
      feed       Play URLs as a short-video feed with preloading; print each time to first frame
      replay     Play a session recorded with 'play --record' again, on the fast clock

    Inputs are local paths (absolute or relative) or http(s) URLs, including HLS
    playlists (.m3u8); 'play' also takes catalog:ACCOUNT/VIDEO_ID (see 'play --help').

    Log options (every command, before or after its name):
      --log-level LEVEL   Log at LEVEL and above: trace, debug, info, notice, warning,
                          error or critical (default: warning, which logs nothing in a
                          session that goes well; FFmpeg's own messages are logged only
                          when a level is asked for, with this option or -v)
      -v                  One step more verbose (repeatable): -v info (items opening and
                          ready, rendition switches, stalls), -vv debug (each ABR
                          decision with its reason, playlist loads, seeks), -vvv trace
      --log-file PATH     Append the log lines to PATH instead of standard error

    Exit status:
      0  success (for play: the item played to its end)
      1  a playlist is empty or not valid M3U8 (the error names the line), or an ad
         document is not VAST or VMAP
      2  bad command line
      3  the input could not be opened or read (missing file, network, HTTP error,
         a Playback API error)
      4  the media is unsupported or cannot be decoded
      130  interrupted (Ctrl-C)
    """

  /// `playhead replay --help`.
  static let replay = """
    Usage: playhead replay FILE [--json | --events | --quiet]

    Plays a session recorded with 'playhead play --record FILE' again: with the recorded
    run's options, on the fast clock (no window), with the recording as the only network.
    Every request gets the recorded answer and bytes after the delays they took, so the
    replay makes the same choices (renditions, stalls, seeks) and prints the same events
    every time. A request the recording lacks fails, naming it (exit status 3); so does a
    recording that is cut short or edited (the error names the line).

    Options:
      --json              Print one JSON object per event, then a summary object
      --events            Print every player event
      --quiet             Print only errors
      -h, --help          Show this help
    """

  /// `playhead play --help`.
  static let play = """
    Usage: playhead play <path-or-url> [options]
           playhead play DIR [--decrypt-key-hex HEX] [options]   (an offline download)
           playhead play --playlist FILE.json [--auto-advance] [--auto-play] [options]
           playhead play catalog:ACCOUNT/VIDEO_ID --policy-key K [catalog options] [options]

    Plays the media to its end, printing its lifecycle (loading, ready, playing, ended),
    a progress line on standard error and a summary of the playback statistics.

    With --playlist, plays a list of videos through the SDK's playback controller. FILE is
    a Playback API playlist ({"videos": [...]}) or a bare list of videos; each video's
    source is chosen by the default policy (HLS over https, HLS over http, MP4, first).
      --auto-advance      Move to the next video when one ends (or fails)
      --auto-play         Play each new session as soon as it arrives (without it only
                          the first video is played)
    Lines: sessionAdvanced (session, video, source), each lifecycle event (ready, play,
    pause, end, fail, failedToPlayToEndTime, playbackStalled, playbackRecovered,
    playbackBufferEmpty, playbackLikelyToKeepUp, bumperEnter, ...; with "error" where one
    applies), cuePoint (name, type, time), summary (QoE figures) once per session, and
    playlistComplete. --json prints them as JSON objects, --events as text; without
    either only the main ones are printed. Exit status 0 when the list played to its end,
    1 when FILE is not a valid playlist, 3 or 4 when a video failed.

    With catalog:ACCOUNT/VIDEO_ID (VIDEO_ID may be ref:REFERENCE_ID), fetches the video from
    the Playback API and plays it the same way, its bumper first when it has one. An API
    error prints its error_code and message and exits with status 3.
      --policy-key K      The account's policy key
      --auth-token T      A playback-authorization token (sent as a bearer token)
      --base-url URL      The API's base URL (default
                          https://edge.api.brightcove.com/playback/v1; a proxy domain)
      --bumper-id ID      Play this video as the bumper (a bumper_id custom field wins)
      --bumper-ref REF    The same, by reference ID
      --ad-config-id ID, --config-id ID, --param NAME=VALUE
                          Query parameters for the API request

    Options:
      --fast              Play on a manual clock as fast as decoding allows
      --events            Print every player event: [  1.234s] <event> ...
      --json              Print one JSON object per event on standard output, then a
                          summary object ({"event":"summary",...}); no other output
      --rate R            Playback rate (greater than 0; default 1)
      --start S           Start at S seconds (exact seek before playing)
      --duration D        Stop after D seconds of media from where playback starts (the
                          --start time, or a live stream's start near its edge)
      --preview S         Play only the first S seconds (a preview): ends with "preview ended",
                          seeks past S go to S
      --no-video          Do not decode video
      --no-audio          Do not decode audio
      --snapshot FILE     Before playing, write the frame at --at T as a PNG file
      --at T              The snapshot time (required with --snapshot)
      --burn-subtitles    Draw the subtitle cues at T on the snapshot (libass): the
                          --subtitles track, else the first --sub-file
      --wav FILE          Write the played audio to a WAV file (16-bit, 48 kHz, stereo)
      --audio-filter F    Audio enhancement (repeatable, or comma-separated): normalize
                          (even out loudness), dialogue=LEVEL (raise speech, 1 to 10),
                          surround (widen the stereo image)
      --audio-channel C   both (default), left or right: only that channel is heard
      --frames DIR        Write presented video frames as PNG files into DIR
      --every N           With --frames, write every N-th frame (default 1)
      --quiet             Print only errors (and --events and cue lines when asked for)
      --subtitles LANG    Show the subtitles in LANG (a BCP 47 tag: en, pt-BR): a sidecar
                          WebVTT track of a --playlist or catalog video, an HLS subtitle
                          rendition, or a text subtitle stream of the file (SubRip, ASS,
                          WebVTT, MP4 timed text). Prints 'subtitles: LABEL [LANG]',
                          then 'cue 1.000s TEXT' as each cue becomes active
                          ({"event":"cue","time","start","end","track","language","text"}
                          with --json); playback starts once the track is loaded (or
                          failed, or there is none)
      --sub-file FILE     Add a WebVTT file (path or http(s) URL) as a subtitle track, as
                          mpv does; repeatable. Its language is the tag before .vtt
                          (movie.fr.vtt: fr). Shown (and its cues printed as with
                          --subtitles) unless --subtitles LANG chooses another track; a
                          local file goes with local media only
      --audio LANG        Play the audio track in LANG (en, fra, pt-BR; ISO 639-2 codes
                          match their two-letter form): an HLS audio rendition or one of
                          the audio streams of a file (MP4, MKV). Prints 'audio: NAME
                          [LANG]' (with --json, the audioRenditionChanged line names it:
                          "audioTrack", "language", "label"); playback starts once that
                          track plays. No track in LANG: exit status 2 (audio that is not
                          tagged with a language and offers no choice plays)
      --decrypt-key-hex HEX  The key of an offline download encrypted at rest (a DIR
                          made by 'playhead download --encrypt-key-hex HEX')
      --seek-at C=T       When the session's clock has run C seconds, seek to T seconds
                          of the media (repeatable; in fast mode too, at the same clock
                          time every run); with --duration it needs --start
      --ad-tag URL        Play client-side ads: a VMAP (its breaks) or a VAST (a pre-roll),
                          told apart by content; plays through the SDK controller, prints
                          adSequenceEnter, adEnter, adExit, adError, adBeacon, ... lines
                          and adds adBreaks, adsStarted, adsCompleted, adsSkipped and
                          adErrors to the summary. With --start S no break before S plays
      --interstitials     Play an HLS stream's interstitials (RFC 8216bis App. D) as ad
                          breaks, through the SDK controller (with --ad-tag they play
                          anyway; --no-interstitials leaves them out)
      --ad-timeout MS     How long an ad tag or an ad's start may take (default 8000)
      --seek-mode M       Which mid-rolls a seek past them plays first: last (default),
                          all or none
      --ads-stitched      The --ad-tag's breaks are stitched into the stream (SSAI): each
                          tracks the HLS ad marker it lines up with instead of playing
      --record FILE       Write a session recording to FILE: every request and answer
                          with its bytes and when they came, and every event, for
                          'playhead replay FILE' (docs/recording.md). Authorization and
                          cookie headers and signed-URL parameters are left out
      --record-secrets    Keep those in the recording too
      -h, --help          Show this help
      --log-level L, -v, --log-file PATH
                          What to log, and where (see 'playhead --help')

    Content keys (DASH and fMP4 HLS sample encryption, cenc and cbcs):
      --key KID:KEY       A ClearKey content key for key ID KID, both 32 hex digits (the
                          KID may be a UUID); repeatable
      --license-url URL   A W3C ClearKey licence server for the key IDs no --key gives
                          (else the MPD's Laurl); keys by key ID also come from a
                          ContentKeyProvider in the SDK (docs/encryption.md)

    HLS and DASH options (ignored for progressive media, but for --scene):
      --max-bitrate BPS   Choose no variant above BPS bits/s (600000, 600k, 1.5M)
      --max-pixels N      Choose no variant larger than N pixels (921600 or 1280x720)
      --rendition I|auto  Play rendition I only (0 = lowest bandwidth, as 'probe' numbers
                          them), or choose automatically (default)
      --start-bandwidth BPS
                          The bandwidth assumed before any download is measured
      --scene S           short, medium, long or live: the engine's buffer presets
                          (start, resume, low/high water, maximum; see docs/abr.md);
                          the start and resume buffers apply to progressive media too

    Request options (HLS playlists, segments and keys; progressive HTTP media):
      --header 'K: V'     Send this header field (repeatable; a later one with the same
                          name replaces an earlier one)
      --referer URL       Send this Referer
      --user-agent UA     Send this User-Agent
      --timeout MS        Fail a request after MS milliseconds with no answer and no
                          byte (an idle timeout: a slow server that keeps sending does
                          not time out)
      --retries N         Retry a failed request N times (0 to 100; default 3): timeouts,
                          broken connections and 5xx answers; progressive media resumes
                          with a range request where it stopped

    Cache options:
      --cache-dir DIR     Play through a disk cache in DIR (created if needed; it must be
                          new, empty or a cache): HLS segments, keys and VOD playlists, and
                          progressive HTTP media, are stored there, and a later play takes
                          them from it without the network
      --cache-max-mb N    Keep at most N MiB in the cache (default 20480), evicting the
                          least recently used entries first

    Window options: on a desktop (DISPLAY or WAYLAND_DISPLAY set) play opens a window and
    plays the sound on the default audio device, the device's clock leading the picture;
    it exits at the end of the media. --fast, --no-video and no display play headless.
      --no-window         Play headless even on a desktop
      --window            Open a window even with --fast (no display is then an error)
      --keep-open         At the end keep the last frame up until the window is closed
      --fullscreen        Start in full screen
      --window-size WxH   The window's size in pixels (default: the video's size)
      --gravity G         fit (default, bars), fill (crop) or stretch
      --background RRGGBB The colour of the bars and of the window before the first frame
      --renderer R        auto (default: the GPU, unless its OpenGL rasterises in software,
                          as under Xvfb or in a VM; then SDL's software renderer, like mpv
                          without --gpu-sw), gpu (OpenGL even in software) or software
      --no-controls       No control bar over the picture
      --layout L          The control bar's layout: auto (default: from the media, audio-only
                          or not, on demand, live or live with a window), vod, live, dvr,
                          aod, live-audio or dvr-audio
      --compact           The layout's compact rows (times and slider above the buttons)
                          at every width, not only below 500 pixels

    The control bar (docs/ui.md) shows at the start and on any pointer move or key, and
    hides after 3 s of playback without input: play/pause, jump back 10 s, the times, a
    slider with the loaded ranges (click or drag to seek), subtitles and audio tracks,
    bitrate (streams with several renditions), live badge (click to go to live), full
    screen. A click elsewhere on the picture pauses as before.

    Keys in the window (as in mpv):
      space, p            Pause / resume (a click too; a double click toggles full screen)
      left, right         Seek back / forward 5 s
      down, up            Seek back / forward 60 s
      f                   Full screen on / off
      m                   Mute on / off
      9, 0                Volume down / up (5 % steps)
      j                   Next subtitle track, drawn on the picture (after the last: off)
      #                   Next audio track
      l, L                Output channel: both, left, right (L goes the other way)
      .                   Step one frame (pauses first)
      i                   Statistics on / off: rendition, bandwidth estimate, buffer ahead,
                          dropped frames, decoder, renderer
      q, Esc              Quit: exit status 0 and the summary (closing the window too)

    Signing options (CDN auth type A, see docs/expiry.md):
      --sign-key KEY      Sign the URL with KEY (auth_key=exp-0-0-md5hash) and re-sign any
                          URL of the stream the server refuses as expired (403, 410) or
                          whose signature has expired; each re-signing is a
                          "sourceRefreshed" event
      --sign-validity-seconds N
                          How long each signature is valid (default 3600)

    Times are seconds (12, 2.5) or [hh:]mm:ss[.fff] (1:30). In JSON lines, "time" is the
    item's time and "clock" the player's clock since the command started, in seconds.
    For streams, the progress line shows the rendition and the bandwidth estimate; JSON
    lines include "trackChanged" (index, bandwidth, width, height, codecs, uri, reason:
    initial, throughput, buffer, abandoned, manual, failover or cap), "playbackStalled",
    "playbackRecovered", "playbackBufferEmpty" and "playbackLikelyToKeepUp" events, and
    the summary has
    "averageBitrate" (bits/s, time-weighted over the renditions played; the declared bit
    rate of progressive media; null when unknown), "switchCount", "stallCount" and
    "stallSeconds".
    """

  /// `playhead probe --help`.
  static let probe = """
    Usage: playhead probe <path-or-url> [--json] [request options]

    Prints the container, the duration and every track of the media. For an HLS playlist
    it also prints whether the stream is VOD, live or DVR, its variants (the index 'play
    --rendition' takes, bandwidth, resolution, codecs, URI), its renditions (type, group,
    name, language, default, URI) and its I-frame variants; the tracks are those of the
    first segments. Last come the text and audio tracks as a playback session lists them,
    with the IDs it uses: for HLS the subtitle, closed-caption and audio renditions, for a
    file its subtitle and audio streams ('(not shown)' marks text tracks that --subtitles
    cannot show: closed captions in the video, bitmap subtitles).

    Options:
      --json              Print one JSON object: {"container","duration","tracks":[...]};
                          each track has kind, codec, width, height, frameRate, bitRate,
                          sampleRate, channels and language, null where they do not apply.
                          For HLS, also "streamKind" ("VOD", "live" or "DVR"), "variants",
                          "renditions" and "iFrameVariants". Then "textTracks" (id, kind,
                          label, language, default, forced, selectable, source, uri or
                          codec) and "audioTracks" (id, label, language, default, source,
                          uri)
      --header 'K: V'     Send this header field (repeatable)
      --referer URL       Send this Referer
      --user-agent UA     Send this User-Agent
      --timeout MS        Fail a request after MS milliseconds without an answer
      --retries N         Retry a failed playlist request N times (0 to 100)
      -h, --help          Show this help
      --log-level L, -v, --log-file PATH
                          What to log, and where (see 'playhead --help')
    """

  /// `playhead snapshot --help`.
  static let snapshot = """
    Usage: playhead snapshot <path-or-url> --at T -o FILE.png [options]

    Writes the video frame shown at time T (the latest frame at or before T) as a PNG
    file and prints "FILE (WxH)".

    Options:
      --at T              The time, in seconds (12, 2.5) or [hh:]mm:ss[.fff]
      -o, --output FILE   The PNG file to write
      --width W           Scale to W pixels wide (with --height)
      --height H          Scale to H pixels high (with --width)
      --gravity G         How the frame fits W x H: fit (default), fill or stretch
      -h, --help          Show this help
      --log-level L, -v, --log-file PATH
                          What to log, and where (see 'playhead --help')
    """

  /// `playhead catalog --help`.
  static let catalog = """
    Usage: playhead catalog video ID|ref:REF --account A --policy-key K [options]
           playhead catalog playlist ID|ref:REF --account A --policy-key K
                    [--limit N] [--offset N] [options]

    Fetches a video or a playlist from the video cloud's Playback API and prints it: the
    video's fields, sources (delivery, size, bit rate, codec, DRM key systems), text
    tracks, cue points and custom fields; or the playlist's fields and one line per video.
    Renditions the SDK cannot hold (RTMP ones, without src) are left out with a warning
    on standard error.

    Options:
      --account A         The video cloud account ID (required)
      --policy-key K      The account's policy key (or give --auth-token)
      --auth-token T      A playback-authorization token (sent as a bearer token)
      --base-url URL      The API's base URL (default
                          https://edge.api.brightcove.com/playback/v1; a proxy domain)
      --json              Print the video or playlist as JSON in the API's own shape,
                          written back through the SDK's converters
      --limit N           Playlists: return at most N videos (1 to 100)
      --offset N          Playlists: skip the first N videos
      --bumper-id ID      Fetch this bumper video too (a video's bumper_id custom field wins)
      --bumper-ref REF    The same, by reference ID
      --ad-config-id ID   Send ad_config_id=ID (server-side ad insertion)
      --config-id ID      Send config_id=ID (delivery rules)
      --param NAME=VALUE  Send this query parameter (repeatable)
      --header 'K: V'     Send this header field (repeatable)
      --timeout MS        Fail after MS milliseconds without an answer (default 10000)
      -h, --help          Show this help
      --log-level L, -v, --log-file PATH
                          What to log, and where (see 'playhead --help')

    Exit status: 0 fetched, 2 bad command line, 3 the API answered with an error (each
    error_code and message is printed), the network failed, or the answer is not a video
    or playlist.
    """

  /// `playhead thumbnails --help`.
  static let thumbnails = """
    Usage: playhead thumbnails <path-or-url> --every SECONDS --out DIR [options]

    Writes seek thumbnails of a video into DIR: the frame shown every SECONDS (the latest
    frame at or before each time, from 0 to the end), as one image per thumbnail
    (thumb-0001.jpg, ...) or as sprite sheets (sprite-001.jpg, ...), and DIR/thumbnails.vtt,
    a WebVTT thumbnails file whose cue k covers [k x SECONDS, (k+1) x SECONDS) with the
    image's name as its payload (with #xywh=x,y,w,h for a sprite tile). Players and
    Playhead's thumbnail seeking (Video.thumbnailVTTURL) read it. Prints a summary.
    Reads progressive media (MP4, MPEG-TS, WebM, ...), not HLS playlists.

    Options:
      --every SECONDS     Seconds between thumbnails (10, 2.5, 1:00; at least 0.001)
      --out DIR           The folder to write into (created if needed; files replaced)
      --sprite COLSxROWS  Sprite sheets of COLS x ROWS thumbnails (5x5; 1 to 100 each);
                          the last sheet is cut to the rows it uses
      --width W           Thumbnail width in pixels, 1 to 4096 (default 160); the height
                          keeps the aspect ratio
      --format F          jpeg (default) or png
      --quality Q         JPEG quality from 0 to 1 (default 0.85)
      --quiet             Print only errors
      --header 'K: V', --referer R, --user-agent UA, --timeout MS
                          HTTP request options, as for 'play'
      -h, --help          Show this help
      --log-level L, -v, --log-file PATH
                          What to log, and where (see 'playhead --help')

    Exit status: 0 when every file was written, 2 for a bad command line (or more than
    100000 thumbnails), 3 when the input cannot be read or a file cannot be written, 4
    when the input is not a video that decodes.
    """

  /// `playhead playlist --help`.
  static let manifest = """
    Usage: playhead manifest <path-or-url> [--json]

    Reads a DASH MPD and prints it checked: its type and timing, each Period with its
    adaptation sets (content type, language, trick mode, protection) and representations
    (bandwidth, size, codecs, addressing, and a static Period's segment count). An HLS
    playlist (its first line #EXTM3U) is printed as 'playhead playlist' does.

    Options:
      --json              Print one JSON object instead (schema: docs/dash.md)
      -h, --help          Show this help
      --log-level L, -v, --log-file PATH
                          What to log, and where (see 'playhead --help')

    An MPD loaded over http(s) may reference only http(s) URLs. Exit status: 0 read, 1 not
    a valid MPD (the error names the element: "MPD/Period[2]/@start: ..."), 2 bad command
    line, 3 the MPD could not be loaded.
    """

  static let playlist = """
    Usage: playhead playlist <path-or-url> [--json | --write]

    Parses an HLS playlist (master or media) and prints a summary: its kind, segments or
    variants and renditions, encryption, and the warnings for recoverable oddities.

    Options:
      --json              Print one JSON object instead (schema: docs/hls-playlists.md):
                          kind, version, warnings, and the segments (media) or the
                          variants, renditions and session data (master)
      --write             Print the playlist as Playhead writes it (warnings go to
                          standard error)
      -h, --help          Show this help
      --log-level L, -v, --log-file PATH
                          What to log, and where (see 'playhead --help')

    A playlist loaded over http(s) may reference only http(s) URIs; a local one may also
    reference local files. Exit status: 0 parsed, 1 not a valid playlist or an empty one
    (the error is printed as "line N: message"), 2 bad command line, 3 the playlist could
    not be loaded.
    """

  /// `playhead ads --help`.
  static let ads = """
    Usage: playhead ads <path-or-url> [--json] [--max-wrappers N] [--timeout-ms MS]

    Loads a VAST (2.0 to 4.3) or VMAP 1.0 document, told apart by its root element, follows
    every wrapper chain and prints the breaks (offset, type, id, source, tracking), the ads
    in play order (sequence, duration, skip offset, the media file Playhead would play,
    tracking counts, impressions) with every wrapper's tracking merged in, stand-alone
    fallbacks, and each failure with its IAB VAST error code and the error URLs to ping.

    Options:
      --json              Print one JSON object instead (schema: docs/ads.md)
      --max-wrappers N    Follow at most N wrappers per chain (0 to 20, default 5); the
                          next one fails with error 302
      --timeout-ms MS     Give each request of a chain MS milliseconds (default 5000); a
                          slower one fails with error 301
      -h, --help          Show this help
      --log-level L, -v, --log-file PATH
                          What to log, and where (see 'playhead --help')

    A document loaded over http(s) may lead only to http(s) URLs. Nothing is pinged.
    Exit status: 0 resolved (ad failures are printed, not fatal), 1 not a VAST or VMAP
    document (not XML, wrong root, unsupported version), 2 bad command line, 3 the
    document could not be loaded.
    """

  /// `playhead download --help`.
  static let download = """
    Usage: playhead download <url> --out DIR [options]

    Downloads an HLS stream (one variant with its audio and subtitle renditions, keys and
    initialisation sections) or a progressive file into DIR for offline playback, with a
    progress bar on standard error. Running the same command again into the same DIR
    resumes it: finished files are kept and the partial one continues where it stopped.
    The download is complete only when every file is on disk with its expected length;
    then 'playhead play DIR' plays it with no network. See docs/offline.md.

    Options:
      --out DIR, -o DIR   The folder to fill (new or empty; or one this command filled)
      --rendition N       The variant to download (index in the master playlist)
      --max-bitrate BPS   The highest variant whose BANDWIDTH is at most BPS
                          (default: the highest variant)
      --audio LANG        The audio rendition in LANG (default: the group's default)
      --subtitles LANG    Also download the subtitle rendition in LANG
      --encrypt-key-hex HEX  Encrypt the media at rest with this 16-byte key (32 hex
                          digits); play it with 'playhead play DIR --decrypt-key-hex HEX'
      --key KID:KEY, --license-url URL
                          Content keys of a protected DASH source (as for 'play'): the
                          download keeps them (content-keys.json) and plays offline
      --json              Print JSON lines (prepared, progress, processing, completed,
                          failed) instead of the progress bar
      --quiet             Print errors only
      --header 'Name: value', --referer URL, --user-agent TEXT, --timeout MS, --retries N
                          HTTP settings (retries apply to each file)
      --sign-key KEY      Sign the URL with KEY (CDN auth type A) and re-sign any playlist,
                          file or resumed range refused as expired (403, 410) or whose
                          signature has expired; a resume re-signs the stored URLs
      --sign-validity-seconds N
                          How long each signature is valid (default 3600)
      --log-level L, -v, --log-file PATH
                          What to log, and where (see 'playhead --help')

    Exit status: 0 when the download is complete; 2 for a bad command line or a DIR that
    holds something else; 3 when the source fails (the files so far are kept: run the
    command again to resume); 4 for media that cannot be downloaded (live or DRM streams).
    """

  /// `playhead feed --help`.
  static let feed = """
    Usage: playhead feed <url>... [options]

    Plays the URLs as a feed of short videos through a list player, in real time: each
    item plays until its first frame and then for --watch-seconds, then the feed moves to
    the next. Meanwhile the items ahead are preloaded into the disk cache, so that their
    first frame comes sooner. Prints one line per item with its time to first frame (on
    the player's clock, from the move to the first presented frame).

    Options:
      --preload-next N        Items ahead to preload (default 1; 0 to 100)
      --preload-prev N        Items behind to preload (default 0)
      --preload-ms MS         Base preload duration in milliseconds (default 1000)
      --dynamic-offset-ms MS  Dynamic preload: each step further away preloads MS less
      --no-preload            Preload nothing (the comparison run of the benchmark)
      --watch-seconds S       Seconds each item plays after its first frame (default 2)
      --cache-dir DIR         The disk cache (default: a fresh temporary one, deleted at
                              the end); --cache-max-mb N caps it
      --json                  One JSON object per item: event, index, uid, url, ttffMs,
                              preloadedMs (null when the preload had not completed),
                              startBandwidth
      --log-level L, -v, --log-file PATH
                              What to log, and where (see 'playhead --help')

    Exit status: 0 when every item showed its first frame, 2 for a bad command line, 3
    when an item failed (each failure is printed; the feed goes on).
    """
}
