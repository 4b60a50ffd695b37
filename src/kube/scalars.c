/* fitscale — the scalar readers (see scalars.h). */
#include "config.h"

#include <string.h>

#include "scalars.h"
#include "fitscale/model/quantity.h"
#include "fitscale/model/timeutil.h"

static const char *
scalar_type_name (FsScalarType type)
{
  switch (type)
    {
    case FS_SCALAR_BOOL:
      return "a boolean";
    case FS_SCALAR_NUMBER:
      return "a number";
    case FS_SCALAR_STRING:
      return "a string";
    case FS_SCALAR_NULL:
    default:
      return "null";
    }
}

gboolean
fs_scalar_type_error (const FsScalar *scalar, const char *expected, GError **error)
{
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "expected %s, got %s", expected,
               scalar_type_name (scalar->type));
  return FALSE;
}

gboolean
fs_decode_int (const char *text, gsize len, int64_t min, int64_t max, int64_t *out)
{
  gboolean negative = len > 0 && text[0] == '-';
  gsize at = len > 0 && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  guint64 magnitude = 0;
  gboolean ok = at < len;
  if (len - at <= 18) /* 18 digits stay under 2^63: no overflow test per digit */
    for (; at < len; at++)
      {
        guint digit = (guint) (guchar) text[at] - '0';
        ok &= digit <= 9;
        magnitude = magnitude * 10 + digit;
      }
  for (; ok && at < len; at++)
    {
      guint digit = (guint) (guchar) text[at] - '0';
      ok = digit <= 9 && magnitude <= ((guint64) G_MAXINT64 + 1 - digit) / 10;
      magnitude = magnitude * 10 + digit;
    }
  ok = ok && magnitude <= (guint64) G_MAXINT64 + negative;
  int64_t value = negative ? (int64_t) (0 - magnitude) : (int64_t) magnitude;
  ok = ok && value >= min && value <= max;
  if (ok)
    *out = value;
  return ok;
}

gboolean
fs_scalar_int (const FsScalar *scalar, int64_t min, int64_t max, int64_t *out, GError **error)
{
  if (scalar->type != FS_SCALAR_NUMBER)
    return fs_scalar_type_error (scalar, "an integer", error);
  gboolean ok = fs_decode_int (scalar->text, scalar->len, min, max, out);
  if (!ok)
    g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                 "%.*s is not an integer from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT,
                 (int) MIN (scalar->len, 40), scalar->text, min, max);
  return ok;
}

gboolean
fs_scalar_time (const FsScalar *scalar, int64_t *out, GError **error)
{
  if (scalar->type != FS_SCALAR_STRING)
    return fs_scalar_type_error (scalar, "an RFC 3339 time", error);
  if (fs_time_parse (scalar->text, scalar->len, out))
    return TRUE;
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "\"%.*s\" is not an RFC 3339 time",
               (int) MIN (scalar->len, 64), scalar->text);
  return FALSE;
}

gboolean
fs_scalar_int_or_percent (const FsScalar *scalar, FsIntOrPercent *out, GError **error)
{
  out->set = TRUE;
  if (scalar->type == FS_SCALAR_NUMBER)
    return fs_scalar_int32 (scalar, 0, &out->value, error);
  int64_t percent;
  if (scalar->type == FS_SCALAR_STRING && scalar->len >= 2 && scalar->text[scalar->len - 1] == '%')
    {
      if (fs_decode_int (scalar->text, scalar->len - 1, 0, G_MAXINT32, &percent))
        {
          out->percent = TRUE;
          out->value = (int32_t) percent;
          return TRUE;
        }
    }
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
               "\"%.*s\" is neither an integer nor a percentage like \"25%%\"",
               (int) MIN (scalar->len, 40), scalar->text);
  return FALSE;
}

/* One entry of a resource list ("cpu": "500m"): cpu in millicores (MilliValue), everything
 * else in whole units (Value), as pkg/scheduler/framework/types.go Resource.Add reads them. */
gboolean
fs_scalar_resource (FsPool *pool, FsResources *resources, const char *name,
                    const FsScalar *scalar, GError **error)
{
  if (scalar->type != FS_SCALAR_STRING && scalar->type != FS_SCALAR_NUMBER)
    return fs_scalar_type_error (scalar, "a quantity", error);
  FsResourceKind kind = fs_resource_kind (name);
  if (kind == FS_RES_KIND_IGNORED)
    return TRUE;
  int64_t amount;
  gboolean parsed = kind == FS_RES_KIND_CPU
                        ? fs_quantity_parse_milli (scalar->text, scalar->len, &amount, error)
                        : fs_quantity_parse_value (scalar->text, scalar->len, &amount, error);
  if (!parsed)
    return FALSE;
  if (!fs_resource_amount_valid (amount, scalar->text, scalar->len, error))
    return FALSE;
  const char *interned = kind == FS_RES_KIND_SCALAR
                             ? fs_pool_intern (pool, name, strlen (name)) : name;
  return fs_resources_set (resources, interned, amount, error);
}

gboolean
fs_scalar_selector_op (const FsScalar *scalar, gboolean node_selector, FsSelectorOp *out,
                       GError **error)
{
  static const struct { const char *name; FsSelectorOp op; gboolean node_only; } ops[] = {
    { "In", FS_OP_IN, FALSE },       { "NotIn", FS_OP_NOT_IN, FALSE },
    { "Exists", FS_OP_EXISTS, FALSE }, { "DoesNotExist", FS_OP_DOES_NOT_EXIST, FALSE },
    { "Gt", FS_OP_GT, TRUE },        { "Lt", FS_OP_LT, TRUE },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (ops); i++)
    if (fs_scalar_equals (scalar, ops[i].name) && (node_selector || !ops[i].node_only))
      {
        *out = ops[i].op;
        return TRUE;
      }
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "\"%.*s\" is not a valid operator (%s)",
               (int) MIN (scalar->len, 40), scalar->text,
               node_selector ? "In, NotIn, Exists, DoesNotExist, Gt, Lt"
                             : "In, NotIn, Exists, DoesNotExist");
  return FALSE;
}

gboolean
fs_scalar_effect (const FsScalar *scalar, gboolean allow_empty, FsTaintEffect *out,
                  GError **error)
{
  if (fs_scalar_equals (scalar, "NoSchedule"))
    *out = FS_EFFECT_NO_SCHEDULE;
  else if (fs_scalar_equals (scalar, "PreferNoSchedule"))
    *out = FS_EFFECT_PREFER_NO_SCHEDULE;
  else if (fs_scalar_equals (scalar, "NoExecute"))
    *out = FS_EFFECT_NO_EXECUTE;
  else if (allow_empty && scalar->len == 0)
    *out = FS_EFFECT_ALL;
  else
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "\"%.*s\" is not a taint effect (NoSchedule, PreferNoSchedule, NoExecute)",
                   (int) MIN (scalar->len, 40), scalar->text);
      return FALSE;
    }
  return TRUE;
}

gboolean
fs_scalar_policy (const FsScalar *scalar, FsInclusionPolicy *out, GError **error)
{
  if (fs_scalar_equals (scalar, "Honor"))
    *out = FS_POLICY_HONOR;
  else if (fs_scalar_equals (scalar, "Ignore"))
    *out = FS_POLICY_IGNORE;
  else
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "\"%.*s\" is not Honor or Ignore",
                   (int) MIN (scalar->len, 40), scalar->text);
      return FALSE;
    }
  return TRUE;
}
