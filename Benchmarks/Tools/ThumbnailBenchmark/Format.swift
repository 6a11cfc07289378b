#if os(Linux)
import Foundation

/// Number formatting shared by the report and the console output.
enum Format {
    /// Milliseconds without unit: 2 decimals under 10, 1 under 1,000, then whole and grouped.
    static func ms(_ value: Double) -> String {
        if value < 10 { return String(format: "%.2f", value) }
        if value < 1_000 { return String(format: "%.1f", value) }
        return grouped(Int(value.rounded()))
    }

    static func milliseconds(_ value: Double) -> String { "\(ms(value)) ms" }

    static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }

    static func rate(_ value: Double) -> String { value < 1_000 ? String(format: "%.1f", value) : grouped(Int(value.rounded())) }

    /// KiB as MiB, one decimal.
    static func mebibytes(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }

    /// dB, one decimal; "∞" for identical images.
    static func decibels(_ value: Double) -> String { value.isFinite ? String(format: "%.1f", value) : "∞" }

    static func megapixels(_ value: Double) -> String { String(format: "%.1f", value) }

    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// A table cell for a program that was not measured.
    static func unmeasured(_ result: ProcessResult) -> String {
        switch result {
        case .measured: return "measured"
        case .missing: return "MISSING"
        case .failed: return "FAILED"
        }
    }

    /// Wall ms per photo of a process, or why there is none.
    static func wallPerPhoto(_ result: ProcessResult) -> String {
        result.figures.map { ms($0.wallMillisecondsPerPhoto) } ?? unmeasured(result)
    }

    /// CPU ms per photo of a process, or why there is none.
    static func cpuPerPhoto(_ result: ProcessResult) -> String {
        result.figures.map { ms($0.cpuMillisecondsPerPhoto) } ?? unmeasured(result)
    }

    /// "12.3 ms/photo, 45.6 MiB", or why there is nothing to show.
    static func summary(_ result: ProcessResult) -> String {
        result.figures.map { "\(ms($0.wallMillisecondsPerPhoto)) ms/photo, \(mebibytes($0.peakResidentKiB)) MiB" }
            ?? unmeasured(result)
    }

    /// Peak resident memory of a process with its unit, or why there is none.
    static func peakWithUnit(_ result: ProcessResult) -> String {
        result.figures.map { "\(mebibytes($0.peakResidentKiB)) MiB" } ?? unmeasured(result)
    }

    /// Peak resident MiB of a process (number only), or why there is none.
    static func peak(_ result: ProcessResult) -> String {
        result.figures.map { mebibytes($0.peakResidentKiB) } ?? unmeasured(result)
    }
}
#endif
