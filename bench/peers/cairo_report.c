/* Copied from the shared benchmark peers (shared/bench/peers/cairo_report.c): make bench
 * compiles it with DATA_DIR set to the workload folio-bench generates and runs it in the same run. Unchanged below this comment. */
/* W1/W2/W3 with cairo + pango directly: the "physical limit" of a Cairo/Pango
 * backend.  Hand-placed layout with the same geometry as the Python peers
 * (common.py / wp_report.py), text laid out by pango, simple manual pagination
 * (measure all blocks, paginate, then draw so that "Page N of M" is known).
 *
 *   cairo_report w1 OUT.pdf
 *   cairo_report w1loop N [WARM]      N timed renders of W1 into memory
 *   cairo_report w1cycle N [WARM]     N timed renders cycling over 50 patients
 *   cairo_report w2 NPAT OUT.pdf      NPAT patients + appendix of min(NPAT,10)
 *   cairo_report w3 START COUNT OUTDIR
 */
#define _GNU_SOURCE
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#ifndef DATA_DIR
#define DATA_DIR ".."
#endif
#define MM (72.0 / 25.4)
#define PAGE_W (210 * MM)
#define PAGE_H (297 * MM)
#define MARGIN (20 * MM)
#define CONTENT_W (PAGE_W - 2 * MARGIN)
#define CONTENT_H (PAGE_H - 2 * MARGIN)
#define PL (14 * MM)
#define PR (2 * MM)
#define PB (12 * MM)
#define PT (9 * MM)
#define MAXHR 1024

typedef struct { double r, g, b; } RGB;
static RGB hex(const char *s) {
    unsigned v = (unsigned)strtoul(s + 1, NULL, 16);
    RGB c = {((v >> 16) & 255) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0};
    return c;
}
#define C_PAIN "#E5484D"
#define C_ADH "#3E63DD"
#define C_EXPECTED "#8B8D98"
#define C_ACTUAL "#E5484D"
#define C_THRESH "#F76B15"
#define C_GRID "#DDDDE3"
#define C_AXIS "#60646C"
#define C_TEXT "#1C2024"
#define C_MUTED "#60646C"
#define C_WIDGET_BG "#F1F3F5"
#define C_MSG_BG "#EEF4FF"
#define C_MSG_BAR "#3E63DD"
#define C_THEAD "#E8E8EC"
#define C_LINE "#CDCED6"
#define C_STRESS "#8E4EC6"
static const char *PIE_COLORS[3] = {"#3E63DD", "#30A46C", "#F5A524"};
static const char *RING_COLORS[3] = {"#E5484D", "#30A46C", "#0091FF"};
static const char *RING_TRACKS[3] = {"#FADCDD", "#D6F1E3", "#D5EDFF"};

/* ------------------------------------------------------------------ data */
typedef struct {
    char name[128], week[64], header[256];
    int ndays;
    char days[7][16];
    double pain[7], adh[7], slo[7], shi[7];
    long steps[7];
    int nrings;
    char ring_names[3][32];
    double rings[3];
    int nshare;
    char share_names[3][64];
    double share[3];
    int nhr;
    double hr_t[MAXHR], hr_exp[MAXHR], hr_act[MAXHR];
    int nmeds;
    char meds[8][4][64];
    int nnotes;
    char notes[4][1024];
} Patient;

static int cpy(char *dst, size_t n, const cJSON *s) {
    if (!cJSON_IsString(s) || strlen(s->valuestring) >= n) return -1;
    strcpy(dst, s->valuestring);
    return 0;
}

static int num_array(const cJSON *a, double *out, int max) {
    int n = cJSON_GetArraySize(a), i = 0;
    if (!cJSON_IsArray(a) || n > max) return -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, a) {
        if (!cJSON_IsNumber(e)) return -1;
        out[i++] = e->valuedouble;
    }
    return n;
}

static int parse_patient(const char *txt, size_t len, Patient *p) {
    cJSON *root = cJSON_ParseWithLength(txt, len);
    int rc = -1;
    if (!root) return -1;
    const cJSON *pat = cJSON_GetObjectItem(root, "patient"), *e;
    if (!pat || cpy(p->name, sizeof p->name, cJSON_GetObjectItem(pat, "name")) ||
        cpy(p->week, sizeof p->week, cJSON_GetObjectItem(pat, "week")))
        goto out;
    snprintf(p->header, sizeof p->header, "%s update for %s", p->week, p->name);
    const cJSON *days = cJSON_GetObjectItem(root, "days");
    p->ndays = cJSON_GetArraySize(days);
    if (!cJSON_IsArray(days) || p->ndays < 1 || p->ndays > 7) goto out;
    int i = 0;
    cJSON_ArrayForEach(e, days) if (cpy(p->days[i++], 16, e)) goto out;
    double tmp[7];
    if (num_array(cJSON_GetObjectItem(root, "pain"), p->pain, 7) != p->ndays) goto out;
    if (num_array(cJSON_GetObjectItem(root, "medicationAdherence"), p->adh, 7) != p->ndays) goto out;
    if (num_array(cJSON_GetObjectItem(root, "steps"), tmp, 7) != p->ndays) goto out;
    for (i = 0; i < p->ndays; i++) p->steps[i] = (long)tmp[i];
    const cJSON *st = cJSON_GetObjectItem(root, "stress");
    if (!cJSON_IsArray(st) || cJSON_GetArraySize(st) != p->ndays) goto out;
    i = 0;
    cJSON_ArrayForEach(e, st) {
        double lh[2];
        if (num_array(e, lh, 2) != 2) goto out;
        p->slo[i] = lh[0]; p->shi[i] = lh[1]; i++;
    }
    const cJSON *rings = cJSON_GetObjectItem(root, "rings");
    p->nrings = 0;
    cJSON_ArrayForEach(e, rings) {
        if (p->nrings >= 3 || !cJSON_IsNumber(e) || strlen(e->string) >= 32) goto out;
        strcpy(p->ring_names[p->nrings], e->string);
        p->rings[p->nrings++] = e->valuedouble;
    }
    const cJSON *sh = cJSON_GetObjectItem(root, "activityShare");
    p->nshare = 0;
    cJSON_ArrayForEach(e, sh) {
        if (p->nshare >= 3 || !cJSON_IsNumber(e) || strlen(e->string) >= 64) goto out;
        strcpy(p->share_names[p->nshare], e->string);
        p->share[p->nshare++] = e->valuedouble;
    }
    const cJSON *hr = cJSON_GetObjectItem(root, "heartRate");
    p->nhr = num_array(cJSON_GetObjectItem(hr, "elapsedSeconds"), p->hr_t, MAXHR);
    if (p->nhr < 2 || num_array(cJSON_GetObjectItem(hr, "expected"), p->hr_exp, MAXHR) != p->nhr ||
        num_array(cJSON_GetObjectItem(hr, "actual"), p->hr_act, MAXHR) != p->nhr)
        goto out;
    const cJSON *meds = cJSON_GetObjectItem(root, "medications");
    p->nmeds = 0;
    cJSON_ArrayForEach(e, meds) {
        if (p->nmeds >= 8) goto out;
        char (*m)[64] = p->meds[p->nmeds++];
        if (cpy(m[0], 64, cJSON_GetObjectItem(e, "name")) || cpy(m[1], 64, cJSON_GetObjectItem(e, "dose")) ||
            cpy(m[2], 64, cJSON_GetObjectItem(e, "schedule")) || cpy(m[3], 64, cJSON_GetObjectItem(e, "taken")))
            goto out;
    }
    const cJSON *notes = cJSON_GetObjectItem(root, "notes");
    p->nnotes = 0;
    cJSON_ArrayForEach(e, notes) {
        if (p->nnotes >= 4 || cpy(p->notes[p->nnotes++], 1024, e)) goto out;
    }
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc(n + 1);
    if (fread(b, 1, n, f) != (size_t)n) { fclose(f); free(b); return NULL; }
    b[n] = 0;
    fclose(f);
    *len = n;
    return b;
}

/* ------------------------------------------------------------------ process-wide resources */
static PangoFontDescription *F_BODY, *F_BOLD10, *F_TITLE, *F_SUB, *F_SMALL, *F_CHART, *F_CHART7,
    *F_VALUE, *F_MSGT, *F_PIE, *F_APPX, *F_APPXB;
static cairo_surface_t *LOGO;

static PangoFontDescription *font(double size, int bold) {
    PangoFontDescription *d = pango_font_description_new();
    pango_font_description_set_family(d, "DejaVu Sans");
    pango_font_description_set_weight(d, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_absolute_size(d, size * PANGO_SCALE);
    return d;
}

static void init_resources(void) {
    F_BODY = font(10, 0); F_BOLD10 = font(10, 1); F_TITLE = font(22, 1); F_SUB = font(14, 1);
    F_SMALL = font(9, 0); F_CHART = font(8, 0); F_CHART7 = font(7, 0); F_VALUE = font(18, 1);
    F_MSGT = font(11, 1); F_PIE = font(9, 1); F_APPX = font(9, 0); F_APPXB = font(9, 1);
    LOGO = cairo_image_surface_create_from_png(DATA_DIR "/logo.png");
}

/* ------------------------------------------------------------------ drawing context */
typedef struct {
    cairo_t *cr;
    PangoContext *pc;
    PangoLayout *lay;          /* scratch layout for single-line text */
} Ctx;

static void color(Ctx *c, const char *h) {
    RGB k = hex(h);
    cairo_set_source_rgb(c->cr, k.r, k.g, k.b);
}

static double text_width(Ctx *c, const char *s, PangoFontDescription *fd) {
    int w, h;
    pango_layout_set_font_description(c->lay, fd);
    pango_layout_set_text(c->lay, s, -1);
    pango_layout_get_size(c->lay, &w, &h);
    return w / (double)PANGO_SCALE;
}

/* single-line text with its baseline at (x, y); anchor 0 start, 1 middle, 2 end */
static void text(Ctx *c, double x, double y, const char *s, PangoFontDescription *fd, const char *col, int anchor) {
    double w = text_width(c, s, fd);
    double base = pango_layout_get_baseline(c->lay) / (double)PANGO_SCALE;
    if (anchor == 1) x -= w / 2;
    else if (anchor == 2) x -= w;
    color(c, col);
    cairo_move_to(c->cr, x, y - base);
    pango_cairo_show_layout(c->cr, c->lay);
}

/* wrapped paragraph layout (kept until drawn) */
static PangoLayout *para(Ctx *c, const char *s, PangoFontDescription *fd, double width, double pitch,
                         double *height) {
    PangoLayout *l = pango_layout_new(c->pc);
    pango_layout_set_font_description(l, fd);
    pango_layout_set_width(l, (int)(width * PANGO_SCALE));
    pango_layout_set_wrap(l, PANGO_WRAP_WORD);
    pango_layout_set_text(l, s, -1);
    PangoFontMetrics *m = pango_context_get_metrics(c->pc, fd, NULL);
    double fh = (pango_font_metrics_get_ascent(m) + pango_font_metrics_get_descent(m)) / (double)PANGO_SCALE;
    pango_font_metrics_unref(m);
    pango_layout_set_spacing(l, (int)((pitch - fh) * PANGO_SCALE));
    int w, h;
    pango_layout_get_size(l, &w, &h);
    *height = h / (double)PANGO_SCALE;
    return l;
}

static void hline(Ctx *c, double x0, double x1, double y, double w, const char *col) {
    cairo_move_to(c->cr, x0, y);
    cairo_line_to(c->cr, x1, y);
    cairo_set_line_width(c->cr, w);
    color(c, col);
    cairo_stroke(c->cr);
}

static void rrect(cairo_t *cr, double x, double y, double w, double h, double r) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

/* ------------------------------------------------------------------ charts (origin = block top-left) */
static void axes_frame(Ctx *c, double W, double H, int ymax, int ystep) {
    double x0 = PL, x1 = W - PR, yt = PT, yb = H - PB;
    char buf[16];
    for (int v = 0; v <= ymax; v += ystep) {
        double y = yb - (double)v / ymax * (yb - yt);
        hline(c, x0, x1, y, 0.5, C_GRID);
        snprintf(buf, sizeof buf, "%d", v);
        text(c, x0 - 3, y + 3, buf, F_CHART, C_AXIS, 2);
    }
    cairo_move_to(c->cr, x0, yt);
    cairo_line_to(c->cr, x0, yb);
    cairo_line_to(c->cr, x1, yb);
    cairo_set_line_width(c->cr, 0.5);
    color(c, C_AXIS);
    cairo_stroke(c->cr);
}

static void titles(Ctx *c, double W, double H, const char *xt, const char *yt_) {
    double x0 = PL, x1 = W - PR, yt = PT, yb = H - PB;
    text(c, (x0 + x1) / 2, H - 1.5 * MM, xt, F_CHART, C_AXIS, 1);
    cairo_save(c->cr);
    cairo_translate(c->cr, 3 * MM + 4, (yb + yt) / 2);
    cairo_rotate(c->cr, -M_PI / 2);
    pango_cairo_update_layout(c->cr, c->lay);
    text(c, 0, 0, yt_, F_CHART, C_AXIS, 1);
    cairo_restore(c->cr);
    pango_cairo_update_layout(c->cr, c->lay);
}

static void legend_right(Ctx *c, double W, const char **cols, const char **names, int n) {
    double x = W - 2 * MM, y = 1 * MM + 7;   /* baseline */
    for (int i = n - 1; i >= 0; i--) {
        double tw = text_width(c, names[i], F_CHART);
        x -= tw;
        text(c, x, y, names[i], F_CHART, C_TEXT, 0);
        x -= 4 + 7;
        color(c, cols[i]);
        cairo_rectangle(c->cr, x, y - 6.5, 7, 7);
        cairo_fill(c->cr);
        x -= 8;
    }
}

static void vlegend(Ctx *c, double x, double y, const char **cols, char names[][64], int n) {
    for (int i = 0; i < n; i++) {
        double yy = y + i * 10;
        color(c, cols[i]);
        cairo_rectangle(c->cr, x, yy - 6.5, 7, 7);
        cairo_fill(c->cr);
        text(c, x + 11, yy, names[i], F_CHART, C_TEXT, 0);
    }
}

static void bar_chart(Ctx *c, const Patient *p) {
    double W = CONTENT_W, H = 60 * MM;
    axes_frame(c, W, H, 10, 2);
    double x0 = PL, x1 = W - PR, yt = PT, yb = H - PB, ph = yb - yt;
    double cw = (x1 - x0) / p->ndays, bw = (cw - 12) / 2;
    char buf[16];
    for (int i = 0; i < p->ndays; i++) {
        for (int j = 0; j < 2; j++) {
            double v = j ? p->adh[i] * 10 : p->pain[i];
            double x = x0 + i * cw + 5 + j * (bw + 2), h = v / 10 * ph;
            color(c, j ? C_ADH : C_PAIN);
            cairo_rectangle(c->cr, x, yb - h, bw, h);
            cairo_fill(c->cr);
            if (j) snprintf(buf, sizeof buf, "%.1f", v);
            else snprintf(buf, sizeof buf, "%g", v);
            text(c, x + bw / 2, yb - h - 3, buf, F_CHART7, C_TEXT, 1);
        }
        text(c, x0 + (i + 0.5) * cw, yb + 10, p->days[i], F_CHART, C_TEXT, 1);
    }
    titles(c, W, H, "Day", "Score (0–10)");
    const char *cols[] = {C_PAIN, C_ADH}, *names[] = {"Pain", "Medication adherence"};
    legend_right(c, W, cols, names, 2);
}

static void curve(cairo_t *cr, const double *px, const double *py, int n) {
    cairo_move_to(cr, px[0], py[0]);
    for (int i = 0; i < n - 1; i++) {
        int i0 = i > 0 ? i - 1 : i, i3 = i + 2 < n ? i + 2 : i + 1;
        cairo_curve_to(cr, px[i] + (px[i + 1] - px[i0]) / 6, py[i] + (py[i + 1] - py[i0]) / 6,
                       px[i + 1] - (px[i3] - px[i]) / 6, py[i + 1] - (py[i3] - py[i]) / 6, px[i + 1], py[i + 1]);
    }
}

static void line_chart(Ctx *c, const Patient *p) {
    double W = CONTENT_W, H = 65 * MM;
    axes_frame(c, W, H, 210, 30);
    double x0 = PL, x1 = W - PR, yt = PT, yb = H - PB, pw = x1 - x0, ph = yb - yt;
    char buf[16];
    for (int t = 0; t <= 3000; t += 500) {
        double x = x0 + t / 3000.0 * pw;
        cairo_move_to(c->cr, x, yb);
        cairo_line_to(c->cr, x, yb + 2);
        cairo_set_line_width(c->cr, 0.5);
        color(c, C_AXIS);
        cairo_stroke(c->cr);
        snprintf(buf, sizeof buf, "%d", t);
        text(c, x, yb + 10, buf, F_CHART, C_AXIS, 1);
    }
    static double px[MAXHR], py[MAXHR];
    for (int s = 0; s < 2; s++) {
        const double *v = s ? p->hr_act : p->hr_exp;
        for (int i = 0; i < p->nhr; i++) {
            px[i] = x0 + p->hr_t[i] / 3000.0 * pw;
            py[i] = yb - v[i] / 210.0 * ph;
        }
        curve(c->cr, px, py, p->nhr);
        cairo_set_line_width(c->cr, 1.2);
        static const double dash[] = {3, 2};
        cairo_set_dash(c->cr, dash, s ? 0 : 2, 0);
        color(c, s ? C_ACTUAL : C_EXPECTED);
        cairo_stroke(c->cr);
    }
    double y = yb - 160.0 / 210 * ph;
    static const double dash2[] = {4, 3};
    cairo_set_dash(c->cr, dash2, 2, 0);
    hline(c, x0, x1, y, 1, C_THRESH);
    cairo_set_dash(c->cr, NULL, 0, 0);
    text(c, x1 - 2, y - 2, "Threshold 160 bpm", F_CHART7, C_THRESH, 2);
    titles(c, W, H, "Elapsed time (s)", "Heart rate (bpm)");
    const char *cols[] = {C_EXPECTED, C_ACTUAL}, *names[] = {"Expected", "Actual"};
    legend_right(c, W, cols, names, 2);
}

static void activity(Ctx *c, const Patient *p) {
    double H = 55 * MM, r = 22 * MM, cx = 8 * MM + r, cy = H / 2, total = 0;
    char buf[80];
    for (int i = 0; i < p->nshare; i++) total += p->share[i];
    double a = -M_PI / 2;
    RGB white = {1, 1, 1};
    for (int i = 0; i < p->nshare; i++) {
        double b = a + 2 * M_PI * p->share[i] / total;
        cairo_move_to(c->cr, cx, cy);
        cairo_arc(c->cr, cx, cy, r, a, b);
        cairo_close_path(c->cr);
        color(c, PIE_COLORS[i]);
        cairo_fill_preserve(c->cr);
        cairo_set_source_rgb(c->cr, white.r, white.g, white.b);
        cairo_set_line_width(c->cr, 1);
        cairo_stroke(c->cr);
        double m = (a + b) / 2;
        snprintf(buf, sizeof buf, "%.0f%%", 100 * p->share[i] / total);
        text(c, cx + 0.65 * r * cos(m), cy + 0.65 * r * sin(m) + 3, buf, F_PIE, "#FFFFFF", 1);
        a = b;
    }
    vlegend(c, 58 * MM, H / 2 - 12, PIE_COLORS, (char (*)[64])p->share_names, p->nshare);
    double rcx = 118 * MM;
    char names[3][64];
    for (int i = 0; i < p->nrings; i++) {
        double rr = (23 - 6 * i) * MM;
        cairo_new_sub_path(c->cr);
        cairo_arc(c->cr, rcx, cy, rr, 0, 2 * M_PI);
        cairo_set_line_width(c->cr, 5 * MM);
        color(c, RING_TRACKS[i]);
        cairo_stroke(c->cr);
        cairo_new_sub_path(c->cr);
        cairo_arc(c->cr, rcx, cy, rr, -M_PI / 2, -M_PI / 2 + 2 * M_PI * p->rings[i]);
        cairo_set_line_cap(c->cr, CAIRO_LINE_CAP_ROUND);
        color(c, RING_COLORS[i]);
        cairo_stroke(c->cr);
        cairo_set_line_cap(c->cr, CAIRO_LINE_CAP_BUTT);
        snprintf(names[i], 64, "%s %.0f%%", p->ring_names[i], round(p->rings[i] * 100));
    }
    vlegend(c, 146 * MM, H / 2 - 12, RING_COLORS, names, p->nrings);
}

static void stress(Ctx *c, const Patient *p) {
    double W = CONTENT_W, H = 50 * MM;
    axes_frame(c, W, H, 10, 2);
    double x0 = PL, x1 = W - PR, yt = PT, yb = H - PB, ph = yb - yt, cw = (x1 - x0) / p->ndays;
    for (int i = 0; i < p->ndays; i++) {
        double x = x0 + (i + 0.5) * cw, ylo = yb - p->slo[i] / 10 * ph, yhi = yb - p->shi[i] / 10 * ph;
        color(c, C_STRESS);
        cairo_move_to(c->cr, x, ylo);
        cairo_line_to(c->cr, x, yhi);
        cairo_set_line_width(c->cr, 3);
        cairo_set_line_cap(c->cr, CAIRO_LINE_CAP_ROUND);
        cairo_stroke(c->cr);
        cairo_set_line_cap(c->cr, CAIRO_LINE_CAP_BUTT);
        cairo_new_sub_path(c->cr);
        cairo_arc(c->cr, x, ylo, 3.5, 0, 2 * M_PI);
        cairo_new_sub_path(c->cr);
        cairo_arc(c->cr, x, yhi, 3.5, 0, 2 * M_PI);
        cairo_fill(c->cr);
        text(c, x, yb + 10, p->days[i], F_CHART, C_TEXT, 1);
    }
    titles(c, W, H, "Day", "Stress (0–10)");
}

/* ------------------------------------------------------------------ blocks and pagination */
enum { B_TITLE, B_LOGO, B_SUB, B_WIDGETS, B_MSG, B_BAR, B_LINE, B_ACT, B_STRESS, B_MEDS, B_PARA, B_APPX,
       B_BREAK };
typedef struct {
    int kind;
    double h, before, after;
    int keep;                   /* keep with next */
    const char *text;
    const Patient *p;
    PangoLayout *lay, *lay2;    /* pre-laid-out paragraphs */
    const char *header;
    int row0, row1;             /* appendix rows */
    int page;
    double y;
} Block;

typedef struct {
    Block *b;
    int n, cap;
} Blocks;

static Block *add(Blocks *bs, int kind, double h, double before, double after, const char *header) {
    if (bs->n == bs->cap) {
        bs->cap = bs->cap ? 2 * bs->cap : 64;
        bs->b = realloc(bs->b, bs->cap * sizeof(Block));
    }
    Block *b = &bs->b[bs->n++];
    memset(b, 0, sizeof *b);
    b->kind = kind; b->h = h; b->before = before; b->after = after; b->header = header;
    return b;
}

static const char *SUBTITLES[] = {"Key metrics", "Pain and medication", "Heart rate", "Activity",
                                  "Stress range", "Medications", "Care team notes"};
#define SUB_H 16.5
#define TITLE_H 26.0
#define MED_ROW 20.0
#define APPX_ROW 14.8

static double mean(const double *a, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s / n;
}

static void sub(Blocks *bs, int i, const char *hdr) {
    Block *b = add(bs, B_SUB, SUB_H, 5 * MM, 2.5 * MM, hdr);
    b->text = SUBTITLES[i];
    b->keep = 1;
}

typedef struct { char msg[512]; char w[3][32]; } Derived;

static void patient_blocks(Ctx *c, Blocks *bs, const Patient *p, Derived *dv) {
    const char *h = p->header;
    double adh = mean(p->adh, p->ndays) * 100;
    long steps = 0;
    for (int i = 0; i < p->ndays; i++) steps += p->steps[i];
    snprintf(dv->w[0], 32, "%.1f / 10", mean(p->pain, p->ndays));
    snprintf(dv->w[1], 32, "%.0f%%", adh);
    char digits[32];
    int nd = snprintf(digits, sizeof digits, "%ld", steps), k = 0;
    for (int i = 0; i < nd; i++) {
        if (i && (nd - i) % 3 == 0) dv->w[2][k++] = ',';
        dv->w[2][k++] = digits[i];
    }
    dv->w[2][k] = 0;
    snprintf(dv->msg, sizeof dv->msg, "Mean medication adherence this week was %.0f%%. Taking medications on "
             "schedule helps keep pain under control; try setting a reminder for the evening doses.", adh);

    add(bs, B_TITLE, TITLE_H, 0, 4 * MM, h)->text = "Weekly Care Summary";
    add(bs, B_LOGO, 20 * MM, 0, 0, h);
    sub(bs, 0, h);
    add(bs, B_WIDGETS, 20 * MM, 0, 0, h)->p = p;
    double th, bh;
    Block *m = add(bs, B_MSG, 0, 4 * MM, 0, h);
    m->lay = para(c, "Medication Adherence", F_MSGT, CONTENT_W - 18, 15, &th);
    m->lay2 = para(c, dv->msg, F_BODY, CONTENT_W - 18, 14, &bh);
    m->h = 6 + th + bh + 8;
    sub(bs, 1, h); add(bs, B_BAR, 60 * MM, 0, 0, h)->p = p;
    sub(bs, 2, h); add(bs, B_LINE, 65 * MM, 0, 0, h)->p = p;
    sub(bs, 3, h); add(bs, B_ACT, 55 * MM, 0, 0, h)->p = p;
    sub(bs, 4, h); add(bs, B_STRESS, 50 * MM, 0, 0, h)->p = p;
    sub(bs, 5, h); add(bs, B_MEDS, MED_ROW * (p->nmeds + 1), 0, 0, h)->p = p;
    sub(bs, 6, h);
    for (int i = 0; i < p->nnotes; i++) {
        Block *b = add(bs, B_PARA, 0, 0, 6, h);
        b->lay = para(c, p->notes[i], F_BODY, CONTENT_W, 14, &b->h);
    }
}

/* assign page and y to every block; appendix blocks are split into page-sized chunks */
static int paginate(Blocks *in, Blocks *out, int appx_rows) {
    int page = 0;
    double y = 0;
    for (int i = 0; i < in->n; i++) {
        Block *b = &in->b[i];
        if (b->kind == B_BREAK) { page++; y = 0; continue; }
        if (b->kind == B_APPX) {
            int r = 0;
            while (r < appx_rows) {
                double avail = CONTENT_H - y - APPX_ROW;   /* header row repeated */
                int fit = (int)(avail / APPX_ROW);
                if (fit < 1) { page++; y = 0; continue; }
                if (fit > appx_rows - r) fit = appx_rows - r;
                Block *o = add(out, B_APPX, APPX_ROW * (fit + 1), 0, 0, b->header);
                o->row0 = r; o->row1 = r + fit; o->page = page; o->y = y;
                r += fit;
                y += o->h;
                if (r < appx_rows) { page++; y = 0; }
            }
            continue;
        }
        double before = y > 0 ? b->before : 0;
        double need = before + b->h;
        if (b->keep && i + 1 < in->n) need += in->b[i + 1].before + in->b[i + 1].h;
        if (y > 0 && y + need > CONTENT_H) { page++; y = 0; before = 0; }
        Block *o = add(out, 0, 0, 0, 0, NULL);
        *o = *b;
        o->page = page;
        o->y = y + before;
        y = o->y + b->h + b->after;
    }
    return page + 1;
}

typedef struct { const Patient **ps; int n; } Appx;

static void draw_block(Ctx *c, Block *b, const Derived *dv, const Appx *ax) {
    cairo_t *cr = c->cr;
    cairo_save(cr);
    cairo_translate(cr, MARGIN, MARGIN + b->y);
    pango_cairo_update_layout(cr, c->lay);
    const Patient *p = b->p;
    switch (b->kind) {
    case B_TITLE: text(c, 0, 21, b->text, F_TITLE, C_TEXT, 0); break;
    case B_SUB: text(c, 0, 13.5, b->text, F_SUB, C_TEXT, 0); break;
    case B_LOGO:
        cairo_scale(cr, 60 * MM / 240.0, 20 * MM / 80.0);
        cairo_set_source_surface(cr, LOGO, 0, 0);
        cairo_paint(cr);
        break;
    case B_WIDGETS: {
        double w = (CONTENT_W - 10 * MM) / 3;
        static const char *t[] = {"Average pain", "Medication adherence", "Total steps"};
        for (int i = 0; i < 3; i++) {
            double x = i * (w + 5 * MM);
            rrect(cr, x, 0, w, 20 * MM, 2 * MM);
            color(c, C_WIDGET_BG);
            cairo_fill(cr);
            text(c, x + 3 * MM, 3 * MM + 7, t[i], F_SMALL, C_MUTED, 0);
            text(c, x + 3 * MM, 20 * MM - 4 * MM, dv->w[i], F_VALUE, C_TEXT, 0);
        }
        break;
    }
    case B_MSG: {
        int w, h;
        color(c, C_MSG_BG);
        cairo_rectangle(cr, 0, 0, CONTENT_W, b->h);
        cairo_fill(cr);
        color(c, C_MSG_BAR);
        cairo_rectangle(cr, 0, 0, 4, b->h);
        cairo_fill(cr);
        color(c, C_TEXT);
        pango_cairo_update_layout(cr, b->lay);
        cairo_move_to(cr, 10, 6);
        pango_cairo_show_layout(cr, b->lay);
        pango_layout_get_size(b->lay, &w, &h);
        pango_cairo_update_layout(cr, b->lay2);
        cairo_move_to(cr, 10, 6 + h / (double)PANGO_SCALE);
        pango_cairo_show_layout(cr, b->lay2);
        break;
    }
    case B_BAR: bar_chart(c, p); break;
    case B_LINE: line_chart(c, p); break;
    case B_ACT: activity(c, p); break;
    case B_STRESS: stress(c, p); break;
    case B_MEDS: {
        static const double cw[] = {60 * MM, 30 * MM, 45 * MM, 35 * MM};
        static const char *hd[] = {"Name", "Dose", "Schedule", "Taken"};
        color(c, C_THEAD);
        cairo_rectangle(cr, 0, 0, CONTENT_W, MED_ROW);
        cairo_fill(cr);
        for (int r = 0; r <= p->nmeds; r++) {
            double x = 0, y = r * MED_ROW;
            for (int k = 0; k < 4; k++) {
                text(c, x + 6, y + 4 + 10.5, r ? p->meds[r - 1][k] : hd[k], r ? F_BODY : F_BOLD10, C_TEXT, 0);
                x += cw[k];
            }
            hline(c, 0, CONTENT_W, y + MED_ROW, 0.5, C_LINE);
        }
        break;
    }
    case B_PARA:
        color(c, C_TEXT);
        pango_cairo_update_layout(cr, b->lay);
        cairo_move_to(cr, 0, 0);
        pango_cairo_show_layout(cr, b->lay);
        break;
    case B_APPX: {
        static const double cw[] = {60 * MM, 35 * MM, 37.5 * MM, 37.5 * MM};
        static const char *hd[] = {"Patient", "Elapsed (s)", "Expected (bpm)", "Actual (bpm)"};
        char cells[4][160];
        color(c, C_THEAD);
        cairo_rectangle(cr, 0, 0, CONTENT_W, APPX_ROW);
        cairo_fill(cr);
        for (int r = b->row0 - 1; r < b->row1; r++) {
            double x = 0, y = (r - b->row0 + 1) * APPX_ROW;
            if (r >= 0) {
                const Patient *q = ax->ps[r / ax->ps[0]->nhr];
                int s = r % ax->ps[0]->nhr;
                snprintf(cells[0], 160, "%s", q->name);
                snprintf(cells[1], 160, "%.0f", q->hr_t[s]);
                snprintf(cells[2], 160, "%.1f", q->hr_exp[s]);
                snprintf(cells[3], 160, "%.1f", q->hr_act[s]);
            }
            for (int k = 0; k < 4; k++) {
                text(c, x + 4, y + 2 + 9, r < 0 ? hd[k] : cells[k], r < 0 ? F_APPXB : F_APPX, C_TEXT, 0);
                x += cw[k];
            }
            hline(c, 0, CONTENT_W, y + APPX_ROW, 0.25, C_LINE);
        }
        break;
    }
    }
    cairo_restore(cr);
}

static void furniture(Ctx *c, const char *header, int page, int total) {
    char buf[64];
    text(c, MARGIN, 12 * MM, header, F_SMALL, C_MUTED, 0);
    hline(c, MARGIN, PAGE_W - MARGIN, 14.5 * MM, 0.5, C_LINE);
    snprintf(buf, sizeof buf, "Page %d of %d", page, total);
    text(c, PAGE_W / 2, PAGE_H - 11 * MM, buf, F_SMALL, C_MUTED, 1);
}

/* ------------------------------------------------------------------ document */
typedef struct { unsigned char *d; size_t n, cap; } Buf;

static cairo_status_t buf_write(void *closure, const unsigned char *data, unsigned int len) {
    Buf *b = closure;
    if (b->n + len > b->cap) {
        while (b->n + len > b->cap) b->cap = b->cap ? 2 * b->cap : 65536;
        b->d = realloc(b->d, b->cap);
    }
    memcpy(b->d + b->n, data, len);
    b->n += len;
    return CAIRO_STATUS_SUCCESS;
}

/* render patients (and an appendix over appx patients when nappx > 0) into buf */
static int render(const Patient **ps, int np, const Patient **appx, int nappx, Buf *out) {
    out->n = 0;
    cairo_surface_t *s = cairo_pdf_surface_create_for_stream(buf_write, out, PAGE_W, PAGE_H);
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, "Weekly Care Summary");
    Ctx c;
    c.cr = cairo_create(s);
    c.pc = pango_cairo_create_context(c.cr);
    c.lay = pango_layout_new(c.pc);
    Blocks in = {0}, pg = {0};
    Derived *dv = calloc(np, sizeof(Derived));
    for (int i = 0; i < np; i++) {
        if (i) add(&in, B_BREAK, 0, 0, 0, NULL);
        int first = in.n;
        patient_blocks(&c, &in, ps[i], &dv[i]);
        for (int k = first; k < in.n; k++) in.b[k].row0 = i;   /* patient index for Derived */
    }
    int appx_rows = 0;
    if (nappx) {
        for (int i = 0; i < nappx; i++) appx_rows += appx[i]->nhr;
        add(&in, B_BREAK, 0, 0, 0, NULL);
        add(&in, B_TITLE, TITLE_H, 0, 4 * MM, "Appendix: heart-rate samples")->text = "Appendix: heart-rate samples";
        add(&in, B_APPX, 0, 0, 0, "Appendix: heart-rate samples");
    }
    int pages = paginate(&in, &pg, appx_rows);
    Appx ax = {appx, nappx};
    int cur = -1;
    for (int i = 0; i < pg.n; i++) {
        Block *b = &pg.b[i];
        if (b->page != cur) {
            if (cur >= 0) cairo_show_page(c.cr);
            cur = b->page;
            furniture(&c, b->header, cur + 1, pages);
        }
        draw_block(&c, b, b->kind == B_APPX ? NULL : &dv[b->row0], &ax);
    }
    cairo_show_page(c.cr);
    for (int i = 0; i < in.n; i++) {
        if (in.b[i].lay) g_object_unref(in.b[i].lay);
        if (in.b[i].lay2) g_object_unref(in.b[i].lay2);
    }
    free(in.b); free(pg.b); free(dv);
    g_object_unref(c.lay);
    g_object_unref(c.pc);
    cairo_destroy(c.cr);
    cairo_surface_finish(s);
    int st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    return st == CAIRO_STATUS_SUCCESS ? 0 : -1;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int write_file(const char *path, Buf *b) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(b->d, 1, b->n, f);
    fclose(f);
    return w == b->n ? 0 : -1;
}

/* read `count` lines of the jsonl from `start`; returns number parsed, errors reported */
static Patient *load_patients(int start, int count, int *nout) {
    FILE *f = fopen(DATA_DIR "/patients-1000.jsonl", "r");
    Patient *ps = calloc(count, sizeof(Patient));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int i = 0, n = 0;
    while ((len = getline(&line, &cap, f)) > 0 && i < start + count) {
        if (i >= start && parse_patient(line, len, &ps[n]) == 0) n++;
        i++;
    }
    free(line);
    fclose(f);
    *nout = n;
    return ps;
}

int main(int argc, char **argv) {
    double t_start = now();
    if (argc < 3) { fprintf(stderr, "usage: see source\n"); return 2; }
    init_resources();
    const char *mode = argv[1];
    Buf out = {0};
    if (!strcmp(mode, "w1")) {
        size_t len;
        char *txt = slurp(DATA_DIR "/weekly-summary.json", &len);
        Patient *p = calloc(1, sizeof *p);
        if (!txt || parse_patient(txt, len, p)) { fprintf(stderr, "bad W1 data\n"); return 1; }
        const Patient *pp = p;
        double t0 = now();
        render(&pp, 1, NULL, 0, &out);
        double t1 = now();
        write_file(argv[2], &out);
        printf("{\"tool\": \"cairo\", \"mode\": \"w1\", \"render_s\": %.6f, \"bytes\": %zu, \"total_in_process_s\": %.6f}\n",
               t1 - t0, out.n, now() - t_start);
    } else if (!strcmp(mode, "w1loop") || !strcmp(mode, "w1cycle")) {
        int n = atoi(argv[2]), warm = argc > 3 ? atoi(argv[3]) : 5, np;
        Patient *ps;
        if (!strcmp(mode, "w1loop")) {
            size_t len;
            char *txt = slurp(DATA_DIR "/weekly-summary.json", &len);
            ps = calloc(1, sizeof *ps);
            if (!txt || parse_patient(txt, len, ps)) return 1;
            np = 1;
        } else {
            ps = load_patients(0, 50, &np);
        }
        double *ts = malloc(n * sizeof(double));
        for (int i = 0; i < warm + n; i++) {
            const Patient *pp = &ps[i % np];
            double t0 = now();
            render(&pp, 1, NULL, 0, &out);
            if (i >= warm) ts[i - warm] = now() - t0;
        }
        double sum = 0;
        for (int i = 0; i < n; i++) sum += ts[i];
        qsort(ts, n, sizeof(double), cmpd);
        printf("{\"tool\": \"cairo\", \"mode\": \"%s\", \"n\": %d, \"median_s\": %.6f, \"min_s\": %.6f, \"max_s\": %.6f, "
               "\"mean_s\": %.6f, \"bytes\": %zu}\n", mode, n, ts[n / 2], ts[0], ts[n - 1], sum / n, out.n);
    } else if (!strcmp(mode, "w2")) {
        int npat = atoi(argv[2]), np;
        Patient *ps = load_patients(0, npat, &np);
        const Patient **pp = malloc(np * sizeof *pp);
        for (int i = 0; i < np; i++) pp[i] = &ps[i];
        double t0 = now();
        render(pp, np, pp, np < 10 ? np : 10, &out);
        double t1 = now();
        write_file(argv[3], &out);
        printf("{\"tool\": \"cairo\", \"mode\": \"w2\", \"render_s\": %.6f, \"bytes\": %zu, \"total_in_process_s\": %.6f}\n",
               t1 - t0, out.n, now() - t_start);
    } else if (!strcmp(mode, "w3")) {
        int start = atoi(argv[2]), count = atoi(argv[3]), ok = 0, bad = 0, i = 0;
        const char *dir = argv[4];
        mkdir(dir, 0755);
        FILE *f = fopen(DATA_DIR "/patients-1000.jsonl", "r");
        char *line = NULL, path[4096];
        size_t cap = 0;
        ssize_t len;
        Patient *p = malloc(sizeof *p);
        double t0 = now();
        while ((len = getline(&line, &cap, f)) > 0 && i < start + count) {
            if (i >= start) {
                const Patient *pp = p;
                snprintf(path, sizeof path, "%s/p%04d.pdf", dir, i);
                if (parse_patient(line, len, p) == 0 && render(&pp, 1, NULL, 0, &out) == 0 &&
                    write_file(path, &out) == 0)
                    ok++;
                else {
                    bad++;
                    fprintf(stderr, "line %d failed\n", i);
                }
            }
            i++;
        }
        printf("{\"tool\": \"cairo\", \"mode\": \"w3\", \"loop_s\": %.6f, \"ok\": %d, \"bad\": %d, \"total_in_process_s\": %.6f}\n",
               now() - t0, ok, bad, now() - t_start);
    }
    return 0;
}
