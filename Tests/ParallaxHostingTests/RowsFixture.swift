import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout

/// The loading-plan suites' shared setting: 1,000 rows of 400 × 100 in a
/// 400 × 800 viewport (row `i` spans `100 i ..< 100 i + 100`), each showing
/// photo `i` at one thumbnail size.
protocol RowsFixture {}

enum RowsFixtureStorage {
    static let rows = try! GridLayout(
        configuration: GridConfiguration(preferredItemSize: CGSize(width: 4, height: 1), margins: .zero,
                                         spacing: .zero, columns: .fixed(1)),
        itemCount: 1000, containerSize: CGSize(width: 400, height: 800))
    static let size = try! ThumbnailSize(width: 40, height: 10)
}

extension RowsFixture {
    var rows: GridLayout { RowsFixtureStorage.rows }
    var size: ThumbnailSize { RowsFixtureStorage.size }

    func key(_ item: Int) -> ThumbnailKey { ThumbnailKey(id: ImageID("photo-\(item).jpg"), size: size) }
    func thumbnail(_ index: ItemIndex, _ frame: CGRect) -> ThumbnailKey? { key(index.item) }
    func rect(_ offset: CGFloat) -> CGRect { CGRect(x: 0, y: offset, width: 400, height: 800) }
    func entries(_ plan: LoadPlan?, _ range: LoadPriority.Range) -> [ThumbnailKey] {
        (plan?.entries ?? []).filter { $0.priority.range == range }.map(\.key)
    }
}
