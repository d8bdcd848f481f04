import Foundation
import PlayheadMedia

/// A least-recently-used cache of decoded images by URL, holding at most `capacity`.
///
/// Not thread-safe: the loader uses it under its own lock.
struct ThumbnailImageCache {
  let capacity: Int
  /// Most recently used last.
  private var order: [URL] = []
  private var images: [URL: RGBAImage] = [:]

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  /// The cached image for `url`, which becomes the most recently used.
  mutating func image(for url: URL) -> RGBAImage? {
    guard let image = images[url] else { return nil }
    touch(url)
    return image
  }

  /// Caches `image` for `url` as the most recently used, evicting the least recently used
  /// beyond the capacity.
  mutating func insert(_ image: RGBAImage, for url: URL) {
    guard capacity > 0 else { return }
    images[url] = image
    touch(url)
    while order.count > capacity {
      images[order.removeFirst()] = nil
    }
  }

  mutating func removeAll() {
    order.removeAll()
    images.removeAll()
  }

  /// The cached URLs, most recently used first.
  var urls: [URL] { order.reversed() }

  private mutating func touch(_ url: URL) {
    if let index = order.firstIndex(of: url) { order.remove(at: index) }
    order.append(url)
  }
}
