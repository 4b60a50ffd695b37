/* fitscale quantity — parse Kubernetes quantities and print canonical form, value and
 * milli-value, exactly as resource.Quantity computes them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fitscale/model/quantity.h"
#include "fitscale/render/quantity.h"

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

/* GLib's "Unknown option -1Gi" for what reads as a negative quantity: how to give it. */
static void
hint_negative (GError *error)
{
  const char *typed = error != NULL && error->domain == G_OPTION_ERROR && error->code == G_OPTION_ERROR_UNKNOWN_OPTION
                          ? strstr (error->message, " -")
                          : NULL;
  if (typed == NULL || !(g_ascii_isdigit (typed[2]) || (typed[2] == '.' && g_ascii_isdigit (typed[3]))))
    return;
  g_autofree char *message = error->message;
  error->message = g_strdup_printf ("%s (to give a negative quantity, end the options first: fitscale quantity -- %s)",
                                    message, typed + 1);
}

int
fs_cmd_quantity (int argc, char **argv)
{
  FsCommonOptions options = { 0 };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_quantity, NULL, &options, FALSE);
  int status = FS_EXIT_OK;
  FsOutputFormat format;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) rows = g_array_new (FALSE, TRUE, sizeof (FsQuantityRow));
  g_array_set_clear_func (rows, (GDestroyNotify) fs_render_quantity_row_clear);
  if (!fs_cli_parse (context, &argc, &argv, &error))
    {
      hint_negative (error);
      status = FS_EXIT_ERROR;
    }
  else if (!fs_cli_output_parse (options.output, &format, &error))
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
      FsQuantityRow row = { .input = argv[i], .canonical = fs_quantity_to_string (quantity) };
      row.value_fits = fs_quantity_value (quantity, &row.value);
      row.milli_fits = fs_quantity_milli_value (quantity, &row.milli_value);
      g_array_append_val (rows, row);
    }
  if (status == FS_EXIT_OK && (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML))
    {
      g_autoptr (FsEmitter) emitter = fs_emitter_new (format, stdout);
      fs_render_quantities (emitter, (const FsQuantityRow *) (gpointer) rows->data, rows->len);
    }
  else if (status == FS_EXIT_OK)
    fs_render_quantities_table (stdout, (const FsQuantityRow *) (gpointer) rows->data, rows->len);
  else
    fs_cli_fail (fs_cli_quantity.name, error);
  fs_cli_common_clear (&options);
  return status;
}
