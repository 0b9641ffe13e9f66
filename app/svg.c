#include "svg.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "layout/layout.h"
#include "model/units.h"
#include "text.h"
#include "wfile.h"

const svg_role_t SVG_ARENA_ROLES[ROLE_COUNT] = {
    { "resident", "#4e79a7" },              /* blue */
    { "intermediate (pinned)", "#b07aa1" }, /* magenta */
    { "output", "#59a14f" },                /* green */
    { "candidate", "#48a9a6" },             /* cyan */
    { "rejected preference", "#e15759" },   /* red */
};
const svg_role_t SVG_PLAIN_ROLE[1] = { { "buffer", "#4e79a7" } };

#define PEAK_COLOUR "#c0392b"
#define BUDGET_COLOUR "#d68910"
#define ARENA_COLOUR "#333333"
/* a white outline under a label drawn over the buffers keeps it legible */
#define LABEL_PX 12 /* the font size of the labels */
#define HALO "stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\""

/* s as XML character data or attribute text: what text_escape shows
 * escaped (control bytes, invalid UTF-8, surrogates, which XML cannot
 * hold) first, U+FFFE and U+FFFF (valid UTF-8, not XML characters) the
 * same way, then the five markup characters as entities. */
static void xml_cut(FILE *f, const char *s, int max_chars)
{
    char safe[1024];
    text_escape(s, safe, sizeof safe);
    int chars = 0;
    for (const char *p = safe; *p; p++) {
        if (((unsigned char)*p & 0xC0) != 0x80 && max_chars > 0 && ++chars > max_chars) {
            fputs("\xe2\x80\xa6", f); /* an ellipsis where a line would run off the picture */
            break;
        }
        if ((unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBF && ((unsigned char)p[2] & 0xFE) == 0xBE) {
            fprintf(f, "\\xef\\xbf\\x%02x", (unsigned char)p[2]);
            p += 2;
            continue;
        }
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(*p, f);
        }
    }
}

static void xml(FILE *f, const char *s) { xml_cut(f, s, 0); }

/* A byte tick's label: ticks step by a power of two, so in the largest
 * binary unit not above the step every label is whole. */
static void tick_label(int64_t v, int64_t step, char *buf, size_t n)
{
    static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int k = 0;
    int64_t u = 1;
    while (k < 6 && step / 1024 >= u) {
        u *= 1024;
        k++;
    }
    if (v == 0)
        snprintf(buf, n, "0");
    else
        snprintf(buf, n, "%lld %s", (long long)(v / u), unit[k]);
}

/* Neighbours of one role tell apart by shade, as memory_viz gives each
 * allocation its colour: the role's colour mixed with white by 0, 20 or
 * 40 %, chosen by node. */
static void shade(const char *hex, int32_t node, char out[8])
{
    unsigned rgb = 0;
    sscanf(hex + 1, "%6x", &rgb);
    int mix = (int)(node % 3) * 20;
    unsigned c[3] = { rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb & 0xff };
    for (int i = 0; i < 3; i++)
        c[i] += (255 - c[i]) * (unsigned)mix / 100;
    snprintf(out, 8, "#%02x%02x%02x", (unsigned char)c[0], (unsigned char)c[1], (unsigned char)c[2]);
}

static void write_rects(FILE *f, const svg_arena_t *a, const picture_t *p, const char *id)
{
    fprintf(f, "<g id=\"%s\" shape-rendering=\"crispEdges\">\n", id);
    for (int32_t k = 0; k < p->n_rects; k++) {
        const picture_rect_t *r = &p->rects[k];
        const view_buf_t *b = &a->bufs[r->buf];
        char size[64], fill[8];
        units_format_bytes_exact(r->bytes, size, sizeof size); /* under 1 KiB once: "64 B" */
        shade(a->roles[r->role].fill, b->node, fill);
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"%s><title>", (int)r->x, (int)r->y,
                (int)r->w, (int)r->h, fill,
                r->w >= 4 && r->h >= 4 ? " stroke=\"#ffffff\" stroke-width=\"0.5\"" : "");
        if (r->count == 1) {
            xml(f, a->name(a->ud, b->node));
            fprintf(f, ": %s, steps %lld-%lld, offset %lld, %s", size, (long long)b->start, (long long)b->end,
                    (long long)b->offset, a->roles[r->role].name);
            char note[600];
            if (a->note && a->note(a->ud, b->node, note, sizeof note)[0]) {
                fputs(", ", f);
                xml(f, note);
            }
        } else {
            fprintf(f, "%d %s buffers under a pixel: %s in all; the first ", (int)r->count, a->roles[r->role].name,
                    size);
            xml(f, a->name(a->ud, b->node));
            fprintf(f, ", steps %lld-%lld, offset %lld", (long long)b->start, (long long)b->end, (long long)b->offset);
        }
        fputs("</title></rect>\n", f);
    }
    fputs("</g>\n", f);
}

/* The display width of name in pixels at LABEL_PX - 1 (about 6.5 px a
 * character; digits and most letters are narrower than that in DejaVu). */
static int32_t text_px(const char *s)
{
    int32_t n = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        n += (*c & 0xC0) != 0x80;
    return n * 13 / 2 + 6;
}

/* Writes name and size on each rectangle of one buffer wide enough to hold
 * them, or tall enough turned upright (a buffer of three steps at the peak
 * is tall and narrow); the name alone where only it fits. */
static void write_labels(FILE *f, const svg_arena_t *a, const picture_t *p, const char *id)
{
    fprintf(f, "<g id=\"%s\" fill=\"#ffffff\" font-size=\"%d\">\n", id, LABEL_PX - 1);
    for (int32_t k = 0; k < p->n_rects; k++) {
        const picture_rect_t *r = &p->rects[k];
        if (r->count != 1 || (r->w < 16 && r->h < 16))
            continue;
        char size[32], text[320], safe[256];
        units_format_bytes(r->bytes, size, sizeof size);
        text_escape(a->name(a->ud, a->bufs[r->buf].node), safe, sizeof safe);
        snprintf(text, sizeof text, "%s %s", safe, size);
        for (int form = 0; form < 2; form++) { /* name and size, else the name */
            const char *t = form ? safe : text;
            int32_t tw = text_px(t);
            bool flat = r->w >= tw && r->h >= LABEL_PX + 4, up = !flat && r->h >= tw && r->w >= LABEL_PX + 4;
            if (!flat && !up)
                continue;
            if (flat)
                fprintf(f, "<text x=\"%d\" y=\"%d\">", (int)r->x + 3, (int)r->y + LABEL_PX + 1);
            else
                fprintf(f, "<text transform=\"translate(%d %d) rotate(-90)\">", (int)(r->x + r->w / 2 + 4),
                        (int)(r->y + r->h - 3));
            xml(f, t);
            fputs("</text>\n", f);
            break;
        }
    }
    fputs("</g>\n", f);
}

/* The peak step's dashed line, drawn under the buffers: over them it hid
 * a buffer a pixel wide, and the peak looked empty. */
static void write_peak_line(FILE *f, const picture_t *p)
{
    if (p->peak_x >= 0)
        fprintf(f,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\" "
                "stroke-dasharray=\"4 3\"/>\n",
                (int)p->peak_x, (int)p->plot_y, (int)p->peak_x, (int)(p->plot_y + p->plot_h), PEAK_COLOUR);
}

static void write_axes(FILE *f, const picture_t *p, const char *id)
{
    int32_t x0 = p->plot_x, x1 = p->plot_x + p->plot_w, y0 = p->plot_y, y1 = p->plot_y + p->plot_h;
    fprintf(f, "<g id=\"%s\" stroke=\"#e6e6e6\" stroke-width=\"1\" shape-rendering=\"crispEdges\">\n", id);
    for (int i = 0; i < p->n_yticks; i++)
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", (int)x0, (int)p->yticks[i].pos, (int)x1,
                (int)p->yticks[i].pos);
    for (int i = 0; i < p->n_xticks; i++)
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", (int)p->xticks[i].pos, (int)y0,
                (int)p->xticks[i].pos, (int)y1);
    fputs("</g>\n", f);
}

static void write_axis_labels(FILE *f, const picture_t *p)
{
    int32_t x0 = p->plot_x, y1 = p->plot_y + p->plot_h;
    fputs("<g id=\"axes\" fill=\"#333333\">\n", f);
    fprintf(f, "<path d=\"M%d %dV%dH%d\" stroke=\"#333333\" fill=\"none\" shape-rendering=\"crispEdges\"/>\n",
            (int)x0, (int)p->plot_y, (int)y1, (int)(x0 + p->plot_w));
    for (int i = 0; i < p->n_yticks; i++) {
        char lbl[32];
        tick_label(p->yticks[i].value, p->ystep, lbl, sizeof lbl);
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", (int)x0 - 6,
                (int)p->yticks[i].pos + 4, lbl);
    }
    for (int i = 0; i < p->n_xticks; i++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%lld</text>\n", (int)p->xticks[i].pos,
                (int)y1 + 16, (long long)p->xticks[i].value);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">step</text>\n", (int)(x0 + p->plot_w / 2),
            (int)y1 + 36);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">offset</text>\n", (int)x0 - 6, (int)p->plot_y - 10);
    fputs("</g>\n", f);
}

/* A horizontal line across the plot with its label at the right end, above
 * the line or, when another label would sit on it, below. */
static void hline(FILE *f, const picture_t *p, int32_t y, const char *colour, bool dashed, const char *label,
                  bool below)
{
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\"%s/>\n",
            (int)p->plot_x, (int)y, (int)(p->plot_x + p->plot_w), (int)y, colour,
            dashed ? " stroke-dasharray=\"6 4\"" : "");
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"%s\" font-weight=\"bold\" " HALO ">%s</text>\n",
            (int)(p->plot_x + p->plot_w - 4), (int)y + (below ? LABEL_PX + 2 : -4), colour, label);
}

/* Whether a line at y, labelled above it, would put its label on the peak's
 * (which sits just over the plot): then the label goes under the line. */
static bool under_peak_label(const picture_t *p, int32_t y)
{
    return p->peak_x >= 0 && abs((int)((y - 4) - (p->plot_y - 6))) < LABEL_PX + 2;
}

static void write_lines(FILE *f, const svg_arena_t *a, const picture_t *p)
{
    char lbl[96], bytes[32];
    fputs("<g id=\"lines\">\n", f);
    /* two lines closer than a label's height: the lower one's label goes under it */
    bool close = p->total_y >= 0 && p->budget_y >= 0 && abs((int)(p->total_y - p->budget_y)) < LABEL_PX + 4;
    if (p->total_y >= 0) {
        units_format_bytes(a->frame.total, bytes, sizeof bytes);
        snprintf(lbl, sizeof lbl, "arena %s", bytes);
        hline(f, p, p->total_y, ARENA_COLOUR, false, lbl,
              (close && p->total_y > p->budget_y) || under_peak_label(p, p->total_y));
    }
    if (p->budget_y >= 0) {
        units_format_bytes(a->frame.budget, bytes, sizeof bytes);
        snprintf(lbl, sizeof lbl, "budget %s", bytes);
        hline(f, p, p->budget_y, BUDGET_COLOUR, true, lbl,
              (close && p->budget_y >= p->total_y) || under_peak_label(p, p->budget_y));
    }
    if (p->peak_x >= 0) {
        units_format_bytes(a->live_peak, bytes, sizeof bytes);
        bool right = p->peak_x < p->plot_x + p->plot_w / 2;
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\" fill=\"%s\" font-weight=\"bold\" " HALO ">peak @ step %lld: "
                "max live %s</text>\n",
                (int)p->peak_x + (right ? 4 : -4), (int)p->plot_y - 6, right ? "start" : "end", PEAK_COLOUR,
                (long long)a->frame.peak_step, bytes);
    }
    fputs("</g>\n", f);
}

static void write_legend(FILE *f, const svg_arena_t *a, const picture_t *p, bool beside_inset)
{
    int32_t y = p->plot_y + p->plot_h + PICTURE_BOTTOM_AXIS;
    fputs("<g id=\"legend\">\n", f);
    char text[PICTURE_MAX_ROLES][256];
    bool exact = true; /* beside the inset the columns are narrower: the exact bytes go when one would not fit */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < a->frame.n_roles; k++) {
            char bytes[64];
            (exact ? units_format_bytes_exact : units_format_bytes)(p->role_bytes[k], bytes, sizeof bytes);
            snprintf(text[k], sizeof text[k], "%s: %d buffer%s, %s", a->roles[k].name, (int)p->role_count[k],
                     p->role_count[k] == 1 ? "" : "s", bytes);
            if (pass == 0 && beside_inset && text_px(text[k]) + 24 > p->plot_w / 2)
                exact = false;
        }
    for (int k = 0; k < a->frame.n_roles; k++) {
        int32_t x = p->plot_x + (k % 2) * (p->plot_w / 2), ry = y + (k / 2) * PICTURE_LEGEND_ROW;
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", (int)x, (int)ry - 10,
                a->roles[k].fill);
        fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>\n", (int)x + 18, (int)ry, text[k]);
    }
    fputs("</g>\n", f);
    int32_t listed = 0;
    for (int k = 0; k < a->frame.n_roles; k++)
        listed += p->role_count[k];
    /* the legend counts every buffer; the picture draws those with bytes in
     * view.  One line within the picture's width: the 13.5k step's ran to
     * 1,500 px of 1,200 */
    char not_drawn[64] = "";
    if (listed > p->drawn)
        snprintf(not_drawn, sizeof not_drawn, ", %d empty or out of view", (int)(listed - p->drawn));
    fprintf(f,
            "<text x=\"%d\" y=\"%d\" fill=\"#666666\">%d buffer%s in %d rectangle%s (%d under a pixel merged%s); "
            "sizes aligned; role bytes summed over buffers; hover for a buffer</text>\n",
            (int)p->plot_x, (int)(a->frame.height_px - 10), (int)p->drawn, p->drawn == 1 ? "" : "s", (int)p->n_rects,
            p->n_rects == 1 ? "" : "s", (int)p->merged, not_drawn);
}

/* The buffers live at step, the biggest first (ties: the lower index):
 * up to max indices into a->bufs. */
static int peak_biggest(const svg_arena_t *a, int64_t step, int32_t *out, int max)
{
    int m = 0;
    for (int32_t i = 0; i < a->n && max > 0; i++) {
        const view_buf_t *b = &a->bufs[i];
        if (b->size <= 0 || b->start > step || b->end < step)
            continue;
        int k;
        if (m < max)
            k = m++;
        else if (b->size > a->bufs[out[max - 1]].size)
            k = max - 1;
        else
            continue;
        out[k] = i;
        for (; k > 0 && a->bufs[out[k - 1]].size < a->bufs[out[k]].size; k--) {
            int32_t x = out[k - 1];
            out[k - 1] = out[k];
            out[k] = x;
        }
    }
    return m;
}

/* The zoomed inset q beside the main plot: the steps around the peak with
 * their own axis, the buffers (each titled, labelled where they hold a
 * label), the arena and budget lines, and under it the biggest buffers at
 * the peak, named with their sizes and spans. */
static void write_inset(FILE *f, const svg_arena_t *a, const picture_frame_t *inset, const picture_t *q,
                        int caption_rows)
{
    int32_t x0 = q->plot_x, y0 = q->plot_y, y1 = q->plot_y + q->plot_h;
    fputs("<g id=\"inset\">\n", f);
    write_axes(f, q, "inset-grid");
    write_peak_line(f, q);
    write_rects(f, a, q, "inset-buffers");
    write_labels(f, a, q, "inset-labels");
    if (q->total_y >= 0)
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
                (int)x0, (int)q->total_y, (int)(x0 + q->plot_w), (int)q->total_y, ARENA_COLOUR);
    if (q->budget_y >= 0)
        fprintf(f,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\" "
                "stroke-dasharray=\"6 4\"/>\n",
                (int)x0, (int)q->budget_y, (int)(x0 + q->plot_w), (int)q->budget_y, BUDGET_COLOUR);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"%s\"/>\n", (int)x0,
            (int)y0, (int)q->plot_w, (int)q->plot_h, PEAK_COLOUR);
    fputs("<g fill=\"#333333\">\n", f);
    for (int i = 0; i < q->n_xticks; i++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%lld</text>\n", (int)q->xticks[i].pos,
                (int)y1 + 16, (long long)q->xticks[i].value);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">steps %lld-%lld around the peak; the biggest "
               "there:</text>\n",
            (int)(x0 + q->plot_w / 2), (int)y1 + 36, (long long)inset->step0, (long long)inset->step1 - 1);
    fputs("</g>\n", f);
    int32_t big[8];
    int n = peak_biggest(a, a->frame.peak_step, big, caption_rows < 8 ? caption_rows : 8);
    fputs("<g id=\"peak-biggest\" fill=\"#333333\">\n", f);
    for (int k = 0; k < n; k++) {
        const view_buf_t *b = &a->bufs[big[k]];
        char size[32];
        units_format_bytes(b->size, size, sizeof size);
        /* about 46 characters fit the inset's 300 px: the name gives way */
        fprintf(f, "<text x=\"%d\" y=\"%d\">", (int)x0, (int)(y1 + PICTURE_BOTTOM_AXIS + k * PICTURE_LEGEND_ROW));
        xml_cut(f, a->name(a->ud, b->node), 20);
        fprintf(f, " %s, steps %lld-%lld</text>\n", size, (long long)b->start, (long long)b->end);
    }
    fputs("</g>\n</g>\n", f);
}

static void write_svg(FILE *f, const svg_arena_t *a, const picture_t *p, const picture_frame_t *inset,
                      const picture_t *q)
{
    int w = a->frame.width_px, h = a->frame.height_px;
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"%d\">\n<title>",
            w, h, w, h, LABEL_PX);
    xml(f, a->title);
    fprintf(f, "</title>\n<rect id=\"background\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w,
            h);
    /* the heading lines are cut to what the width holds (about 7 px a
     * character); <desc> keeps them whole */
    int fits = (w - p->plot_x - 8) / 7;
    fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">", (int)p->plot_x);
    xml_cut(f, a->title, fits * 12 / 15);
    fputs("</text>\n", f);
    if (a->subtitle) {
        fputs("<desc>", f);
        xml(f, a->subtitle);
        fprintf(f, "</desc>\n<text x=\"%d\" y=\"40\" fill=\"#555555\">", (int)p->plot_x);
        xml_cut(f, a->subtitle, fits);
        fputs("</text>\n", f);
    }
    write_axes(f, p, "grid");
    write_peak_line(f, p);
    write_rects(f, a, p, "buffers");
    write_labels(f, a, p, "labels");
    write_lines(f, a, p);
    write_axis_labels(f, p);
    write_legend(f, a, p, q != NULL);
    if (q)
        write_inset(f, a, inset, q, (a->frame.n_roles + 1) / 2);
    fputs("</svg>\n", f);
}

static const char *node_name(const void *ud, int32_t node)
{
    return ((const routine_t *)ud)->nodes[node].name;
}

static const char *node_note(const void *ud, int32_t node, char *buf, size_t n)
{
    return routine_into_text(ud, node, buf, n);
}

void svg_routine_arena(svg_arena_t *a, const routine_t *r, const view_buf_t *bufs, int32_t n, int64_t steps,
                       const footprint_t *fp)
{
    *a = (svg_arena_t){ .title = r->name, .bufs = bufs, .n = n, .name = node_name, .note = node_note, .ud = r,
                        .frame = { SVG_WIDTH, SVG_HEIGHT, 0, steps > 0 ? steps : 1, fp->total, -1,
                                   n ? fp->peak_step : -1, ROLE_COUNT, 0, 0 },
                        .roles = SVG_ARENA_ROLES, .live_peak = fp->live_peak };
}

int svg_write_arena(const svg_arena_t *a, const char *path, const char *store, svg_stats_t *stats, rs_error_t *err)
{
    picture_t p, q;
    picture_frame_t main, inset;
    bool zoom = picture_inset(&a->frame, &main, &inset);
    memset(&q, 0, sizeof q);
    int rc = picture_build(a->bufs, a->n, zoom ? &main : &a->frame, &p);
    if (!rc && zoom)
        rc = picture_build(a->bufs, a->n, &inset, &q);
    if (rc) {
        picture_free(&p);
        picture_free(&q);
        return rc == RS_ENOMEM ? error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory")
                               : error_set(err, RS_EINVAL, path, 0, 0, "cannot draw: the frame is too small for a plot, or a role is out of range");
    }
    wfile_t w;
    rc = wfile_open(&w, path, store, "the picture", err);
    if (!rc) {
        write_svg(w.f, a, &p, &inset, zoom ? &q : NULL);
        rc = wfile_close(&w, true, err);
    }
    if (!rc && stats)
        *stats = (svg_stats_t){ p.drawn, p.n_rects, p.merged };
    picture_free(&p);
    picture_free(&q);
    return rc;
}

int svg_write_plan(store_t *s, const stored_plan_t *p, const char *path, svg_stats_t *st, rs_error_t *err)
{
    rebuilt_t rb;
    footprint_t fp;
    score_detail_t d;
    int rc = export_plan_arena(s, p, &rb, &fp, &d, err);
    if (rc)
        return rc;
    view_buf_t *v;
    int32_t n;
    if (view_buffers(rb.lowering, &d, &v, &n)) {
        rc = error_set(err, RS_ENOMEM, NULL, 0, 0, "out of memory");
    } else {
        char title[512], sub[512], bud[64], fin[32], base[32];
        plans_budget_text(p, bud, sizeof bud);
        units_format_bytes(p->final.total, fin, sizeof fin);
        units_format_bytes(p->baseline.total, base, sizeof base);
        snprintf(title, sizeof title, "plan %lld%s%s%s: %s v%d", (long long)p->id, p->label[0] ? " \"" : "",
                 p->label, p->label[0] ? "\"" : "", p->routine, (int)p->routine_version);
        snprintf(sub, sizeof sub, "budget %s, %d flip%s: arena %s (%lld B), %s at baseline; %s layout, alignment %lld%s%s%s%s",
                 bud, (int)p->n_flips, p->n_flips == 1 ? "" : "s", fin, (long long)p->final.total, base,
                 layout_strategy_name(rb.cfg.layout), (long long)rb.cfg.alignment, p->profile[0] ? ", profile " : "",
                 p->profile, p->bindings[0] ? "; bindings " : "", p->bindings);
        svg_arena_t a;
        svg_routine_arena(&a, rb.routine, v, n, rb.lowering->n_steps, &fp);
        a.title = title;
        a.subtitle = sub;
        a.frame.budget = p->budget_bytes;
        rc = svg_write_arena(&a, path, store_path(s), st, err);
        free(v);
    }
    score_detail_free(&d);
    rebuild_free(&rb);
    return rc;
}
