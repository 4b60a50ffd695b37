/* fitscale — tables and streamed JSON/YAML output (see include/fitscale/render/output.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <yaml.h>

#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"
#include "fitscale/model/quantity.h"
#include "fitscale/plan/completeness.h"
#include "fitscale/render/output.h"

const char *const fs_output_names[FS_OUTPUT_N_NAMES] = { "wide", "json", "yaml" };

gboolean
fs_output_parse (const char *text, FsOutputFormat *format, GError **error)
{
  if (text == NULL || text[0] == '\0')
    *format = FS_OUTPUT_TABLE;
  else if (strcmp (text, "wide") == 0)
    *format = FS_OUTPUT_WIDE;
  else if (strcmp (text, "json") == 0)
    *format = FS_OUTPUT_JSON;
  else if (strcmp (text, "yaml") == 0)
    *format = FS_OUTPUT_YAML;
  else
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "-o %s: not an output format; give %s, %s or %s", text,
                   fs_output_names[0], fs_output_names[1], fs_output_names[2]);
      return FALSE;
    }
  return TRUE;
}

/* ---- emitter ------------------------------------------------------------------------ */

struct FsEmitter {
  FsOutputFormat format;
  FILE *out;
  gboolean to_memory;  /* fs_emitter_new_string: OUT writes into MEMORY */
  char *memory;
  size_t memory_size;
  yajl_gen json;       /* writes into its own buffer; json_flush hands it to OUT */
  guint json_depth;    /* open maps and lists */
  yaml_emitter_t yaml;
  guint depth;         /* open maps and lists, in either format */
  GArray *warnings;    /* an answer's FsWarning values (a reference), else NULL */
  gboolean wrapped;    /* an answer's top-level list is open inside {"warnings", "items"} */
  gboolean has_snapshot; /* fs_emitter_set_snapshot: "snapshot" follows the warnings */
  char *snapshot_version;
  double snapshot_age, metrics_age;
};

#define JSON_FLUSH_BYTES (64 * 1024)

/* JSON goes out in pieces of about 64 KiB, and whenever a top-level value is complete (so
 * `why --watch -o json` shows each answer at once), not one write per token. */
static void
json_flush (FsEmitter *emitter, gsize at_least)
{
  const unsigned char *text;
  size_t len;
  yajl_gen_get_buf (emitter->json, &text, &len);
  if (len == 0 || len < at_least)
    return;
  fwrite (text, 1, len, emitter->out);
  yajl_gen_clear (emitter->json);
}

static void
json_closed (FsEmitter *emitter)
{
  if (emitter->json_depth > 0)
    emitter->json_depth--;
  json_flush (emitter, emitter->json_depth == 0 ? 0 : JSON_FLUSH_BYTES);
}

static int
write_yaml (void *ctx, unsigned char *buffer, size_t size)
{
  return fwrite (buffer, 1, size, ctx) == size;
}

static void
yaml_emit (FsEmitter *emitter, yaml_event_t *event)
{
  if (!yaml_emitter_emit (&emitter->yaml, event))
    g_warning ("YAML output failed: %s", emitter->yaml.problem);
}

FsEmitter *
fs_emitter_new (FsOutputFormat format, FILE *out)
{
  FsEmitter *emitter = g_new0 (FsEmitter, 1);
  emitter->format = format == FS_OUTPUT_JSON_COMPACT ? FS_OUTPUT_JSON : format;
  emitter->out = out;
  if (emitter->format == FS_OUTPUT_JSON)
    {
      emitter->json = yajl_gen_alloc (NULL);
      yajl_gen_config (emitter->json, yajl_gen_beautify, format == FS_OUTPUT_JSON);
      yajl_gen_config (emitter->json, yajl_gen_indent_string, "  ");
      return emitter;
    }
  yaml_emitter_initialize (&emitter->yaml);
  yaml_emitter_set_output (&emitter->yaml, write_yaml, out);
  yaml_emitter_set_unicode (&emitter->yaml, 1);
  yaml_emitter_set_width (&emitter->yaml, -1);
  yaml_event_t event;
  yaml_stream_start_event_initialize (&event, YAML_UTF8_ENCODING);
  yaml_emit (emitter, &event);
  yaml_document_start_event_initialize (&event, NULL, NULL, NULL, 1);
  yaml_emit (emitter, &event);
  return emitter;
}

FsEmitter *
fs_emitter_new_answer (FsOutputFormat format, FILE *out, GArray *warnings)
{
  FsEmitter *emitter = fs_emitter_new (format, out);
  emitter->warnings = warnings != NULL ? g_array_ref (warnings) : g_array_new (FALSE, TRUE, sizeof (FsWarning));
  return emitter;
}

FsEmitter *
fs_emitter_new_answer_string (GArray *warnings)
{
  FsEmitter *emitter = fs_emitter_new_string ();
  emitter->warnings = warnings != NULL ? g_array_ref (warnings) : g_array_new (FALSE, TRUE, sizeof (FsWarning));
  return emitter;
}

FsEmitter *
fs_emitter_new_string (void)
{
  FsEmitter *emitter = fs_emitter_new (FS_OUTPUT_JSON_COMPACT, NULL);
  emitter->to_memory = TRUE;
  emitter->out = open_memstream (&emitter->memory, &emitter->memory_size);
  return emitter;
}

char *
fs_emitter_take_string (FsEmitter *emitter)
{
  json_flush (emitter, 0);
  fclose (emitter->out);
  char *text = g_strndup (emitter->memory, emitter->memory_size);
  free (emitter->memory);
  yajl_gen_free (emitter->json);
  g_clear_pointer (&emitter->warnings, g_array_unref);
  g_free (emitter->snapshot_version);
  g_free (emitter);
  return text;
}

void
fs_emitter_free (FsEmitter *emitter)
{
  if (emitter == NULL)
    return;
  if (emitter->to_memory)
    {
      g_free (fs_emitter_take_string (emitter));
      return;
    }
  if (emitter->format == FS_OUTPUT_JSON)
    {
      json_flush (emitter, 0);
      yajl_gen_free (emitter->json);
      fputc ('\n', emitter->out);
    }
  else
    {
      yaml_event_t event;
      yaml_document_end_event_initialize (&event, 1);
      yaml_emit (emitter, &event);
      yaml_stream_end_event_initialize (&event);
      yaml_emit (emitter, &event);
      yaml_emitter_delete (&emitter->yaml);
    }
  fflush (emitter->out);
  g_clear_pointer (&emitter->warnings, g_array_unref);
  g_free (emitter->snapshot_version);
  g_free (emitter);
}

/* Whether some YAML 1.1 or 1.2 reader would take plain TEXT for something other than a
 * string beyond what fitscale's own reader resolves (kube/yaml.c): a timestamp (2001-12-14),
 * a YAML 1.2 octal (0o17), a YAML 1.1 binary (0b101) or sexagesimal number (12:30:00), the
 * merge key "<<" or the value key "=". */
static gboolean
yaml_other_type (const char *text)
{
  static GRegex *other;
  if (g_once_init_enter (&other))
    g_once_init_leave (&other, g_regex_new ("^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
                                            "|^[-+]?0o[0-7_]+$|^[-+]?0b[01_]+$"
                                            "|^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?$"
                                            "|^<<$|^=$",
                                            G_REGEX_OPTIMIZE, 0, NULL));
  return g_regex_match (other, text, 0, NULL);
}

/* A string stays plain unless a reader would take it for a number, a boolean, null, a date
 * or another typed scalar; then it is quoted. */
static void
yaml_scalar (FsEmitter *emitter, const char *text, gboolean is_string)
{
  gboolean plain_ok = !is_string || (fs_yaml_resolve_plain (text) == FS_SCALAR_STRING && !yaml_other_type (text));
  yaml_event_t event;
  yaml_scalar_event_initialize (&event, NULL, NULL, (yaml_char_t *) text, (int) strlen (text),
                                plain_ok, is_string, YAML_ANY_SCALAR_STYLE);
  yaml_emit (emitter, &event);
}

static void
map_open (FsEmitter *emitter)
{
  emitter->depth++;
  if (emitter->format == FS_OUTPUT_JSON)
    {
      yajl_gen_map_open (emitter->json);
      emitter->json_depth++;
      return;
    }
  yaml_event_t event;
  yaml_mapping_start_event_initialize (&event, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
  yaml_emit (emitter, &event);
}

static void
map_close (FsEmitter *emitter)
{
  emitter->depth--;
  if (emitter->format == FS_OUTPUT_JSON)
    {
      yajl_gen_map_close (emitter->json);
      json_closed (emitter);
      return;
    }
  yaml_event_t event;
  yaml_mapping_end_event_initialize (&event);
  yaml_emit (emitter, &event);
}

static void
list_open (FsEmitter *emitter)
{
  emitter->depth++;
  if (emitter->format == FS_OUTPUT_JSON)
    {
      yajl_gen_array_open (emitter->json);
      emitter->json_depth++;
      return;
    }
  yaml_event_t event;
  yaml_sequence_start_event_initialize (&event, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
  yaml_emit (emitter, &event);
}

static void
list_close (FsEmitter *emitter)
{
  emitter->depth--;
  if (emitter->format == FS_OUTPUT_JSON)
    {
      yajl_gen_array_close (emitter->json);
      json_closed (emitter);
      return;
    }
  yaml_event_t event;
  yaml_sequence_end_event_initialize (&event);
  yaml_emit (emitter, &event);
}

/* An answer's first key: "warnings": [{"reason": ..., "message": ...}, ...] (completeness.h),
 * the empty list when the snapshot is known to be complete for it. */
static void
emit_warnings (FsEmitter *emitter)
{
  fs_emit_key (emitter, "warnings");
  list_open (emitter);
  for (guint i = 0; i < emitter->warnings->len; i++)
    {
      const FsWarning *warning = &g_array_index (emitter->warnings, FsWarning, i);
      map_open (emitter);
      fs_emit_key (emitter, "reason");
      fs_emit_string (emitter, fs_warning_reason (warning->kind));
      fs_emit_key (emitter, "message");
      fs_emit_string (emitter, warning->text);
      map_close (emitter);
    }
  list_close (emitter);
  if (emitter->has_snapshot)
    {
      fs_emit_key (emitter, "snapshot");
      map_open (emitter);
      fs_emit_key (emitter, "resourceVersion");
      fs_emit_string (emitter, emitter->snapshot_version);
      fs_emit_key (emitter, "ageSeconds");
      fs_emit_decimal (emitter, emitter->snapshot_age, 3);
      fs_emit_key (emitter, "metricsAgeSeconds");
      if (emitter->metrics_age >= 0)
        fs_emit_decimal (emitter, emitter->metrics_age, 3);
      else
        fs_emit_null (emitter);
      map_close (emitter);
    }
}

void
fs_emitter_set_snapshot (FsEmitter *emitter, const char *resource_version, double age, double metrics_age)
{
  emitter->has_snapshot = TRUE;
  g_free (emitter->snapshot_version);
  emitter->snapshot_version = g_strdup (resource_version);
  emitter->snapshot_age = age;
  emitter->metrics_age = metrics_age;
}

/* Every document of an answer emitter opens with its warnings: a map gets them as its first
 * key; a list (why --all) is written as {"warnings": [...], "items": [...]}. */
void
fs_emit_map_open (FsEmitter *emitter)
{
  gboolean top = emitter->depth == 0;
  map_open (emitter);
  if (top && emitter->warnings != NULL)
    emit_warnings (emitter);
}

void
fs_emit_map_close (FsEmitter *emitter)
{
  map_close (emitter);
}

void
fs_emit_list_open (FsEmitter *emitter)
{
  if (emitter->depth == 0 && emitter->warnings != NULL)
    {
      map_open (emitter);
      emit_warnings (emitter);
      fs_emit_key (emitter, "items");
      emitter->wrapped = TRUE;
    }
  list_open (emitter);
}

void
fs_emit_list_close (FsEmitter *emitter)
{
  list_close (emitter);
  if (emitter->depth == 1 && emitter->wrapped)
    {
      emitter->wrapped = FALSE;
      map_close (emitter);
    }
}

void
fs_emit_string (FsEmitter *emitter, const char *value)
{
  if (value == NULL)
    fs_emit_null (emitter);
  else if (emitter->format == FS_OUTPUT_JSON)
    yajl_gen_string (emitter->json, (const unsigned char *) value, strlen (value));
  else
    yaml_scalar (emitter, value, TRUE);
}

void
fs_emit_key (FsEmitter *emitter, const char *key)
{
  fs_emit_string (emitter, key);
}

void
fs_emit_int (FsEmitter *emitter, int64_t value)
{
  if (emitter->format == FS_OUTPUT_JSON)
    {
      yajl_gen_integer (emitter->json, value);
      return;
    }
  char text[32];
  g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT, value);
  yaml_scalar (emitter, text, FALSE);
}

void
fs_emit_number (FsEmitter *emitter, const char *text)
{
  if (emitter->format == FS_OUTPUT_JSON)
    yajl_gen_number (emitter->json, text, strlen (text));
  else
    yaml_scalar (emitter, text, FALSE);
}

void
fs_emit_decimal (FsEmitter *emitter, double value, int digits)
{
  char text[64];
  if (!isfinite (value))
    {
      /* JSON has no inf or nan: a value that is not a number is null (the caller says what
       * it stands for when that can happen, as fitscale hpa's "ratioText" does). */
      fs_emit_null (emitter);
      return;
    }
  g_snprintf (text, sizeof text, "%.*f", digits, value);
  if (emitter->format == FS_OUTPUT_JSON)
    yajl_gen_number (emitter->json, text, strlen (text));
  else
    yaml_scalar (emitter, text, FALSE);
}

void
fs_emit_bool (FsEmitter *emitter, gboolean value)
{
  if (emitter->format == FS_OUTPUT_JSON)
    yajl_gen_bool (emitter->json, value);
  else
    yaml_scalar (emitter, value ? "true" : "false", FALSE);
}

void
fs_emit_null (FsEmitter *emitter)
{
  if (emitter->format == FS_OUTPUT_JSON)
    yajl_gen_null (emitter->json);
  else
    yaml_scalar (emitter, "null", FALSE);
}

static void
emit_amount (FsEmitter *emitter, const char *name, int64_t amount)
{
  char text[32];
  fs_emit_key (emitter, name);
  fs_emit_string (emitter, fs_format_amount (name, amount, text));
}

void
fs_emit_resources (FsEmitter *emitter, const FsResources *resources, gboolean with_zero)
{
  fs_emit_map_open (emitter);
  if (with_zero || resources->cpu_milli != 0)
    emit_amount (emitter, "cpu", resources->cpu_milli);
  if (with_zero || resources->memory_bytes != 0)
    emit_amount (emitter, "memory", resources->memory_bytes);
  if ((with_zero && (resources->present & FS_RES_EPHEMERAL)) || resources->ephemeral_bytes != 0)
    emit_amount (emitter, "ephemeral-storage", resources->ephemeral_bytes);
  if ((resources->present & FS_RES_PODS) || resources->pods != 0)
    emit_amount (emitter, "pods", resources->pods);
  for (guint i = 0; i < resources->n_extended; i++)
    if (with_zero || resources->extended[i].value != 0)
      emit_amount (emitter, resources->extended[i].name, resources->extended[i].value);
  fs_emit_map_close (emitter);
}

void
fs_emit_reasons (FsEmitter *emitter, const FsVerdict *verdict)
{
  g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
  fs_verdict_reasons (verdict, reasons);
  fs_emit_list_open (emitter);
  for (guint r = 0; r < reasons->len; r++)
    fs_emit_string (emitter, reasons->pdata[r]);
  fs_emit_list_close (emitter);
}

/* ---- tables ------------------------------------------------------------------------- */

struct FsTable {
  guint n_columns;
  GPtrArray *cells; /* row-major, owned strings; the first row is the header */
};

FsTable *
fs_table_new (guint n_columns, const char *const *headers)
{
  FsTable *table = g_new0 (FsTable, 1);
  table->n_columns = n_columns;
  table->cells = g_ptr_array_new_with_free_func (g_free);
  fs_table_add_row (table, headers);
  return table;
}

void
fs_table_free (FsTable *table)
{
  if (table == NULL)
    return;
  g_ptr_array_unref (table->cells);
  g_free (table);
}

/* CELL made safe for a terminal, as kubectl's printers escape it (cli-runtime
 * pkg/printers/terminal.go EscapeTerminal: ESC as "^[", CR as "\\r"), extended to every
 * other control character (caret notation, DEL as "^?") and to invalid UTF-8 (U+FFFD): a
 * name or message from the cluster cannot move the cursor, recolour or rewrite the table. */
char *
fs_terminal_safe (const char *cell)
{
  g_autofree char *valid = g_utf8_make_valid (cell, -1);
  GString *out = g_string_sized_new (strlen (valid));
  for (const char *p = valid; *p != '\0'; p++)
    {
      unsigned char c = (unsigned char) *p;
      if (c == '\r')
        g_string_append (out, "\\r");
      else if (c < 0x20)
        g_string_append_c (g_string_append_c (out, '^'), (char) (c + 0x40));
      else if (c == 0x7f)
        g_string_append (out, "^?");
      else if (c == 0xc2 && (unsigned char) p[1] >= 0x80 && (unsigned char) p[1] <= 0x9f)
        g_string_append_printf (out, "\\u%04x", (unsigned char) *++p); /* a C1 control */
      else
        g_string_append_c (out, (char) c);
    }
  return g_string_free (out, FALSE);
}

const char *
fs_safe (GPtrArray *scratch, const char *text)
{
  if (text == NULL)
    return NULL;
  char *safe = fs_terminal_safe (text);
  g_ptr_array_add (scratch, safe);
  return safe;
}

/* A word of a shell command, printable: quoted when it holds more than letters, digits and
 * ._-/:=@ (a name from a snapshot file need not be a DNS name). */
const char *
fs_shell_word (GPtrArray *scratch, const char *text)
{
  const char *safe = fs_safe (scratch, text);
  for (const char *p = safe; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("._-/:=@", *p) == NULL)
      {
        char *quoted = g_shell_quote (safe);
        g_ptr_array_add (scratch, quoted);
        return quoted;
      }
  return safe[0] != '\0' ? safe : "''";
}

void
fs_table_add_row (FsTable *table, const char *const *cells)
{
  for (guint i = 0; i < table->n_columns; i++)
    g_ptr_array_add (table->cells, fs_terminal_safe (cells[i] != NULL ? cells[i] : "<none>"));
}

void
fs_table_print (const FsTable *table, FILE *out)
{
  g_autofree gsize *widths = g_new0 (gsize, table->n_columns);
  for (guint i = 0; i < table->cells->len; i++)
    {
      gsize width = g_utf8_strlen (table->cells->pdata[i], -1);
      widths[i % table->n_columns] = MAX (widths[i % table->n_columns], width);
    }
  for (guint i = 0; i < table->cells->len; i++)
    {
      guint column = i % table->n_columns;
      const char *cell = table->cells->pdata[i];
      gboolean last = column + 1 == table->n_columns;
      fputs (cell, out);
      if (last)
        fputc ('\n', out);
      else
        fprintf (out, "%*s", (int) (widths[column] - g_utf8_strlen (cell, -1) + 3), "");
    }
}
