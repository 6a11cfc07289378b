import ArgumentParser
import ParallaxGallery

// The gallery's named choices as the parser reads them: by their raw values,
// which the parser also lists in the help text (“values: grid, list, …”) and
// in a refusal (“Please provide one of 'grid', 'list', …”), from `allCases`,
// so no command spells a choice out again.

extension GalleryLayout: ExpressibleByArgument {}

extension GalleryEffect: ExpressibleByArgument {}

extension PhotoSort: ExpressibleByArgument {}

extension PhotoGrouping: ExpressibleByArgument {}

extension LatencyPreset: ExpressibleByArgument {
    /// The delay each first download gets, in words (`0–2 s`), from
    /// ``LatencyPreset/range``: the parser shows it beside each value's name
    /// in the help text.
    package var defaultValueDescription: String {
        func seconds(_ duration: Duration) -> String {
            let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return value.rounded() == value ? String(Int(value)) : String(value)
        }
        guard range.upperBound > .zero else { return "no delay" }
        return "\(seconds(range.lowerBound))–\(seconds(range.upperBound)) s per photo"
    }
}
