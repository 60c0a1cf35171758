import FolioGraphics
import FolioModel

/// The report's stylesheet. Every rule starts with the report's unique root id, so
/// a fragment neither changes its host page nor is changed by the host's ordinary
/// styles: the first rule reverts whatever the host set on the report's elements
/// (SVG contents keep their own attributes), the rest restyle them.
enum HTMLStyle {
    /// A table wider than its column scrolls sideways, and says so where browsers hide scroll bars
    /// (phones): a shadow at the edge beyond which more of it is hidden. The shadows stay at the
    /// box's edges; white covers scroll with the table and hide a shadow where its end is in view,
    /// so a table that fits has none (Lea Verou's scroll shadows; valid CSS, no script). The table's
    /// tints are translucent (`overWhite`), so the shadows show through them.
    static let scrollShadows: CSS = """
        background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)) left center/2.5em 100% no-repeat local,\
        linear-gradient(to left,#fff 30%,rgba(255,255,255,0)) right center/2.5em 100% no-repeat local,\
        linear-gradient(to right,rgba(0,0,0,.16),rgba(0,0,0,0)) left center/1em 100% no-repeat scroll,\
        linear-gradient(to left,rgba(0,0,0,.16),rgba(0,0,0,0)) right center/1em 100% no-repeat scroll,#fff
        """

    /// The CSS for a report whose root element has id `root`, with the rules its blocks added (`sheet`).
    static func css(theme: Theme, root id: String, sheet: StyleSheet) -> CSS {
        let r: CSS = "#\(identifier: id)"
        let bidi = CSS.joined(
            ["p", "h1", "h2", "h3", "th", "td", "li", "caption", "figcaption", "header"].map { "\(r) \(identifier: $0)" }, separator: ",")
        var css: CSS = """
            \(r),\(r) :not(svg *){all:revert;box-sizing:border-box}
            \(r){--folio-text:\(theme.text);--folio-muted:\(theme.muted);--folio-accent:\(theme.accent);\
            --folio-rule:\(theme.rule);--folio-tile:\(theme.tileBackground);--folio-thead:\(overWhite: theme.tableHeaderBackground);\
            --folio-zebra:\(overWhite: theme.zebraBackground);--folio-font:\(string: theme.fontFamily),system-ui,sans-serif;\
            display:block;font-family:var(--folio-font);font-size:\(number: theme.bodySize * 1.4)px;line-height:1.45;\
            color:var(--folio-text);background:#fff;max-width:52em;margin:0 auto;padding:1.5em;text-align:start;overflow-wrap:anywhere;\
            letter-spacing:normal;word-spacing:normal;text-transform:none;text-indent:0;text-shadow:none;font-style:normal;\
            font-weight:400;white-space:normal;visibility:visible}
            \(r) svg text{letter-spacing:normal;word-spacing:normal;text-transform:none;text-shadow:none}
            \(r) .folio-page-header{display:flex;align-items:center;gap:.6em;font-size:.8em;color:var(--folio-muted);border-bottom:1px solid var(--folio-rule);padding-bottom:.3em;margin:0 0 1em}
            \(r) .folio-page-header img{height:1.6em;width:auto}
            \(r) .folio-page-header span{flex:1 1 0;min-width:0}
            \(r) .folio-header-center{text-align:center}
            \(r) .folio-header-right{text-align:end}
            \(r) h1{display:block;font-size:\(number: theme.titleSize / theme.bodySize)em;line-height:1.2;margin:0 0 .6em;font-weight:700;color:var(--folio-text);text-wrap:balance}
            \(r) .folio-subtitle,\(r) .folio-section-title{display:block;font-size:\(number: theme.subtitleSize / theme.bodySize)em;line-height:1.25;margin:1.6em 0 .5em;font-weight:700;color:var(--folio-text);break-after:avoid;text-wrap:balance}
            \(r) p{display:block;margin:.4em 0;color:var(--folio-text)}
            \(bidi){text-align:start}
            \(r) [dir]{unicode-bidi:isolate}
            \(r) a{color:var(--folio-accent);text-decoration:underline}
            \(r) strong{font-weight:700}
            \(r) .folio-nowrap{white-space:nowrap}
            \(r) em{font-style:italic}
            \(r) figure{display:block;margin:1em 0;break-inside:avoid}
            \(r) figcaption{display:block;font-size:.85em;font-style:italic;color:var(--folio-muted);margin-top:.3em}
            \(r) img{display:block;max-width:100%;height:auto}
            \(r) svg:not(svg svg){display:block;width:100%;max-width:100%;height:auto;overflow:visible;direction:ltr}
            \(r) .folio-svg>svg{width:auto;overflow:hidden}
            \(r) .folio-figure-title{font-size:1.15em;font-weight:700;margin:0 0 .3em}
            \(r) .folio-chart-data summary{display:list-item;cursor:pointer;color:var(--folio-accent);font-size:.85em;margin-top:.3em}
            \(r) .folio-chart-data .folio-table-wrap{max-height:20em;overflow:auto}
            \(r) .folio-table-wrap{display:block;overflow-x:auto;margin:1em 0;\(scrollShadows)}
            \(r) .folio-table-wrap:focus-visible,\(r) a:focus-visible{outline:2px solid var(--folio-accent);outline-offset:2px}
            \(r) table{display:table;border-collapse:collapse;width:100%;font-size:.95em}
            \(r) caption{display:table-caption;caption-side:top;text-align:start;font-style:italic;font-size:.85em;color:var(--folio-muted);padding-bottom:.3em}
            \(r) th,\(r) td{padding:.3em .45em;border-bottom:1px solid var(--folio-rule);vertical-align:top;text-align:start;color:var(--folio-text);overflow-wrap:normal}
            \(r) th{font-weight:700}
            \(r) thead th{background:var(--folio-thead);border-bottom:1.5px solid var(--folio-muted)}
            \(r) .folio-zebra tbody tr:nth-child(even){background:var(--folio-zebra)}
            \(r) .folio-center{text-align:center}
            \(r) .folio-right{text-align:end}
            \(r) .folio-justify{text-align:justify;hyphens:auto}
            \(r) .folio-section-title{font-size:\(number: (theme.subtitleSize + 4) / theme.bodySize)em;border-bottom:2px solid var(--folio-accent);padding-bottom:.2em}
            \(r) table{table-layout:auto}
            \(r) .folio-message{display:block;margin:1em 0;padding:.7em .9em;border-inline-start:4px solid var(--folio-tint);border-radius:4px;background:var(--folio-tint-bg)}
            \(r) .folio-message p{margin:.2em 0}
            \(r) .folio-widgets{display:grid;grid-template-columns:repeat(auto-fit,minmax(9em,1fr));gap:.6em;margin:1em 0;padding:0;list-style:none}
            \(r) .folio-widget{display:block;background:var(--folio-tile);border-radius:6px;padding:.7em .8em;border-inline-start:3px solid var(--folio-tint)}
            \(r) .folio-widget-title{font-size:.9em;color:var(--folio-muted);margin:0}
            \(r) .folio-widget-value{font-size:1.6em;font-weight:700;margin:.1em 0 0;line-height:1.2}
            \(r) .folio-widget-detail{font-size:.86em;color:var(--folio-muted);margin:0}
            \(r) .folio-page-break{display:block;break-after:page;height:0;margin:0;border:0}
            \(ScreenChart.css(root: r))
            @media (max-width:30em){\(r) .folio-justify{text-align:start}}
            @media print{\(r) .folio-section-title{break-before:page}\(r){max-width:none;padding:0}\(r) thead{display:table-header-group}\(r) tr{break-inside:avoid}\(r) .folio-table-wrap{overflow:visible}}
            """
        for rule in sheet.rules { css += "\n\(rule)" }
        return css
    }

}
