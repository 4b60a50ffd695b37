/* fitscale — label selectors parsed or built (see include/fitscale/model/selector.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/names.h"
#include "fitscale/model/selector.h"

/* The selector and what it points to, freed together. */
typedef struct {
  FsLabelSelector selector;     /* first: the pointer handed out */
  GStringChunk *strings;
  GPtrArray *blocks;            /* g_malloc'd value arrays and the requirement list */
} ParsedSelector;

void
fs_label_selector_free (FsLabelSelector *selector)
{
  if (selector == NULL)
    return;
  ParsedSelector *parsed = (ParsedSelector *) selector;
  g_string_chunk_free (parsed->strings);
  g_ptr_array_unref (parsed->blocks);
  g_free (parsed);
}

static ParsedSelector *
parsed_new (void)
{
  ParsedSelector *parsed = g_new0 (ParsedSelector, 1);
  parsed->strings = g_string_chunk_new (256);
  parsed->blocks = g_ptr_array_new_with_free_func (g_free);
  return parsed;
}

static const char *
copy_string (ParsedSelector *parsed, const char *text)
{
  return text != NULL ? g_string_chunk_insert (parsed->strings, text) : NULL;
}

static int
compare_labels (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (((const FsLabel *) a)->key, ((const FsLabel *) b)->key);
}

FsLabelSelector *
fs_label_selector_new (const FsLabel *labels, guint n_labels, const FsRequirement *requirements,
                       guint n_requirements)
{
  ParsedSelector *parsed = parsed_new ();
  FsLabelSet *set = g_malloc0 (sizeof (FsLabelSet) + n_labels * sizeof (FsLabel));
  g_ptr_array_add (parsed->blocks, set);
  set->n = n_labels;
  for (guint i = 0; i < n_labels; i++)
    set->items[i] = (FsLabel){ copy_string (parsed, labels[i].key), copy_string (parsed, labels[i].value) };
  qsort (set->items, n_labels, sizeof (FsLabel), compare_labels); /* FsLabelSet is sorted */
  FsRequirementList *list = g_malloc0 (sizeof (FsRequirementList) + n_requirements * sizeof (FsRequirement));
  g_ptr_array_add (parsed->blocks, list);
  list->n = n_requirements;
  for (guint i = 0; i < n_requirements; i++)
    {
      const FsRequirement *from = &requirements[i];
      const char **values = g_new0 (const char *, from->n_values + 1);
      g_ptr_array_add (parsed->blocks, values);
      for (guint v = 0; v < from->n_values; v++)
        values[v] = copy_string (parsed, from->values[v]);
      list->items[i] = (FsRequirement){ copy_string (parsed, from->key), from->op, from->n_values, values };
    }
  parsed->selector.match_labels = set;
  parsed->selector.match_expressions = list;
  return &parsed->selector;
}

static void
fail (GError **error, const char *text, const char *why)
{
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "unable to parse requirement \"%s\": %s", text, why);
}

static const char *
trimmed (ParsedSelector *parsed, const char *start, const char *end)
{
  while (start < end && g_ascii_isspace (*start))
    start++;
  while (end > start && g_ascii_isspace (end[-1]))
    end--;
  return g_string_chunk_insert_len (parsed->strings, start, end - start);
}

/* The terms of TEXT, split at commas outside parentheses. */
static GPtrArray *
split_terms (const char *text)
{
  GPtrArray *terms = g_ptr_array_new_with_free_func (g_free);
  int depth = 0;
  const char *start = text;
  for (const char *at = text;; at++)
    {
      if (*at == '(')
        depth++;
      else if (*at == ')')
        depth--;
      if ((*at == ',' && depth == 0) || *at == '\0')
        {
          g_ptr_array_add (terms, g_strndup (start, at - start));
          start = at + 1;
        }
      if (*at == '\0')
        break;
    }
  return terms;
}

/* "key in (a, b)" / "key notin (a,b)": the values, or FALSE. */
static gboolean
parse_set (ParsedSelector *parsed, const char *term, const char *open, FsRequirement *out, GError **error)
{
  const char *close = strrchr (open, ')');
  if (close == NULL || strspn (close + 1, " \t") != strlen (close + 1))
    {
      fail (error, term, "a set needs its closing parenthesis");
      return FALSE;
    }
  g_autofree char *inside = g_strndup (open + 1, close - open - 1);
  g_auto (GStrv) values = g_strsplit (inside, ",", -1);
  guint n = g_strv_length (values);
  const char **array = g_new0 (const char *, n + 1);
  g_ptr_array_add (parsed->blocks, array);
  for (guint i = 0; i < n; i++)
    {
      array[i] = trimmed (parsed, values[i], values[i] + strlen (values[i]));
      if (!fs_label_value_is_valid (array[i]))
        {
          fail (error, term, "a value must be 63 characters or less, alphanumerics, '-', '_' or '.'");
          return FALSE;
        }
    }
  out->n_values = n;
  out->values = array;
  return TRUE;
}

/* One VALUE after an operator: a label value, or an integer for > and <. */
static gboolean
parse_value (ParsedSelector *parsed, const char *term, const char *start, FsRequirement *out, GError **error)
{
  const char **array = g_new0 (const char *, 2);
  g_ptr_array_add (parsed->blocks, array);
  array[0] = trimmed (parsed, start, start + strlen (start));
  out->n_values = 1;
  out->values = array;
  gboolean numeric = out->op == FS_OP_GT || out->op == FS_OP_LT;
  gboolean ok = numeric ? *array[0] != '\0' && strspn (array[0] + (*array[0] == '-'), "0123456789") == strlen (array[0]) - (*array[0] == '-')
                        : fs_label_value_is_valid (array[0]);
  if (!ok)
    fail (error, term, numeric ? "> and < take an integer"
                               : "a value must be 63 characters or less, alphanumerics, '-', '_' or '.'");
  return ok;
}

static gboolean
parse_term (ParsedSelector *parsed, const char *term, FsRequirement *out, GError **error)
{
  memset (out, 0, sizeof *out);
  const char *text = term;
  while (g_ascii_isspace (*text))
    text++;
  gboolean negated = *text == '!';
  const char *key = text + negated;
  const char *key_end = key + strcspn (key, "=!<> \t(");
  const char *op = key_end;
  while (g_ascii_isspace (*op))
    op++;
  out->key = trimmed (parsed, key, key_end);
  gboolean ok = TRUE;
  if (negated || *op == '\0')
    {
      out->op = negated ? FS_OP_DOES_NOT_EXIST : FS_OP_EXISTS;
      if (*op != '\0')
        fail (error, term, "nothing may follow !key"), ok = FALSE;
    }
  else if (g_str_has_prefix (op, "notin") || g_str_has_prefix (op, "in"))
    {
      out->op = op[0] == 'n' ? FS_OP_NOT_IN : FS_OP_IN;
      const char *open = op + (op[0] == 'n' ? 5 : 2);
      while (g_ascii_isspace (*open))
        open++;
      if (*open != '(')
        fail (error, term, "a set needs its values in parentheses"), ok = FALSE;
      else
        ok = parse_set (parsed, term, open, out, error);
    }
  else if (op[0] == '=' || (op[0] == '!' && op[1] == '=') || op[0] == '<' || op[0] == '>')
    {
      out->op = op[0] == '!' ? FS_OP_NOT_IN : op[0] == '>' ? FS_OP_GT : op[0] == '<' ? FS_OP_LT : FS_OP_IN;
      gsize width = op[0] == '!' || (op[0] == '=' && op[1] == '=') ? 2 : 1;
      ok = parse_value (parsed, term, op + width, out, error);
    }
  else
    fail (error, term, "expected =, ==, !=, in, notin, > or <"), ok = FALSE;
  if (ok && !fs_name_is_qualified (out->key))
    {
      fail (error, term, "the key is not a qualified name (an optional DNS prefix/ and up to 63 characters)");
      return FALSE;
    }
  return ok;
}

FsLabelSelector *
fs_label_selector_parse (const char *text, GError **error)
{
  ParsedSelector *parsed = parsed_new ();
  g_autoptr (GPtrArray) terms = split_terms (text);
  gboolean empty = strspn (text, " \t") == strlen (text);
  guint n = empty ? 0 : terms->len;
  FsRequirementList *list = g_malloc0 (sizeof (FsRequirementList) + n * sizeof (FsRequirement));
  g_ptr_array_add (parsed->blocks, list);
  list->n = n;
  for (guint i = 0; i < n; i++)
    if (!parse_term (parsed, terms->pdata[i], &list->items[i], error))
      {
        fs_label_selector_free (&parsed->selector);
        return NULL;
      }
  parsed->selector.match_expressions = list;
  return &parsed->selector;
}
