import Foundation
import PlayheadEngine
import PlayheadMedia
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// A player makes large blocks (decoded frames, segment buffers) live in their own
/// mappings, so that freeing one gives its memory back instead of leaving it in an arena.
final class ProcessHeapTests: XCTestCase {
  func testAPlayerMakesLargeBlocksTheirOwnMappings() throws {
    let player = Player(configuration: .fast())
    defer { player.close() }
    XCTAssertTrue(ProcessHeap.mapLargeAllocations(), "the heap setting was not applied")
    XCTAssertLessThan(ProcessHeap.largeAllocationThresholdBytes, 1280 * 720 * 3 / 2)
    // Left to itself, glibc raises its mmap threshold past every mapped block it frees (up
    // to 32 MiB), so after a 30 MiB block is freed a 20 MiB one would come from the heap.
    // With the threshold fixed it gets a mapping of its own, however the arenas stand
    // (their free space is trimmed back to 128 KiB, far below the block).
    let size = 20 << 20
    free(malloc(30 << 20))
    let before = ProcessHeap.mappedBlockBytes
    let block = try XCTUnwrap(malloc(size))
    memset(block, 1, 4096)
    let during = ProcessHeap.mappedBlockBytes
    free(block)
    let after = ProcessHeap.mappedBlockBytes
    // Other threads (players of earlier tests winding down) may map or unmap a frame
    // meanwhile; that moves the sums by a few MB, never by the block's 20 MiB.
    XCTAssertGreaterThan(during - before, size / 2, "a 20 MiB block did not get its own mapping")
    XCTAssertLessThan(after, during - size / 2, "freeing the block did not return its mapping")
  }
}
