import Foundation

/// How long ago this process started: the clock a launch is measured on,
/// so a "first screen" time includes loading the program, not only what
/// follows `main`.
///
/// Linux gives a process's start in `/proc/self/stat` (field 22, clock
/// ticks since boot) and the time since boot by `CLOCK_BOOTTIME`; their
/// difference is the age, to a tick (10 ms at the usual 100 Hz, always
/// rounded up: 5 ms too long on average). A script that launches the
/// process can say when it did on the same clock, to the microsecond
/// (``seconds(sinceBootTime:)``). `nil` where there is no `/proc`.
enum ProcessAge {
    /// Seconds since `launch`, a time on `CLOCK_BOOTTIME` (seconds since
    /// boot, as Python's `time.clock_gettime(time.CLOCK_BOOTTIME)` reads it
    /// before starting this process); `nil` without that clock, or for a
    /// `launch` that is not in the past.
    static func seconds(sinceBootTime launch: Double) -> Double? {
        #if os(Linux)
        var now = timespec()
        guard launch.isFinite, clock_gettime(CLOCK_BOOTTIME, &now) == 0 else { return nil }
        let age = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - launch
        return age >= 0 ? age : nil
        #else
        return nil
        #endif
    }

    static func seconds() -> Double? {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces): state is field 3, starttime field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        var now = timespec()
        guard hertz > 0, clock_gettime(CLOCK_BOOTTIME, &now) == 0 else { return nil }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - ticks / hertz
        #else
        return nil
        #endif
    }
}
