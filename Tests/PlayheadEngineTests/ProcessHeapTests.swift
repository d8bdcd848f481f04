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
  func testAPlayer_keepsAFreedLargeBlockFromGrowingTheHeap() throws {
    let player = Player(configuration: .fast())
    defer { player.close() }
    XCTAssertTrue(ProcessHeap.mapLargeAllocations(), "the heap setting was not applied")
    XCTAssertLessThan(ProcessHeap.largeAllocationThresholdBytes, 1280 * 720 * 3 / 2)
    // Left to itself, glibc raises its mmap threshold past every mapped block it frees (up
    // to 32 MiB), so after a 30 MiB block is freed a 20 MiB one would come from the top of
    // the heap and stay there once freed (its trim threshold rises with it): the heap
    // would hold 20 MiB more. With the threshold fixed the block gets a mapping of its
    // own, returned when it is freed; in a process whose arenas already hold that much
    // free space (after earlier tests), the block comes from it and the heap does not
    // grow either.
    let size = 20 << 20
    free(malloc(30 << 20))
    let before = ProcessHeap.footprintBytes
    let mappedBefore = ProcessHeap.mappedBlockBytes
    let block = try XCTUnwrap(malloc(size))
    memset(block, 1, 4096)
    let grewWhileHeld = ProcessHeap.footprintBytes - before
    let mappedWhileHeld = ProcessHeap.mappedBlockBytes - mappedBefore
    free(block)
    let grewAfterwards = ProcessHeap.footprintBytes - before
    // Other threads (players of earlier tests winding down) may map or unmap a frame
    // meanwhile; that moves the sums by a few MB, never by the block's 20 MiB.
    if grewWhileHeld > size / 2 {
      XCTAssertGreaterThan(mappedWhileHeld, size / 2, "a 20 MiB block grew the heap's arena")
    }
    XCTAssertLessThan(grewAfterwards, size / 2, "freeing a 20 MiB block left the heap larger")
  }
}
