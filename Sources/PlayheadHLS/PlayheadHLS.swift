// PlayheadHLS: the M3U8 model, parser and writer (RFC 8216 and its successor draft).
