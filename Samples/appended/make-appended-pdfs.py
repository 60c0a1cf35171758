#!/usr/bin/env python3
"""Makes the two PDFs the patient packet sample (../patient-packet.yaml) appends, as other programs would: a two-page lab report
written by WeasyPrint (from HTML) and a one-page consent form written by ReportLab (its font
embedded). Run from this folder with the test set-up's Python (.venv/bin/python); the PDFs are
committed, so `make samples` needs neither program."""
import datetime
import sys

from reportlab.lib.pagesizes import letter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas
from weasyprint import HTML

ROWS = [
    ("Haemoglobin A1c", "7.4", "%", "4.0–5.6", "H"),
    ("Glucose, fasting", "8.1", "mmol/L", "3.9–5.5", "H"),
    ("Creatinine", "88", "µmol/L", "60–110", ""),
    ("eGFR", "74", "mL/min/1.73 m²", "> 60", ""),
    ("Potassium", "4.2", "mmol/L", "3.5–5.1", ""),
    ("Sodium", "139", "mmol/L", "135–145", ""),
    ("LDL cholesterol", "2.9", "mmol/L", "< 2.6", "H"),
    ("HDL cholesterol", "1.2", "mmol/L", "> 1.0", ""),
    ("Triglycerides", "1.9", "mmol/L", "< 1.7", "H"),
    ("ALT", "31", "U/L", "7–56", ""),
    ("TSH", "2.1", "mIU/L", "0.4–4.0", ""),
    ("Urine albumin/creatinine", "3.4", "mg/mmol", "< 3.0", "H"),
]


PREVIOUS = [
    ("Haemoglobin A1c", "6.9", "%", "4.0–5.6", "H"),
    ("Glucose, fasting", "7.2", "mmol/L", "3.9–5.5", "H"),
    ("Creatinine", "84", "µmol/L", "60–110", ""),
    ("eGFR", "78", "mL/min/1.73 m²", "> 60", ""),
    ("Potassium", "4.4", "mmol/L", "3.5–5.1", ""),
    ("Sodium", "140", "mmol/L", "135–145", ""),
    ("LDL cholesterol", "2.7", "mmol/L", "< 2.6", "H"),
    ("HDL cholesterol", "1.3", "mmol/L", "> 1.0", ""),
    ("Triglycerides", "1.6", "mmol/L", "< 1.7", ""),
    ("Urine albumin/creatinine", "2.8", "mg/mmol", "< 3.0", ""),
]


def rows_of(results):
    return "".join(
        f"<tr><td>{name}</td><td class=n>{value}</td><td>{unit}</td><td>{ref}</td><td>{flag}</td></tr>"
        for name, value, unit, ref, flag in results
    )


def lab_report(path):
    header = "<tr><th>Test</th><th>Result</th><th>Unit</th><th>Reference</th><th>Flag</th></tr>"
    html = f"""<!doctype html><html lang=en><head><meta charset=utf-8><title>Laboratory report</title>
<style>@page {{ size: A4; margin: 2cm; @bottom-center {{ content: "Northside Laboratory · page " counter(page) " of " counter(pages); font-family: DejaVu Sans, sans-serif; font-size: 8pt }} }}
body {{ font-family: DejaVu Sans, sans-serif; font-size: 10pt }} h1 {{ font-size: 16pt }} h2 {{ font-size: 12pt }}
table {{ border-collapse: collapse; width: 100% }} td, th {{ border-bottom: 0.5pt solid #999; padding: 4pt; text-align: left }}
td.n {{ text-align: right }} .break {{ break-before: page }}</style></head><body>
<h1>Northside Laboratory — Chemistry panel</h1>
<p>Patient: Maria Example · Born 1958-04-12 · Collected 2026-11-20 08:10 · Reported 2026-11-20 14:32</p>
<table>{header}{rows_of(ROWS)}</table>
<h2 class=break>Previous results, collected 2026-05-18</h2>
<table>{header}{rows_of(PREVIOUS)}</table>
<p>Interpretation: HbA1c above target; lipid profile above the secondary-prevention goal. Repeat in three months.</p>
<p>Validated by Dr. J. Lee, clinical biochemist. Results online:
<a href="https://northside-lab.example/results/R-4471">northside-lab.example/results/R-4471</a>.</p></body></html>"""
    HTML(string=html).write_pdf(path)


def consent(path, font):
    pdfmetrics.registerFont(TTFont("DejaVu", font))
    page = canvas.Canvas(path, pagesize=letter, invariant=1, initialFontName="DejaVu", initialFontSize=11)
    page.setTitle("Consent to share health information")
    page.setFont("DejaVu", 16)
    page.drawString(72, 720, "Consent to share health information")
    page.setFont("DejaVu", 11)
    lines = [
        "I, Maria Example, agree that Riverside Clinic may send my weekly summary,",
        "my laboratory results and my care plan to Dr. A. Novak, endocrinologist.",
        "This consent lasts twelve months and I may withdraw it at any time.",
        "",
        "Signed: Maria Example          Date: 2026-11-02",
        "Witness: R. Patel, RN",
    ]
    for index, line in enumerate(lines):
        page.drawString(72, 680 - 18 * index, line)
    page.showPage()
    page.save()


if __name__ == "__main__":
    font = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    lab_report("lab-report.pdf")
    consent("consent.pdf", font)
