import FolioModel

/// A replayable list of drawing commands with the size they occupy.
///
/// Charts lay out once into a `Drawing`; the same commands then reach the SVG
/// canvas and the Cairo canvas.
package struct Drawing: Sendable, Hashable {
    /// One recorded canvas call.
    package enum Command: Sendable, Hashable {
        case fill(Path, Color)
        case stroke(Path, StrokeStyle)
        case line(Point, Point, StrokeStyle)
        case rect(Rect, Color)
        case arc(center: Point, radius: Double, start: Double, end: Double, StrokeStyle)
        case text(TextItem)
        case image(ImageData, Rect)
        case beginGroup
        case endGroup
        case beginClip(Rect)
        case endClip
    }

    /// The drawing's size in points.
    package var size: Size
    /// The drawing commands, in order.
    package var commands: [Command]
    /// A text alternative describing what the drawing shows.
    package var description: String

    /// A drawing of `size` with `commands` and a text `description` for assistive technology.
    package init(size: Size, commands: [Command] = [], description: String = "") {
        self.size = size
        self.commands = commands
        self.description = description
    }

    /// Sends every command, in order, to `canvas`.
    package func replay(on canvas: Canvas) {
        for command in commands { command.replay(on: canvas) }
    }
}

extension Drawing.Command {
    /// Sends this command to `canvas`.
    package func replay(on canvas: Canvas) {
        switch self {
        case .fill(let path, let color): canvas.fill(path, color: color)
        case .stroke(let path, let style): canvas.stroke(path, style: style)
        case .line(let a, let b, let style): canvas.line(from: a, to: b, style: style)
        case .rect(let rect, let color): canvas.rect(rect, color: color)
        case .arc(let center, let radius, let start, let end, let style):
            canvas.arc(center: center, radius: radius, start: start, end: end, style: style)
        case .text(let item): canvas.draw(text: item)
        case .image(let image, let rect): canvas.draw(image: image, in: rect)
        case .beginGroup: canvas.beginGroup()
        case .endGroup: canvas.endGroup()
        case .beginClip(let rect): canvas.beginClip(rect)
        case .endClip: canvas.endClip()
        }
    }
}

/// A canvas that records calls into a `Drawing`.
package final class RecordingCanvas: Canvas {
    /// The commands recorded so far.
    package private(set) var commands: [Drawing.Command] = []

    /// An empty recording.
    package init() {}

    /// Records a fill.
    package func fill(_ path: Path, color: Color) { commands.append(.fill(path, color)) }
    /// Records a stroke.
    package func stroke(_ path: Path, style: StrokeStyle) { commands.append(.stroke(path, style)) }
    /// Records a line.
    package func line(from a: Point, to b: Point, style: StrokeStyle) { commands.append(.line(a, b, style)) }
    /// Records a filled rectangle.
    package func rect(_ r: Rect, color: Color) { commands.append(.rect(r, color)) }
    /// Records a stroked arc.
    package func arc(center: Point, radius: Double, start: Double, end: Double, style: StrokeStyle) {
        commands.append(.arc(center: center, radius: radius, start: start, end: end, style))
    }
    /// Records a text item.
    package func draw(text: TextItem) { commands.append(.text(text)) }
    /// Records an image.
    package func draw(image: ImageData, in rect: Rect) { commands.append(.image(image, rect)) }
    /// Records the start of a group.
    package func beginGroup() { commands.append(.beginGroup) }
    /// Records the end of a group.
    package func endGroup() { commands.append(.endGroup) }
    /// Records the start of a clip.
    package func beginClip(_ rect: Rect) { commands.append(.beginClip(rect)) }
    /// Records the end of a clip.
    package func endClip() { commands.append(.endClip) }

    /// The recorded commands as a drawing of `size`.
    package func drawing(size: Size, description: String = "") -> Drawing {
        Drawing(size: size, commands: commands, description: description)
    }
}
