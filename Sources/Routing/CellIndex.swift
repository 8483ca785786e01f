/// Values by grid cell, for lookups in a search's inner loop: cells (`Int64` keys) in an
/// open-addressing table with a multiplicative hash, each cell's values in one flat array.
struct CellIndex<Value> {
    private var keys: [Int64] = []
    /// Per slot: the cell's first value in `values` and its count; count 0 for an empty slot.
    private var first: [Int32] = []
    private var count: [Int32] = []
    private(set) var values: [Value] = []
    private var mask = 0

    /// Every cell key, each once.
    private(set) var cells: [Int64] = []

    /// Builds the index of `pairs` (cell, value); a cell's values in ascending order.
    init(_ pairs: [(cell: Int64, value: Value)]) where Value: Comparable {
        var sorted = pairs
        sorted.sort { ($0.cell, $0.value) < ($1.cell, $1.value) }
        values = sorted.map(\.value)
        var starts: [(cell: Int64, first: Int32, count: Int32)] = []
        for (index, pair) in sorted.enumerated() {
            if let last = starts.last, last.cell == pair.cell {
                starts[starts.count - 1].count += 1
            } else {
                starts.append((pair.cell, Int32(index), 1))
            }
        }
        cells = starts.map(\.cell)
        var capacity = 16
        while capacity < starts.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        keys = [Int64](repeating: 0, count: capacity)
        first = [Int32](repeating: 0, count: capacity)
        count = [Int32](repeating: 0, count: capacity)
        for start in starts {
            var slot = Self.slot(start.cell, mask)
            while count[slot] > 0 { slot = (slot + 1) & mask }
            keys[slot] = start.cell
            first[slot] = start.first
            count[slot] = start.count
        }
    }

    init() {}

    private static func slot(_ key: Int64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
    }

    /// The range of `values` in `cell` (empty when it has none).
    func range(_ cell: Int64) -> Range<Int> {
        guard mask > 0 else { return 0..<0 }
        var slot = Self.slot(cell, mask)
        while count[slot] > 0 {
            if keys[slot] == cell { return Int(first[slot])..<Int(first[slot] + count[slot]) }
            slot = (slot + 1) & mask
        }
        return 0..<0
    }
}
