/* fitscale — the answer of `fitscale simulate`: the HPA loop's timeline, one step per sync,
 * as a folded table with a chart, as CSV, or as a JSON/YAML document.  Reads the steps
 * plan/simulate.h appends (an array of FsSimulateStep); the caller owns it, the emitter and
 * the FILE. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "fitscale/plan/simulate.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* {"timeline": [{t, value, replicas, ready, starting, pending, utilization, recommendation,
 * stabilized, limit, desired, reason}, ...]}. */
void fs_render_simulate (FsEmitter *emitter, const GArray *timeline);
/* -o csv: a header row, then one row per sync. */
void fs_render_simulate_csv (FILE *out, const GArray *timeline);
/* A row per sync (rows where nothing changes folded), then replicas and utilization over
 * time as an ASCII chart.  LOAD_RESOURCE: the resource a load trace is an amount of (its
 * VALUE printed as every table prints that resource: "400Mi", "2500m"), or NULL (a
 * utilization, or another metric's number). */
void fs_render_simulate_table (FILE *out, const GArray *timeline, const char *load_resource);

G_END_DECLS
