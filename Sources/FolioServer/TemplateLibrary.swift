import Folio
import FolioData
import FolioFiles
import FolioTemplate
import Foundation

/// The document templates a server renders by name, read once at start-up from one folder:
/// `weekly-summary.yaml` is the template `weekly-summary`.
public struct TemplateLibrary: Sendable {
    /// The templates by name.
    package private(set) var templates: [String: DocumentTemplate] = [:]
    /// Each template's file as read, by name: what a render worker process is set up with.
    package private(set) var sources: [String: (data: Data, format: DocumentDecoder.Format)] = [:]

    /// No templates.
    public init() {}

    /// The templates `sources` hold (read by another process); errors name the template.
    package init(sources: [String: (data: Data, format: DocumentDecoder.Format)]) throws {
        for (name, source) in sources {
            do {
                templates[name] = try DocumentTemplate(data: source.data, format: source.format)
            } catch let error as FolioError {
                throw FolioError(path: "--templates \(name)" + (error.path.isEmpty ? "" : " \(error.path)"), error.message)
            }
        }
        self.sources = sources
    }

    /// Every `.yaml`, `.yml` and `.json` file directly in `directory` whose name is a template name
    /// (letters, digits, `-`, `_`, `.`, starting with a letter or digit), but a theme: a file with
    /// no `elements` that reads as a theme (`Templates/theme.yaml` beside the templates) is not a
    /// template, which would answer every request 400.
    public init(directory: String) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw FolioError(path: "--templates", "cannot list \"\(directory)\": \(error.localizedDescription)")
        }
        for file in names {
            guard let dot = file.lastIndex(of: ".") else { continue }
            let name = String(file[..<dot])
            let suffix = file[file.index(after: dot)...].lowercased()
            guard ["yaml", "yml", "json"].contains(suffix), TemplateLibrary.isValidName(name) else { continue }
            let path = (directory as NSString).appendingPathComponent(file)
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            guard templates[name] == nil else {
                throw FolioError(path: "--templates", "two files define the template \"\(name)\"")
            }
            let data = try BoundedFile.read(
                path, limit: InputLimits.documentBytes, field: "--templates", what: "template", regularOnly: true)
            do {
                let format = DocumentDecoder.Format(fileName: file)
                if TemplateLibrary.isTheme(data, format: format) { continue }
                // Files it includes are read now, from the templates' folder: workers get the whole tree.
                let source = try SourceDocument(data: data, path: path)
                templates[name] = DocumentTemplate(tree: source.tree)
                sources[name] = source.origins.hasIncludes ? (Data(source.tree.json.utf8), .json) : (data, format)
            } catch let error as FolioError {
                throw FolioError(path: "--templates \(file)" + (error.path.isEmpty ? "" : " \(error.path)"), error.message)
            }
        }
    }

    /// Whether a file's `data` is a theme rather than a document template: a mapping without
    /// `elements` whose keys are all a theme's.
    static func isTheme(_ data: Data, format: DocumentDecoder.Format) -> Bool {
        guard let tree = try? DocumentDecoder.tree(data, format: format), tree["elements"] == nil else { return false }
        return (try? DocumentDecoder.decode(ThemeSpec.self, from: tree)) != nil
    }

    /// Whether `name` can name a template: 1…100 of `A-Z a-z 0-9 - _ .`, starting with a letter or digit.
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 100,
            ("0"..."9").contains(first) || ("a"..."z").contains(first) || ("A"..."Z").contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "."
        }
    }

    /// The template called `name`, if there is one.
    package subscript(name: String) -> DocumentTemplate? { templates[name] }

    /// The templates' names, sorted.
    public var names: [String] { templates.keys.sorted() }
}
