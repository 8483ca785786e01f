import Foundation

/// A fixed number of threads running the jobs given to them in the order given, each job on
/// the next thread free.
final class WorkerPool: @unchecked Sendable {
    /// Each worker's stack: 8 MiB, as a process's main thread has (rendering recurses deeply).
    static let stackSize = 8 << 20

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    /// The index of the next job to run in `jobs` (run ones are dropped in batches).
    private var next = 0
    private var running = 0
    private var stopped = false
    private var alive = 0

    /// Starts `threads` threads (at least 1).
    init(threads: Int) {
        for number in 0..<max(threads, 1) {
            let thread = Thread { [self] in work() }
            thread.name = "openmaps-worker-\(number + 1)"
            thread.stackSize = Self.stackSize
            alive += 1
            thread.start()
        }
    }

    /// Runs `job` on the next free worker.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Waits until every job given so far has run.
    func drain() {
        condition.withLock {
            while next < jobs.count || running > 0 { condition.wait() }
        }
    }

    /// Lets the workers end once the jobs given so far have run, and waits for them.
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
            while alive > 0 { condition.wait() }
        }
    }

    /// A worker's loop: the next job, until stopped with none left.
    private func work() {
        condition.lock()
        while true {
            while next == jobs.count && !stopped { condition.wait() }
            if next == jobs.count {
                alive -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            } else if next >= 1_024 && next * 2 >= jobs.count {
                // Under steady load the list is never empty: drop the jobs run.
                jobs.removeFirst(next)
                next = 0
            }
            running += 1
            condition.unlock()
            job()
            condition.lock()
            running -= 1
            if running == 0 && next == jobs.count { condition.broadcast() }
        }
    }
}
