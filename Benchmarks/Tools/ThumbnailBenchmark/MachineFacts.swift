#if os(Linux)
import Foundation
import Glibc

/// The machine a run was made on, as the other sections of BENCHMARKS.md
/// list it (scripts/bench-report.py), plus the libvips version.
enum MachineFacts {
    /// Label and value pairs, in report order.
    static func collect(vips: VipsThumbnail?) -> [(label: String, value: String)] {
        [
            ("System", ChildProcess.outputOf("uname", "-srm") ?? "unknown"),
            ("CPUs", ChildProcess.outputOf("nproc") ?? String(sysconf(Int32(_SC_NPROCESSORS_ONLN)))),
            ("CPU model", cpuModel()),
            ("Memory", totalMemory()),
            ("Toolchain", swiftVersion()),
            ("libvips", vips?.version ?? "not installed"),
        ]
    }

    private static func cpuModel() -> String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        for line in cpuinfo.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            if ["model name", "Hardware", "cpu model", "Processor"].contains(key), !value.isEmpty { return value }
        }
        return "unknown"
    }

    private static func totalMemory() -> String {
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        for line in meminfo.split(separator: "\n") where line.hasPrefix("MemTotal:") {
            if let kib = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap({ Double($0) }) {
                return String(format: "%.1f GiB", kib / 1024 / 1024)
            }
        }
        return "unknown"
    }

    /// The "Swift version …" line of `swift --version`, if a toolchain is on `PATH`.
    private static func swiftVersion() -> String {
        guard let output = ChildProcess.outputOf("swift", "--version") else { return "unknown" }
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.first { $0.contains("Swift version") } ?? lines.first ?? "unknown"
    }
}
#endif
