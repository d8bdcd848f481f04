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

    Inputs are local paths (absolute or relative) or http(s) URLs.

    Exit status:
      0  success (for play: the item played to its end)
      1  playlist: the playlist is not valid M3U8 (the error names the line)
      2  bad command line
      3  the input could not be opened or read (missing file, network, HTTP error)
      4  the media is unsupported or cannot be decoded
      130  interrupted (Ctrl-C)
    """

  /// `playhead play --help`.
  static let play = """
    Usage: playhead play <path-or-url> [options]

    Plays the media to its end, printing its lifecycle (loading, ready, playing, ended),
    a progress line on standard error and a summary of the playback statistics.

    Options:
      --fast              Play on a manual clock as fast as decoding allows
      --events            Print every player event: [  1.234s] <event> ...
      --json              Print one JSON object per event on standard output, then a
                          summary object ({"event":"summary",...}); no other output
      --rate R            Playback rate (greater than 0; default 1)
      --start S           Start at S seconds (exact seek before playing)
      --duration D        Stop after D seconds of media (at start + D)
      --no-video          Do not decode video
      --no-audio          Do not decode audio
      --snapshot FILE     Before playing, write the frame at --at T as a PNG file
      --at T              The snapshot time (required with --snapshot)
      --wav FILE          Write the played audio to a WAV file (16-bit, 48 kHz, stereo)
      --frames DIR        Write presented video frames as PNG files into DIR
      --every N           With --frames, write every N-th frame (default 1)
      --quiet             Print only errors (and --events lines when asked for)
      -h, --help          Show this help

    Times are seconds (12, 2.5) or [hh:]mm:ss[.fff] (1:30). In JSON lines, "time" is the
    item's time and "clock" the player's clock since the command started, in seconds.
    """

  /// `playhead probe --help`.
  static let probe = """
    Usage: playhead probe <path-or-url> [--json]

    Prints the container, the duration and every track of the media.

    Options:
      --json              Print one JSON object: {"container","duration","tracks":[...]};
                          each track has kind, codec, width, height, frameRate, bitRate,
                          sampleRate, channels and language, null where they do not apply
      -h, --help          Show this help
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
    """

  /// `playhead playlist --help`.
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

    A playlist loaded over http(s) may reference only http(s) URIs; a local one may also
    reference local files. Exit status: 0 parsed, 1 not a valid playlist (the error is
    printed as "line N: message"), 2 bad command line, 3 the playlist could not be loaded.
    """
}
