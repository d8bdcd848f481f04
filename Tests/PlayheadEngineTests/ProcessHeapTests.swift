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
    // Left to itself, glibc raises its mmap threshold past every block it frees, so after a
    // 4 MiB block is freed a 1.5 MB one would come from the heap arena.
    free(malloc(4 << 20))
    let before = ProcessHeap.mappedBlockBytes
    let block = try XCTUnwrap(malloc(1_500_000))
    memset(block, 1, 1_500_000)
    let during = ProcessHeap.mappedBlockBytes
    free(block)
    let after = ProcessHeap.mappedBlockBytes
    XCTAssertGreaterThanOrEqual(
      during - before, 1_500_000, "a 1.5 MB block did not get its own mapping")
    XCTAssertLessThanOrEqual(after, before, "freeing the block did not return its mapping")
  }

  func testSmallBlocksStayInTheHeap() {
    _ = Player(configuration: .fast())
    let before = ProcessHeap.mappedBlockBytes
    let block = malloc(64 * 1024)
    let during = ProcessHeap.mappedBlockBytes
    free(block)
    XCTAssertEqual(during, before, "a 64 KiB block should not be mapped on its own")
    XCTAssertLessThan(ProcessHeap.largeAllocationThresholdBytes, 1280 * 720 * 3 / 2)
  }
}
