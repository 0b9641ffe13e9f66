/* tui_picture: E on the Arena writes what is on screen — the steps in
 * view, the budget line — as the same SVG picture the command line writes;
 * never over the session store, and over another file only when asked. */
#include "tui/tui_picture.h"

#include <stdio.h>
#include <unistd.h>

#include "model/units.h"
#include "svg.h"
#include "tui/tui_arena.h"
#include "tui/tui_widgets.h"
#include "wfile.h"

void tui_export_svg(tui_t *t)
{
    if (!t->open || !t->arena.bufs)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s.svg", t->tgt.routine->name);
    if (!tui_prompt(t, "write the arena as SVG to (Tab completes): ", path, sizeof path, true) || !path[0])
        return;
    rs_error_t err;
    if (wfile_refuse(path, store_path(t->store), "the picture", &err)) {
        tui_error(t, NULL, &err);
        return;
    }
    char q[600];
    snprintf(q, sizeof q, "%s exists: overwrite?", path);
    if (access(path, F_OK) == 0 && !tui_confirm(t, q)) {
        tui_status(t, false, "nothing written");
        return;
    }
    const arena_view_t *a = tui_arena_shown(t); /* the frontier plan's schedule while it is shown (F) */
    svg_arena_t s;
    svg_routine_arena(&s, t->tgt.routine, a->bufs, a->n, a->steps, &a->fp);
    if (t->view_step1 > t->view_step0) {
        s.frame.step0 = t->view_step0;
        s.frame.step1 = t->view_step1;
    }
    s.frame.budget = t->budget;
    char title[256], sub[sizeof t->binds + 512], total[32];
    units_format_bytes(a->fp.total, total, sizeof total);
    snprintf(title, sizeof title, "%s: %s layout%s", t->tgt.routine->name, layout_strategy_name(t->tgt.cfg.layout),
             a == &t->arena ? "" : ", the frontier plan (DESIGN §14)");
    snprintf(sub, sizeof sub, "steps %lld-%lld of %lld; arena %s (%lld B); %s%s%s", (long long)s.frame.step0,
             (long long)s.frame.step1 - 1, (long long)a->steps, total, (long long)a->fp.total,
             t->binds[0] ? t->binds : "default bindings", t->tgt.has_profile ? "; profile " : "",
             t->tgt.has_profile ? t->tgt.profile.name : "");
    s.title = title;
    s.subtitle = sub;
    svg_stats_t st;
    if (svg_write_arena(&s, path, store_path(t->store), &st, &err))
        tui_error(t, NULL, &err);
    else
        tui_status(t, false, "wrote %s: %d buffer%s as %d rectangle%s", path, (int)st.drawn, st.drawn == 1 ? "" : "s", (int)st.rects, st.rects == 1 ? "" : "s");
}
