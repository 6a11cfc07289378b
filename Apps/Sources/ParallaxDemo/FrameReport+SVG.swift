import Foundation

extension FrameReport {
    /// An SVG picture of the viewport: every visible item as a solid frame,
    /// and its content (the image view) as a tinted, dashed rectangle showing
    /// the overscan and where parallax has moved it. The content is clipped
    /// to its item, as on screen, and drawn once more unclipped and faint so
    /// the hidden overscan is visible too.
    package func svg(scale: Double = 0.5) -> String {
        let width = viewport.width * scale, height = viewport.height * scale
        func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ style: String) -> String {
            String(format: "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" %@/>",
                   x * scale, y * scale, w * scale, h * scale, style)
        }
        var lines = [
            String(format: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.2f %.2f\">",
                   width, height, width, height),
            "<rect width=\"100%\" height=\"100%\" fill=\"#10131a\"/>",
        ]
        for (n, row) in items.enumerated() {
            let x = row.frame.x - viewport.x, y = row.frame.y - viewport.y
            let hue = (n * 47) % 360
            let clip = "clip\(n)"
            lines.append("<clipPath id=\"\(clip)\">" + rect(x, y, row.frame.width, row.frame.height, "") + "</clipPath>")
            let content = (x + row.contentFrame.x, y + row.contentFrame.y, row.contentFrame.width, row.contentFrame.height)
            lines.append(rect(content.0, content.1, content.2, content.3,
                              "fill=\"hsl(\(hue),55%,45%)\" fill-opacity=\"0.18\" stroke=\"hsl(\(hue),70%,70%)\" stroke-dasharray=\"4 3\" stroke-width=\"1\""))
            lines.append("<g clip-path=\"url(#\(clip))\">"
                + rect(content.0, content.1, content.2, content.3, "fill=\"hsl(\(hue),55%,45%)\"")
                + String(format: "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"white\" stroke-width=\"1.5\"/>",
                         content.0 * scale, (content.1 + content.3 / 2) * scale,
                         (content.0 + content.2) * scale, (content.1 + content.3 / 2) * scale)
                + "</g>")
            lines.append(rect(x, y, row.frame.width, row.frame.height, "fill=\"none\" stroke=\"white\" stroke-width=\"1\""))
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n")
    }
}
