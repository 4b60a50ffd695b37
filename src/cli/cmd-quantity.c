/* fitscale quantity — parse Kubernetes quantities and print canonical form, value and
 * milli-value, exactly as resource.Quantity computes them. */
#include "config.h"

#include <stdio.h>

#include "commands.h"
#include "fitscale/model/quantity.h"

typedef struct {
  const char *input;
  char *canonical;
  gboolean value_fits, milli_fits;
  int64_t value, milli_value;
} QuantityRow;

static void
row_clear (QuantityRow *row)
{
  g_free (row->canonical);
}

static void
emit_rows (FsOutputFormat format, const QuantityRow *rows, guint n_rows)
{
  g_autoptr (FsEmitter) emitter = fs_emitter_new (format, stdout);
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

static void
print_table (const QuantityRow *rows, guint n_rows)
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
  fs_table_print (table, stdout);
}

const FsCliCommand fs_cli_quantity = {
  .name = "quantity",
  .parameters = "QUANTITY...",
  .summary = "parse Kubernetes quantities and print their exact values",
  .description =
      "Parses each QUANTITY as the Kubernetes API server does (resource.Quantity) and\n"
      "prints its canonical form, its value rounded up to a whole unit (Value) and\n"
      "its value in thousandths, rounded up (MilliValue).  A value beyond int64 is\n"
      "shown as null in JSON.  Exit status 2 names the first invalid quantity.",
  .epilogue =
      "Examples:\n"
      "  fitscale quantity 1.5Gi 100m 1e3\n"
      "  fitscale quantity -o json 0.5n 8Ei\n",
  .run = fs_cmd_quantity,
};

int
fs_cmd_quantity (int argc, char **argv)
{
  FsCommonOptions options = { 0 };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_quantity, NULL, &options, FALSE);
  int status = FS_EXIT_OK;
  FsOutputFormat format;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) rows = g_array_new (FALSE, TRUE, sizeof (QuantityRow));
  g_array_set_clear_func (rows, (GDestroyNotify) row_clear);
  if (!g_option_context_parse (context, &argc, &argv, &error)
      || !fs_output_parse (options.output, &format, &error))
    status = FS_EXIT_ERROR;
  else if (argc < 2)
    status = fs_cli_usage (&error, "give at least one quantity, e.g. 1.5Gi");
  for (int i = 1; status == FS_EXIT_OK && i < argc; i++)
    {
      g_autoptr (FsQuantity) quantity = fs_quantity_parse (argv[i], -1, &error);
      if (quantity == NULL)
        {
          status = FS_EXIT_ERROR;
          break;
        }
      QuantityRow row = { .input = argv[i], .canonical = fs_quantity_to_string (quantity) };
      row.value_fits = fs_quantity_value (quantity, &row.value);
      row.milli_fits = fs_quantity_milli_value (quantity, &row.milli_value);
      g_array_append_val (rows, row);
    }
  if (status == FS_EXIT_OK && (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML))
    emit_rows (format, (const QuantityRow *) (gpointer) rows->data, rows->len);
  else if (status == FS_EXIT_OK)
    print_table ((const QuantityRow *) (gpointer) rows->data, rows->len);
  else
    fs_cli_fail (fs_cli_quantity.name, error);
  fs_cli_common_clear (&options);
  return status;
}
