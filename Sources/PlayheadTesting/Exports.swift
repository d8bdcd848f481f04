// `SessionRecording` and `ReplayingNetwork`, the replay half of record & replay, are defined in
// PlayheadNet so that `playhead replay` uses them without linking this test kit; importing
// PlayheadTesting brings them, with the rest of the network layer its fakes plug into.
@_exported import PlayheadNet
