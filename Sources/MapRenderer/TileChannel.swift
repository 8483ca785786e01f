import Foundation
import GeoCore

/// Hands block indices to workers and finished blocks back to the caller, bounded, keeping
/// the first error.
final class TileChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let capacity: Int
    private var nextIndex = 0
    private var delivered = 0
    private var finished: [(Int, [RenderedTile])] = []
    private var error: (any Error)?

    init(count: Int, capacity: Int) {
        self.count = count
        self.capacity = max(capacity, 1)
    }

    /// The next block to render, once there is room for its result; nil when every block is
    /// taken or the job failed.
    func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while error == nil, nextIndex < count, nextIndex - delivered >= capacity { condition.wait() }
        guard error == nil, nextIndex < count else { return nil }
        defer { nextIndex += 1 }
        return nextIndex
    }

    func put(_ index: Int, _ tiles: [RenderedTile]) {
        condition.lock()
        finished.append((index, tiles))
        condition.broadcast()
        condition.unlock()
    }

    func fail(_ error: any Error) {
        condition.lock()
        if self.error == nil { self.error = error }
        condition.broadcast()
        condition.unlock()
    }

    /// The next finished block, waiting for one; nil once all are delivered.
    func receive() throws -> (Int, [RenderedTile])? {
        condition.lock()
        defer { condition.unlock() }
        while error == nil, finished.isEmpty, delivered < count { condition.wait() }
        if let error { throw error }
        guard !finished.isEmpty else { return nil }
        delivered += 1
        condition.broadcast()
        return finished.removeFirst()
    }
}
