/// A sleep on `clock`, as a closure: `Clock.sleep(for:)` is newer than the
/// iOS 16 SDK, and an existential `any Clock<Duration>` cannot call it
/// there, so this sleeps until a deadline on the clock's own type.
func sleeper<C: Clock>(on clock: C) -> @Sendable (Duration) async throws -> Void where C.Duration == Duration {
    { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
}
