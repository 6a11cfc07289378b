#if canImport(SwiftUI)
import SwiftUI

extension View {
    /// `onPreferenceChange` with an action that runs on the main actor, so
    /// it may write the view's state, with every SDK: from the iOS 18.2
    /// SDK on, SwiftUI takes a `@Sendable` action there (it is called on the
    /// main thread all the same), where a view's state cannot be written
    /// directly. SwiftUI 6 (the iOS 18 SDK) comes with a standard library
    /// that has `MainActor.assumeIsolated`; older SDKs take a plain closure.
    @MainActor
    func onPreferenceChangeOnMainActor<Key: PreferenceKey>(
        _ key: Key.Type, perform action: @escaping @MainActor (Key.Value) -> Void
    ) -> some View where Key.Value: Equatable & Sendable {
        #if canImport(SwiftUI, _version: 6.0)
        onPreferenceChange(key) { value in MainActor.assumeIsolated { action(value) } }
        #else
        onPreferenceChange(key) { value in action(value) }
        #endif
    }
}
#endif
