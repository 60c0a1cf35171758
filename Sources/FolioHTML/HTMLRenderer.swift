import FolioCharts
import FolioGraphics
import FolioInput
import FolioModel
import Foundation
import Mustache

/// Writes a document as HTML: a self-contained page, an embeddable fragment, or a
/// fragment inside a declarative shadow root. Inline CSS, charts as inline SVG,
/// images as data URIs; no scripts, no event handlers, no `style` attributes, so
/// the output runs under `default-src 'none'; img-src data:; style-src 'sha256-…'`.
public struct HTMLRenderer {
    /// What to produce.
    public enum Output: String, Sendable, CaseIterable {
        /// A complete HTML document.
        case page
        /// One `<div>` with its styles, scoped under its unique id.
        case fragment
        /// One `<div>` holding a `<template shadowrootmode="open">`: styles fully isolated, no script needed.
        case shadow
    }

    /// Colours, fonts and sizes, also written as CSS custom properties.
    public var theme: Theme
    /// Where image files may be read from.
    public var assets: AssetAccess
    /// The measurer charts are laid out with; the PDF uses the same one.
    package let measurer: TextMeasurer
    /// Width of the report's text column in points (A4 less margins): fixed table column widths
    /// become percentages of it. Charts are laid out for screens by `ScreenChart` instead.
    public var chartWidth: Double
    /// Prefix of every id; by default derived from the document, so two reports differ.
    public var idPrefix: String?
    /// A Mustache page shell replacing `defaultPageTemplate`.
    public var pageTemplate: String?

    /// A renderer whose relative image paths start from `baseDirectory`.
    package init(
        measurer: TextMeasurer, theme: Theme = .standard, baseDirectory: URL? = nil, chartWidth: Double = 481.9,
        idPrefix: String? = nil, pageTemplate: String? = nil
    ) {
        self.init(
            measurer: measurer, theme: theme, assets: .files(relativeTo: baseDirectory), chartWidth: chartWidth,
            idPrefix: idPrefix, pageTemplate: pageTemplate)
    }

    /// A renderer that reads image files as `assets` allows.
    package init(
        measurer: TextMeasurer, theme: Theme, assets: AssetAccess, chartWidth: Double = 481.9,
        idPrefix: String? = nil, pageTemplate: String? = nil
    ) {
        self.measurer = measurer
        self.theme = theme
        self.assets = assets
        self.chartWidth = chartWidth
        self.idPrefix = idPrefix
        self.pageTemplate = pageTemplate
    }

    /// A rendered report: its markup and the stylesheet it carries.
    public struct Rendered: Sendable {
        /// The markup: a page, or a fragment to embed.
        public var html: String
        /// The exact text of the report's `<style>` element.
        public var css: String

        /// The Content-Security-Policy under which the report works, its stylesheet allowed by hash.
        public var contentSecurityPolicy: String {
            "default-src 'none'; img-src data:; style-src '\(HTMLRenderer.styleHash(css))'"
        }
    }

    /// `sha256-…` of a stylesheet, as CSP hash sources are written.
    package static func styleHash(_ css: String) -> String {
        "sha256-" + Data(SHA256Digest.digest(Array(css.utf8))).base64EncodedString()
    }

    /// The document as `output`.
    public func render(_ document: Document, as output: Output) throws -> String {
        try renderWithStyle(document, as: output).html
    }

    /// The document as `output` with its stylesheet, for the CSP header.
    public func renderWithStyle(_ document: Document, as output: Output) throws -> Rendered {
        try renderWithStyle(try PreparedDocument(document, base: theme, assets: assets), as: output)
    }

    /// A document already validated and with its files read, as `output` with its stylesheet.
    package func renderWithStyle(_ prepared: PreparedDocument, as output: Output) throws -> Rendered {
        let document = prepared.document
        if document.protection != nil {
            // Whoever protected the document meant its content to be read with the password only.
            throw FolioError(
                path: "protection",
                "a protected document is written as PDF only: HTML cannot be encrypted and would show its content to anyone")
        }
        var renderer = self
        renderer.theme = prepared.theme
        return try renderer.write(document, prepared: prepared, as: output)
    }

    /// Writes the page, fragment or shadow fragment with this renderer's (the document's) theme.
    private func write(_ document: Document, prepared: PreparedDocument, as output: Output) throws -> Rendered {
        let id = idPrefix.map(HTMLRenderer.sanitizedID) ?? IDGenerator.prefix(for: document)
        let strings = document.builtInStrings
        var writer = HTMLBodyWriter(renderer: self, prepared: prepared, strings: strings, ids: IDGenerator(prefix: id))
        let body = try writer.body(document)
        let css = HTMLStyle.css(theme: theme, root: id, sheet: writer.style)
        let root: HTML =
            "<div class=\"folio\" id=\"\(id)\" lang=\"\(document.metadata.language)\" dir=\"\(strings.isRightToLeft ? "rtl" : "ltr")\">\n\(body)</div>\n"
        let style: HTML = "<style>\(css)</style>"
        switch output {
        case .fragment:
            let html: HTML = "<div class=\"folio-embed\" id=\"\(id)-embed\">\(style)\n\(root)</div>\n"
            return Rendered(html: html.markup, css: css.text)
        case .shadow:
            let html: HTML =
                "<div class=\"folio-host\" id=\"\(id)-host\"><template shadowrootmode=\"open\">\(style)\n\(root)</template></div>\n"
            return Rendered(html: html.markup, css: css.text)
        case .page:
            let rendered = Rendered(html: "", css: css.text)
            return Rendered(
                html: try shell(document, strings: strings, report: root, css: css, policy: rendered.contentSecurityPolicy), css: css.text)
        }
    }

    /// `text` parsed as a Mustache page shell; a syntax error is one line naming where it is
    /// (`--template: line 3, column 9: a section is not closed …`). Callers check a shell with it
    /// when they read one, before any document is rendered.
    package static func parsePageTemplate(_ text: String) throws -> MustacheTemplate {
        try checkSectionNesting(text)
        do {
            return try MustacheTemplate(string: text)
        } catch let error as MustacheTemplate.ParserError {
            let what: String
            switch error.error as? MustacheTemplate.Error {
            case .sectionCloseNameIncorrect?: what = "a section is closed with another name than it was opened with"
            case .unfinishedName?: what = "a tag is not closed with }}"
            case .expectedSectionEnd?: what = "a section is not closed ({{#name}} needs {{/name}})"
            case .invalidSetDelimiter?: what = "a set-delimiter tag ({{=<% %>=}}) is malformed"
            case .invalidConfigVariableSyntax?, .unrecognisedConfigVariable?: what = "a {{% …}} configuration tag is not understood"
            case .transformAppliedToInheritanceSection?, .illegalTokenInsideInheritSection?, .textInsideInheritSection?, nil:
                what = "a partial or inheritance tag is malformed"
            }
            throw FolioError(
                path: "--template", "line \(error.context.lineNumber), column \(error.context.columnNumber): \(what)")
        } catch {
            throw FolioError(path: "--template", "the page template is not valid Mustache")
        }
    }

    /// The deepest a page shell's sections may nest (a shell needs two or three levels).
    package static let pageTemplateNesting = 32

    /// Refuses, before the Mustache parser sees it, a shell whose sections nest deeper than
    /// `pageTemplateNesting`: the parser (and the template it makes, and its rendering and release)
    /// recurses once per level, so 4,000 nested `{{#a}}` overflowed the stack. Every section tag
    /// (`{{#`, `{{^`, `{{$`, `{{<`) opens a level and every `{{/` closes one, comments (`{{! … }}`)
    /// skipped as the parser skips them; so the count is never below the parser's depth. A
    /// set-delimiter tag (`{{=<% %>=}}`) would let sections hide from the count, and is refused.
    package static func checkSectionNesting(_ text: String) throws {
        let bytes = Array(text.utf8)
        let open = UInt8(ascii: "{")
        let close = UInt8(ascii: "}")
        var depth = 0
        var line = 1
        var lineStart = 0
        var index = 0
        func position(_ at: Int) -> String {
            let column = String(decoding: bytes[lineStart..<at], as: UTF8.self).unicodeScalars.count + 1
            return "line \(line), column \(column)"
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
                index += 1
                continue
            }
            guard byte == open, index + 2 < bytes.count, bytes[index + 1] == open else {
                index += 1
                continue
            }
            switch bytes[index + 2] {
            case UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "<"):
                depth += 1
                guard depth <= pageTemplateNesting else {
                    throw FolioError(
                        path: "--template", "\(position(index)): sections are nested more than \(pageTemplateNesting) levels deep")
                }
            case UInt8(ascii: "/"):
                depth = max(depth - 1, 0)
            case UInt8(ascii: "="):
                throw FolioError(path: "--template", "\(position(index)): set-delimiter tags are not supported in a page shell")
            case UInt8(ascii: "!"):
                // A comment ends at the first }}: nothing inside it is a tag.
                var end = index + 3
                while end + 1 < bytes.count, !(bytes[end] == close && bytes[end + 1] == close) {
                    if bytes[end] == 0x0A {
                        line += 1
                        lineStart = end + 1
                    }
                    end += 1
                }
                index = end
                continue
            default:
                break
            }
            // One byte on, not two: "{{{#" holds "{{#" at its second byte, counted too.
            index += 1
        }
    }

    /// Throws the one-line error of `parsePageTemplate` when `text` is not a valid page shell.
    package static func checkPageTemplate(_ text: String) throws { _ = try parsePageTemplate(text) }

    /// The page shell filled in: the built-in one or `pageTemplate`.
    private func shell(_ document: Document, strings: BuiltInStrings, report: HTML, css: CSS, policy: String) throws -> String {
        guard let pageTemplate else {
            return HTMLRenderer.builtInShell(document, strings: strings, report: report, css: css, policy: policy)
        }
        let template = try HTMLRenderer.parsePageTemplate(pageTemplate)
        let meta = document.metadata
        // Mustache escapes {{values}}; characters HTML does not allow are replaced first.
        // {{{style}}} and {{{report}}} are the CSS and HTML types' own output.
        func text(_ value: String?) -> Any { value.map(\.replacingDisallowedCharacters) ?? false }
        let context: [String: Any] = [
            "language": meta.language, "rightToLeft": strings.isRightToLeft, "title": text(document.displayTitle(strings: strings)),
            "author": text(meta.author), "subject": text(meta.subject),
            "keywords": meta.keywords.isEmpty ? false : text(meta.keywords.joined(separator: ", ")),
            "contentSecurityPolicy": policy, "style": css.text, "report": report.markup,
        ]
        return template.render(context)
    }

    /// `defaultPageTemplate` filled in by the HTML type instead of Mustache (a tenth of the
    /// time of a W1 page went to Mustache's look-ups): the same bytes, which a test checks.
    static func builtInShell(_ document: Document, strings: BuiltInStrings, report: HTML, css: CSS, policy: String) -> String {
        let meta = document.metadata
        var head: HTML =
            "<!DOCTYPE html>\n<html lang=\"\(meta.language)\"\(strings.isRightToLeft ? " dir=\"rtl\"" : HTML())>\n<head>\n"
            + "<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            + "<meta http-equiv=\"Content-Security-Policy\" content=\"\(policy)\">\n<title>\(document.displayTitle(strings: strings))</title>\n"
            + "<meta name=\"generator\" content=\"Folio\">\n"
        if let author = meta.author { head += "<meta name=\"author\" content=\"\(author)\">\n" }
        if let subject = meta.subject { head += "<meta name=\"description\" content=\"\(subject)\">\n" }
        if !meta.keywords.isEmpty { head += "<meta name=\"keywords\" content=\"\(meta.keywords.joined(separator: ", "))\">\n" }
        head += "<style>\(css)</style>\n</head>\n<body>\n<main>\n"
        var page = head.markup
        page.reserveCapacity(page.utf8.count + report.markup.utf8.count + 32)
        page += report.markup
        page += "</main>\n</body>\n</html>\n"
        return page
    }

    /// The built-in page shell; `Templates/page.mustache` holds the same text for portals to adapt.
    public static let defaultPageTemplate = """
        <!DOCTYPE html>
        <html lang="{{language}}"{{#rightToLeft}} dir="rtl"{{/rightToLeft}}>
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="{{contentSecurityPolicy}}">
        <title>{{title}}</title>
        <meta name="generator" content="Folio">
        {{#author}}<meta name="author" content="{{author}}">
        {{/author}}{{#subject}}<meta name="description" content="{{subject}}">
        {{/subject}}{{#keywords}}<meta name="keywords" content="{{keywords}}">
        {{/keywords}}<style>{{{style}}}</style>
        </head>
        <body>
        <main>
        {{{report}}}</main>
        </body>
        </html>

        """

    static func sanitizedID(_ text: String) -> String {
        let cleaned = String(
            text.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "-" })
        return cleaned.first?.isLetter == true ? cleaned : "folio-" + cleaned
    }
}
