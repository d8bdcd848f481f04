print("playhead")
