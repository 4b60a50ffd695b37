/* fitscale — the answer of `fitscale quantity`: per quantity its canonical form, value and
 * milli-value, as a table or as a JSON/YAML list.  The caller owns the rows, the emitter
 * and the FILE; nothing is kept. */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* One parsed quantity as printed: VALUE and MILLI_VALUE hold only when they fit in int64. */
typedef struct {
  const char *input;        /* as given (not owned) */
  char *canonical;          /* owned; fs_render_quantity_row_clear frees it */
  gboolean value_fits, milli_fits;
  int64_t value, milli_value;
} FsQuantityRow;

void fs_render_quantity_row_clear (FsQuantityRow *row);

/* A list of maps: input, canonical, value, milliValue (null beyond int64). */
void fs_render_quantities (FsEmitter *emitter, const FsQuantityRow *rows, guint n_rows);
/* INPUT, CANONICAL, VALUE, MILLIVALUE. */
void fs_render_quantities_table (FILE *out, const FsQuantityRow *rows, guint n_rows);

G_END_DECLS
