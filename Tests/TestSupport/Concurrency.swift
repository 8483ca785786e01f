import Foundation

/// Booleans written from several threads, for tests that ask many at once.
public final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Bool]

    public init(count: Int) { values = Array(repeating: false, count: count) }

    public func set(_ index: Int, _ value: Bool) { lock.withLock { values[index] = value } }

    public var all: [Bool] { lock.withLock { values } }
}

/// A count incremented from several threads.
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    public init() {}

    public func add() { lock.withLock { count += 1 } }

    public var value: Int { lock.withLock { count } }
}
