import FolioHTML

/// The preview page: the PDF's pages as pictures beside the HTML, the layout report's warnings
/// (each marked on its page), an error at its line with the lines around it, and a record picker.
/// Its script and style are files of their own, served under a policy that allows nothing else;
/// the report itself stays script-free, in a sandboxed frame.
enum PreviewPage {
    /// The policy the page works under.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; frame-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Folio preview</title>
        <link rel="stylesheet" href="/preview.css">
        <script src="/preview.js" defer></script>
        </head>
        <body>
        <header>
        <h1 id="file">Folio preview</h1>
        <label id="picker" hidden>Record <select id="record"></select></label>
        <p id="status" role="status" aria-live="polite">Rendering…</p>
        </header>
        <section id="error" hidden aria-labelledby="error-title">
        <h2 id="error-title">The last change did not render</h2>
        <p id="error-message"></p>
        <pre id="error-lines"></pre>
        <p>The pages below are the last render that worked.</p>
        </section>
        <section id="warnings" hidden aria-labelledby="warnings-title">
        <h2 id="warnings-title">Layout warnings</h2>
        <ul id="warning-list"></ul>
        </section>
        <main>
        <section aria-labelledby="pdf-title"><h2 id="pdf-title">PDF pages</h2><div id="pages"></div></section>
        <section aria-labelledby="html-title"><h2 id="html-title">HTML</h2>
        <iframe id="report" title="The report as HTML" sandbox src="/report.html"></iframe></section>
        </main>
        </body>
        </html>
        """

    static let css = """
        body{margin:0;font:15px/1.4 system-ui,sans-serif;color:#1c2024;background:#f0f0f3}
        header{display:flex;gap:1.5em;align-items:center;flex-wrap:wrap;padding:.6em 1.2em;background:#fff;border-bottom:1px solid #ddd}
        h1{font-size:1.1em;margin:0}h2{font-size:1em;margin:.2em 0 .6em}
        #status{margin:0;color:#60646c}
        #error{margin:1em 1.2em;padding:.6em 1em;background:#ffefef;border-left:4px solid #ce2c31}
        #error-message{font-family:monospace;white-space:pre-wrap}
        #error-lines{background:#fff;padding:.5em;overflow:auto}
        #error-lines mark{background:#ffd8d8}
        #warnings{margin:1em 1.2em;padding:.6em 1em;background:#fff8e6;border-left:4px solid #c48700}
        #warnings a{color:#7a4d00}
        main{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1.2em;padding:1em 1.2em}
        @media (max-width:900px){main{grid-template-columns:1fr}}
        .page{position:relative;margin:0 0 1em}
        .page img{display:block;width:100%;height:auto;background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.2)}
        .page .marks{position:absolute;top:.4em;right:.4em;background:#c48700;color:#fff;border-radius:1em;padding:0 .6em;font-size:.85em}
        .page figcaption{font-size:.85em;color:#60646c}
        iframe{width:100%;height:80vh;border:1px solid #ddd;background:#fff}
        """

    static let script = """
        "use strict";
        let shownVersion = -1;
        function text(id, value) { document.getElementById(id).textContent = value; }
        async function refresh() {
          const response = await fetch("/state.json", {cache: "no-store"});
          if (!response.ok) return;
          const state = await response.json();
          if (state.version === shownVersion) return;
          shownVersion = state.version;
          text("file", state.file);
          text("status", state.failure ? "Render " + state.version + " stopped with an error" : "Render " + state.version + ": " + state.pages + " page" + (state.pages === 1 ? "" : "s"));
          const error = document.getElementById("error");
          error.hidden = !state.failure;
          const lines = document.getElementById("error-lines");
          lines.replaceChildren();
          if (state.failure) {
            text("error-message", state.failure.message);
            for (const line of state.failure.excerpt) {
              const row = document.createElement(line.number === state.failure.line ? "mark" : "span");
              row.textContent = String(line.number).padStart(5) + "  " + line.text + "\\n";
              lines.append(row);
            }
          }
          const marks = new Map();
          const list = document.getElementById("warning-list");
          list.replaceChildren();
          for (const warning of state.warnings) {
            const item = document.createElement("li");
            let words = (warning.place ? warning.place + ": " : "") + warning.message;
            if (warning.page) {
              const link = document.createElement("a");
              link.href = "#page-" + warning.page;
              link.textContent = "page " + warning.page;
              item.append(link, " — ");
              marks.set(warning.page, (marks.get(warning.page) || 0) + 1);
            }
            item.append(words);
            list.append(item);
          }
          document.getElementById("warnings").hidden = state.warnings.length === 0;
          const pages = document.getElementById("pages");
          pages.replaceChildren();
          for (let number = 1; number <= state.pages; number++) {
            const figure = document.createElement("figure");
            figure.className = "page";
            figure.id = "page-" + number;
            const image = document.createElement("img");
            image.src = "/pages/" + number + ".png?v=" + state.goodVersion;
            image.alt = "Page " + number + " of the PDF";
            figure.append(image);
            if (marks.has(number)) {
              const badge = document.createElement("span");
              badge.className = "marks";
              badge.textContent = marks.get(number) + (marks.get(number) === 1 ? " warning" : " warnings");
              figure.append(badge);
            }
            const caption = document.createElement("figcaption");
            caption.textContent = "Page " + number;
            figure.append(caption);
            pages.append(figure);
          }
          document.getElementById("report").src = "/report.html?v=" + state.goodVersion;
          const picker = document.getElementById("picker");
          picker.hidden = !state.records;
          if (state.records) {
            const select = document.getElementById("record");
            if (select.options.length !== state.records) {
              select.replaceChildren();
              for (let number = 1; number <= Math.min(state.records, 1000); number++) {
                select.append(new Option("Record " + number, String(number)));
              }
            }
            select.value = String(state.record);
          }
        }
        document.addEventListener("DOMContentLoaded", () => {
          document.getElementById("record").addEventListener("change", async (event) => {
            await fetch("/record/" + event.target.value, {method: "POST"});
          });
          const events = new EventSource("/events");
          events.addEventListener("render", refresh);
          refresh();
        });
        """
}
