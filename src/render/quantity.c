/* fitscale — the answer of `fitscale quantity` (see include/fitscale/render/quantity.h). */
#include "config.h"

#include "fitscale/render/quantity.h"

void
fs_render_quantity_row_clear (FsQuantityRow *row)
{
  g_free (row->canonical);
}

void
fs_render_quantities (FsEmitter *emitter, const FsQuantityRow *rows, guint n_rows)
{
  fs_emit_list_open (emitter);
  for (guint i = 0; i < n_rows; i++)
    {
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "input");
      fs_emit_string (emitter, rows[i].input);
      fs_emit_key (emitter, "canonical");
      fs_emit_string (emitter, rows[i].canonical);
      fs_emit_key (emitter, "value");
      rows[i].value_fits ? fs_emit_int (emitter, rows[i].value) : fs_emit_null (emitter);
      fs_emit_key (emitter, "milliValue");
      rows[i].milli_fits ? fs_emit_int (emitter, rows[i].milli_value) : fs_emit_null (emitter);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
}

void
fs_render_quantities_table (FILE *out, const FsQuantityRow *rows, guint n_rows)
{
  static const char *const headers[] = { "INPUT", "CANONICAL", "VALUE", "MILLIVALUE" };
  g_autoptr (FsTable) table = fs_table_new (4, headers);
  for (guint i = 0; i < n_rows; i++)
    {
      g_autofree char *value = rows[i].value_fits
                                   ? g_strdup_printf ("%" G_GINT64_FORMAT, rows[i].value)
                                   : g_strdup ("(beyond int64)");
      g_autofree char *milli = rows[i].milli_fits
                                   ? g_strdup_printf ("%" G_GINT64_FORMAT, rows[i].milli_value)
                                   : g_strdup ("(beyond int64)");
      const char *cells[] = { rows[i].input, rows[i].canonical, value, milli };
      fs_table_add_row (table, cells);
    }
  fs_table_print (table, out);
}
