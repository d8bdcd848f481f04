import CFFmpeg
import Foundation

/// The C library heap settings that decide whether a long playback keeps memory it no
/// longer uses.
///
/// Decoded video frames (1.4 MB each at 720p, 3 MB at 1080p) and segment buffers are large
/// and short-lived, and every decoder (one per HLS discontinuity run) brings its own pool of
/// them. glibc's allocator raises its mmap threshold each time such a block is freed, so
/// later ones come from the heap arenas, whose freed pages are rarely returned: resident
/// memory then creeps up through an hour of live playback although the live heap stays flat
/// (measured in docs/soak.md). Giving blocks of `largeAllocationThresholdBytes` or more
/// their own mappings returns each to the system when it is freed.
public enum ProcessHeap {
  /// The size from which an allocation gets its own mapping: 1 MiB, below one 720p frame
  /// and above the demuxer's and the network's buffers.
  public static let largeAllocationThresholdBytes = 1 << 20

  /// Applies the threshold to the process, once; later calls return the first call's
  /// result at once.
  ///
  /// Returns false, changing nothing, when the environment sets `MALLOC_MMAP_THRESHOLD_`
  /// (the user's own choice wins) or the C library refuses the setting. The setting is
  /// process-wide; `PlayerConfiguration.mapsLargeAllocations` (default true) makes every
  /// `Player` apply it, and an application that tunes its allocator itself turns that off.
  @discardableResult
  public static func mapLargeAllocations() -> Bool { applied }

  /// The bytes of heap blocks that now live in their own mappings (glibc's `hblkhd`).
  public static var mappedBlockBytes: Int { Int(CFFmpeg_mappedHeapBytes()) }

  /// The bytes the heap holds from the system: its arenas and the blocks in their own
  /// mappings (glibc's `arena + hblkhd`), whether in use or free.
  ///
  /// A large block freed with the threshold applied leaves this where it was before the
  /// block: its mapping is returned, or it came from free space an arena already held.
  public static var footprintBytes: Int { Int(CFFmpeg_heapFootprintBytes()) }

  /// Run once, thread-safely, on first use (Swift initialises a static `let` lazily).
  private static let applied: Bool = {
    if ProcessInfo.processInfo.environment["MALLOC_MMAP_THRESHOLD_"] != nil { return false }
    return CFFmpeg_setMmapThreshold(Int32(largeAllocationThresholdBytes)) == 1
  }()
}
