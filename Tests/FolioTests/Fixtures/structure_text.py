"""The text of a tagged PDF as a screen reader gets it: each structure element's marked content,
decoded through its font's ToUnicode map (not pdftotext's layout guesses), in structure order.

Prints one JSON object: {"elements": [{"type": "/P", "text": "..."}, ...]} for the leaf elements
that hold text (a Span or Link inside a paragraph is reported as part of it: its nearest
non-Span, non-Link ancestor). An element's /ActualText, where it has one, replaces its content.
Marked-content sequences with an /ActualText property replace what they hold likewise.
"""
import json
import re
import sys

import pikepdf


def parse_cmap(data):
    mapping = {}
    text = data.decode("latin-1")
    for block in re.findall(r"beginbfchar(.*?)endbfchar", text, re.S):
        for source, target in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", block):
            mapping[int(source, 16)] = bytes.fromhex(target).decode("utf-16-be", "replace")
    for block in re.findall(r"beginbfrange(.*?)endbfrange", text, re.S):
        for low, high, rest in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(\[[^\]]*\]|<[0-9A-Fa-f]*>)", block):
            low, high = int(low, 16), int(high, 16)
            if rest.startswith("["):
                targets = re.findall(r"<([0-9A-Fa-f]*)>", rest)
                for offset, target in enumerate(targets):
                    mapping[low + offset] = bytes.fromhex(target).decode("utf-16-be", "replace")
            else:
                start = bytes.fromhex(rest[1:-1])
                value = int.from_bytes(start, "big")
                for code in range(low, high + 1):
                    mapping[code] = (value + code - low).to_bytes(len(start), "big").decode("utf-16-be", "replace")
    return mapping


def font_decoder(font):
    cmap = parse_cmap(font.ToUnicode.read_bytes()) if "/ToUnicode" in font else {}
    two_bytes = font.get("/Subtype") == "/Type0"

    def decode(raw):
        if two_bytes:
            codes = [int.from_bytes(raw[i:i + 2], "big") for i in range(0, len(raw) - 1, 2)]
        else:
            codes = list(raw)
        return "".join(cmap.get(code, "\ufffd") for code in codes)

    return decode


def page_texts(page):
    """MCID -> text of one page's content stream."""
    fonts = {}
    resources = page.Resources
    if "/Font" in resources:
        for name, font in resources.Font.items():
            fonts[name] = font_decoder(font)
    texts = {}
    stack = []  # (mcid or None, actual text or None)
    decode = None
    replaced = 0
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "BDC":
            properties = operands[1]
            if isinstance(properties, pikepdf.Name) and "/Properties" in resources:
                properties = resources.Properties.get(properties, {})
            mcid = properties.get("/MCID") if isinstance(properties, pikepdf.Dictionary) else None
            actual = properties.get("/ActualText") if isinstance(properties, pikepdf.Dictionary) else None
            inherited = next((m for m, _ in reversed(stack) if m is not None), None)
            stack.append((int(mcid) if mcid is not None else inherited, str(actual) if actual is not None else None))
            if actual is not None:
                target = stack[-1][0]
                if target is not None:
                    texts[target] = texts.get(target, "") + str(actual)
                replaced += 1
        elif op == "BMC":
            inherited = next((m for m, _ in reversed(stack) if m is not None), None)
            stack.append((inherited, None))
        elif op == "EMC":
            if stack:
                if stack[-1][1] is not None:
                    replaced -= 1
                stack.pop()
        elif op == "Tf":
            decode = fonts.get(operands[0])
        elif op in ("Tj", "TJ", "'", '"') and decode is not None and replaced == 0:
            mcid = next((m for m, _ in reversed(stack) if m is not None), None)
            if mcid is None:
                continue
            pieces = operands[-1] if op == "TJ" else [operands[-1]]
            for piece in pieces:
                if isinstance(piece, pikepdf.String):
                    texts[mcid] = texts.get(mcid, "") + decode(bytes(piece))
    return texts


def main(path):
    pdf = pikepdf.open(path)
    per_page = {}
    for index, page in enumerate(pdf.pages):
        per_page[page.objgen] = page_texts(page)
    root = pdf.Root.StructTreeRoot
    out = []

    def owner(element, ancestors):
        for candidate in reversed(ancestors + [element]):
            if str(candidate.get("/S")) not in ("/Span", "/Link"):
                return candidate
        return element

    def visit(element, ancestors, page):
        if "/Pg" in element:
            page = element.Pg.objgen
        kids = element.get("/K")
        if kids is None:
            return
        kids = kids if isinstance(kids, pikepdf.Array) else [kids]
        actual = element.get("/ActualText")
        if actual is not None:
            out.append((owner(element, ancestors), str(actual)))
            return
        for kid in kids:
            if isinstance(kid, int):
                text = per_page.get(page, {}).get(kid, "")
                out.append((owner(element, ancestors), text))
            elif isinstance(kid, pikepdf.Dictionary):
                if kid.get("/Type") == "/MCR":
                    kid_page = kid.Pg.objgen if "/Pg" in kid else page
                    out.append((owner(element, ancestors), per_page.get(kid_page, {}).get(int(kid.MCID), "")))
                elif "/S" in kid:
                    visit(kid, ancestors + [element] if "/S" in element else ancestors, page)

    visit(root, [], None)
    merged = []
    for element, text in out:
        if merged and merged[-1][0] == element.objgen:
            merged[-1][2] += text
        else:
            merged.append([element.objgen, str(element.get("/S")), text])
    print(json.dumps({"elements": [{"type": kind, "text": text} for _, kind, text in merged if text]}, ensure_ascii=False))


main(sys.argv[1])
