/// Values by grid cell, for lookups in a search's inner loop: cells (`Int64` keys) in an
/// open-addressing table with a multiplicative hash, each cell's values in one flat array.
struct CellIndex<Value> {
    /// A slot of the table: its cell, and the cell's first value in `values` and their count
    /// (0 for an empty slot), together so that a probe reads one cache line.
    private struct Slot {
        var key: Int64 = 0
        var first: Int32 = 0
        var count: Int32 = 0
    }

    private var slots: [Slot] = []
    private(set) var values: [Value] = []
    private var mask = 0
    /// 64 less the table's bits: the product's top bits pick the slot.
    private var shift: UInt64 = 63

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
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        slots = [Slot](repeating: Slot(), count: capacity)
        for start in starts {
            var slot = Self.slot(start.cell, shift)
            while slots[slot].count > 0 { slot = (slot + 1) & mask }
            slots[slot] = Slot(key: start.cell, first: start.first, count: start.count)
        }
    }

    init() {}

    /// Fibonacci hashing: the top bits of the key times 2⁶⁴ over the golden ratio, which every
    /// bit of the key (the row's high half and the column's low half) moves.
    private static func slot(_ key: Int64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The range of `values` in `cell` (empty when it has none).
    func range(_ cell: Int64) -> Range<Int> {
        guard mask > 0 else { return 0..<0 }
        var index = Self.slot(cell, shift)
        while true {
            let slot = slots[index]
            guard slot.count > 0 else { return 0..<0 }
            if slot.key == cell { return Int(slot.first)..<Int(slot.first + slot.count) }
            index = (index + 1) & mask
        }
    }
}
