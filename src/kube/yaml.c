/* fitscale — the YAML front end: libyaml events into an FsDecoder, every document of a
 * stream.  Plain scalars are resolved as sigs.k8s.io/yaml (go-yaml v2, YAML 1.1) resolves
 * them: null, booleans (true/yes/on ...), numbers; quoted or !!str scalars are strings.
 * Aliases are refused: Kubernetes objects never need them, and they would allow
 * "billion laughs" expansion.  (see include/fitscale/decode.h) */
#include "config.h"

#include <string.h>
#include <yaml.h>

#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"

#define YAML_MAX_INPUT (256u << 20)

typedef struct {
  gboolean is_mapping;
  gboolean expect_key;
} Level;

static gboolean
text_in (const char *text, const char *const *words)
{
  for (; *words != NULL; words++)
    if (strcmp (text, *words) == 0)
      return TRUE;
  return FALSE;
}

/* go-yaml v2 resolve.go: which implicit type a plain scalar has. */
FsScalarType
fs_yaml_resolve_plain (const char *text)
{
  static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
  static const char *const bools[] = { "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
                                       "true", "True", "TRUE", "false", "False", "FALSE",
                                       "on", "On", "ON", "off", "Off", "OFF", NULL };
  if (text_in (text, nulls))
    return FS_SCALAR_NULL;
  if (text_in (text, bools))
    return FS_SCALAR_BOOL;
  static GRegex *number;
  if (g_once_init_enter (&number))
    g_once_init_leave (&number, g_regex_new ("^[-+]?([0-9][0-9_]*(\\.[0-9_]*)?|\\.[0-9_]+)"
                                             "([eE][-+]?[0-9]+)?$|^[-+]?0[xX][0-9a-fA-F_]+$"
                                             "|^[-+]?\\.(inf|Inf|INF)$|^\\.(nan|NaN|NAN)$",
                                             G_REGEX_OPTIMIZE, 0, NULL));
  return g_regex_match (number, text, 0, NULL) ? FS_SCALAR_NUMBER : FS_SCALAR_STRING;
}

static gboolean
bool_value (const char *text)
{
  static const char *const trues[] = { "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
                                       "on", "On", "ON", NULL };
  return text_in (text, trues);
}

static gboolean
on_scalar (FsDecoder *decoder, Level *top, const yaml_event_t *event)
{
  const char *text = (const char *) event->data.scalar.value;
  gsize len = event->data.scalar.length;
  if (top != NULL && top->is_mapping && top->expect_key)
    {
      top->expect_key = FALSE;
      return fs_decoder_map_key (decoder, text, len);
    }
  if (top != NULL && top->is_mapping)
    top->expect_key = TRUE;
  const char *tag = (const char *) event->data.scalar.tag;
  gboolean quoted = event->data.scalar.style != YAML_PLAIN_SCALAR_STYLE
                    || (tag != NULL && strcmp (tag, YAML_STR_TAG) == 0);
  FsScalarType type = quoted ? FS_SCALAR_STRING : fs_yaml_resolve_plain (text);
  if (type == FS_SCALAR_BOOL)
    return bool_value (text) ? fs_decoder_scalar (decoder, type, "true", 4)
                             : fs_decoder_scalar (decoder, type, "false", 5);
  return fs_decoder_scalar (decoder, type, text, len);
}

static gboolean
fail_at (FsDecoder *decoder, const yaml_mark_t *mark, const char *message, GError **error)
{
  g_autofree char *position = g_strdup_printf ("line %zu, column %zu", mark->line + 1,
                                               mark->column + 1);
  fs_decoder_set_position (decoder, position);
  GError *decoder_error = fs_decoder_take_error (decoder);
  g_propagate_error (error, decoder_error != NULL ? decoder_error
                                                  : fs_decoder_wrap_error (decoder, message));
  return FALSE;
}

/* One event; FALSE with the decoder's error pending, or with MESSAGE set for YAML faults. */
static gboolean
on_event (FsDecoder *decoder, GArray *levels, const yaml_event_t *event, const char **message)
{
  Level *top = levels->len > 0 ? &g_array_index (levels, Level, levels->len - 1) : NULL;
  gboolean is_key = top != NULL && top->is_mapping && top->expect_key;
  switch (event->type)
    {
    case YAML_SCALAR_EVENT:
      return on_scalar (decoder, top, event);
    case YAML_MAPPING_START_EVENT:
    case YAML_SEQUENCE_START_EVENT:
      {
        if (is_key)
          return (*message = "a mapping or list used as a key"), FALSE;
        if (top != NULL && top->is_mapping)
          top->expect_key = TRUE;
        gboolean mapping = event->type == YAML_MAPPING_START_EVENT;
        Level level = { mapping, TRUE };
        g_array_append_val (levels, level);
        return mapping ? fs_decoder_map_begin (decoder) : fs_decoder_list_begin (decoder);
      }
    case YAML_MAPPING_END_EVENT:
      g_array_set_size (levels, levels->len - 1);
      return fs_decoder_map_end (decoder);
    case YAML_SEQUENCE_END_EVENT:
      g_array_set_size (levels, levels->len - 1);
      return fs_decoder_list_end (decoder);
    case YAML_ALIAS_EVENT:
      return (*message = "YAML aliases (*name) are not supported"), FALSE;
    case YAML_NO_EVENT:
    case YAML_STREAM_START_EVENT:
    case YAML_STREAM_END_EVENT:
    case YAML_DOCUMENT_START_EVENT:
    case YAML_DOCUMENT_END_EVENT:
    default:
      return TRUE;
    }
}

gboolean
fs_yaml_decode (FsSnapshotBuilder *builder, const char *source, const char *data, gsize len,
                GError **error)
{
  if (len > YAML_MAX_INPUT)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_LIMIT,
                   "%s: YAML input of %" G_GSIZE_FORMAT " bytes is over the %u MiB limit; "
                   "give large inputs as JSON (kubectl get -o json), which is streamed",
                   source, len, YAML_MAX_INPUT >> 20);
      return FALSE;
    }
  g_autoptr (FsDecoder) decoder = fs_decoder_new (builder, source);
  g_autoptr (GArray) levels = g_array_new (FALSE, FALSE, sizeof (Level));
  yaml_parser_t parser;
  yaml_parser_initialize (&parser);
  yaml_parser_set_input_string (&parser, (const unsigned char *) data, len);
  gboolean ok = TRUE, done = FALSE;
  while (ok && !done)
    {
      yaml_event_t event;
      if (!yaml_parser_parse (&parser, &event))
        {
          g_autofree char *message = g_strdup_printf ("invalid YAML: %s%s%s", parser.problem,
                                                      parser.context != NULL ? " " : "",
                                                      parser.context != NULL ? parser.context : "");
          ok = fail_at (decoder, &parser.problem_mark, message, error);
          break;
        }
      const char *message = NULL;
      done = event.type == YAML_STREAM_END_EVENT;
      if (!on_event (decoder, levels, &event, &message))
        ok = fail_at (decoder, &event.start_mark, message, error);
      yaml_event_delete (&event);
    }
  yaml_parser_delete (&parser);
  return ok;
}
