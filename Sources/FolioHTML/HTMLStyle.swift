import FolioGraphics

/// The report's stylesheet, every rule scoped under the `.folio` root so a
/// fragment neither leaks styles into its host nor depends on the host's.
enum HTMLStyle {
    static func css(theme: Theme) -> String {
        """
        .folio{--folio-text:\(theme.text.hex);--folio-muted:\(theme.muted.hex);--folio-accent:\(theme.accent.hex);\
        --folio-rule:\(theme.rule.hex);--folio-tile:\(theme.tileBackground.hex);--folio-thead:\(theme.tableHeaderBackground.hex);\
        --folio-zebra:\(theme.zebraBackground.hex);\
        font-family:"\(theme.fontFamily)",system-ui,sans-serif;font-size:\(theme.bodySize + 4)px;line-height:1.45;\
        color:var(--folio-text);background:#fff;max-width:52rem;margin:0 auto;padding:1.5rem;box-sizing:border-box;text-align:left}
        .folio *{box-sizing:border-box}
        .folio .folio-page-header{font-size:.8rem;color:var(--folio-muted);border-bottom:1px solid var(--folio-rule);padding-bottom:.3rem;margin:0 0 1rem}
        .folio h1{font-size:1.9rem;line-height:1.2;margin:0 0 .6rem;font-weight:700;color:var(--folio-text)}
        .folio h2{font-size:1.3rem;line-height:1.25;margin:1.6rem 0 .5rem;font-weight:700;color:var(--folio-text);break-after:avoid}
        .folio p{margin:.4rem 0;font-size:1em;color:var(--folio-text)}
        .folio a{color:var(--folio-accent);text-decoration:underline}
        .folio figure{margin:1rem 0;break-inside:avoid}
        .folio figcaption{font-size:.85rem;font-style:italic;color:var(--folio-muted);margin-top:.3rem}
        .folio img{max-width:100%;height:auto;display:block}
        .folio svg{display:block;width:100%;max-width:100%;height:auto;overflow:visible}
        .folio .folio-figure-title{font-weight:700;margin:0 0 .3rem}
        .folio .folio-chart-data summary{cursor:pointer;color:var(--folio-accent);font-size:.85rem;margin-top:.3rem}
        .folio .folio-chart-data .folio-table-wrap{max-height:20rem;overflow:auto}
        .folio .folio-table-wrap{overflow-x:auto;margin:1rem 0}
        .folio table{border-collapse:collapse;width:100%;font-size:.95em}
        .folio caption{caption-side:top;text-align:left;font-style:italic;font-size:.85rem;color:var(--folio-muted);padding-bottom:.3rem}
        .folio th,.folio td{padding:.3rem .45rem;border-bottom:1px solid var(--folio-rule);vertical-align:top;text-align:left}
        .folio thead th{background:var(--folio-thead);border-bottom:1.5px solid var(--folio-muted)}
        .folio .folio-zebra tbody tr:nth-child(even){background:var(--folio-zebra)}
        .folio .folio-center{text-align:center}
        .folio .folio-right{text-align:right}
        .folio .folio-message{margin:1rem 0;padding:.7rem .9rem;border-left:4px solid var(--folio-tint);border-radius:4px;background:var(--folio-tint-bg)}
        .folio .folio-message p{margin:.2rem 0}
        .folio .folio-widgets{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.6rem;margin:1rem 0;padding:0;list-style:none}
        .folio .folio-widget{background:var(--folio-tile);border-radius:6px;padding:.7rem .8rem;border-left:3px solid var(--folio-tint)}
        .folio .folio-widget-title{font-size:.8rem;color:var(--folio-muted);margin:0}
        .folio .folio-widget-value{font-size:1.6rem;font-weight:700;margin:.1rem 0 0;line-height:1.2}
        .folio .folio-widget-detail{font-size:.75rem;color:var(--folio-muted);margin:0}
        .folio .folio-page-break{break-after:page;height:0;margin:0;border:0}
        @media print{.folio{max-width:none;padding:0}.folio thead{display:table-header-group}.folio tr{break-inside:avoid}}
        """
    }
}
