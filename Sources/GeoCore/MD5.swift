import Foundation

/// MD5 (RFC 1321), fed piece by piece: the checksum download sites publish beside their files
/// (Geofabrik's `.osm.pbf.md5`). For telling a damaged or cut download, not for security.
public struct MD5: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
    /// Bytes not yet making a whole 64-byte block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// A checksum of nothing yet.
    public init() {}

    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14,
        20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6,
        10, 15, 21,
    ]

    /// ⌊2³² × |sin(i + 1)|⌋ for i in 0..<64.
    private static let constants: [UInt32] = (0..<64).map {
        UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296))
    }

    /// Adds `bytes` to what is summed.
    public mutating func update(_ bytes: [UInt8]) {
        length &+= UInt64(bytes.count)
        var start = 0
        if !pending.isEmpty {
            let taken = min(64 - pending.count, bytes.count)
            pending += bytes[0..<taken]
            start = taken
            guard pending.count == 64 else { return }
            compress(pending[...])
            pending.removeAll(keepingCapacity: true)
        }
        while start + 64 <= bytes.count {
            compress(bytes[start..<start + 64])
            start += 64
        }
        pending += bytes[start...]
    }

    /// The checksum of everything added, as 32 lowercase hexadecimal digits.
    public func hex() -> String {
        var copy = self
        let bits = length &* 8
        copy.pending.append(0x80)
        while copy.pending.count % 64 != 56 { copy.pending.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) {
            copy.pending.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        let tail = copy.pending
        for start in stride(from: 0, to: tail.count, by: 64) { copy.compress(tail[start..<start + 64]) }
        let words = [copy.state.0, copy.state.1, copy.state.2, copy.state.3]
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(8 * $0)) } }
            .map { String(format: "%02x", $0) }.joined()
    }

    private mutating func compress(_ block: ArraySlice<UInt8>) {
        var words = [UInt32](repeating: 0, count: 16)
        let base = block.startIndex
        for index in 0..<16 {
            let at = base + index * 4
            words[index] =
                UInt32(block[at]) | UInt32(block[at + 1]) << 8 | UInt32(block[at + 2]) << 16 | UInt32(block[at + 3])
                << 24
        }
        var (a, b, c, d) = state
        for step in 0..<64 {
            var f: UInt32
            let g: Int
            switch step {
            case 0..<16:
                f = (b & c) | (~b & d)
                g = step
            case 16..<32:
                f = (d & b) | (~d & c)
                g = (5 * step + 1) % 16
            case 32..<48:
                f = b ^ c ^ d
                g = (3 * step + 5) % 16
            default:
                f = c ^ (b | ~d)
                g = (7 * step) % 16
            }
            f = f &+ a &+ Self.constants[step] &+ words[g]
            a = d
            d = c
            c = b
            b = b &+ (f << Self.shifts[step] | f >> (32 - Self.shifts[step]))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
