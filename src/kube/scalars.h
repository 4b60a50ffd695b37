/* fitscale — the scalar readers: one scalar as the decoder hands it (FsScalar, fields.h)
 * checked and converted to what a field holds (an integer, a time, a quantity, an enum).
 *
 * Private to kube/.  Each reader returns FALSE with ERROR set ("expected an integer, got a
 * string") when the scalar does not fit; the decoder adds where it was.  The small readers
 * the per-scalar paths call are static inline; the rest are in scalars.c. */
#pragma once

#include <string.h>

#include "fields.h"
#include "fitscale/model/error.h"

/* "expected EXPECTED, got a string"; always FALSE. */
gboolean fs_scalar_type_error (const FsScalar *scalar, const char *expected, GError **error);

gboolean fs_scalar_int (const FsScalar *scalar, int64_t min, int64_t max, int64_t *out,
                        GError **error);
gboolean fs_scalar_time (const FsScalar *scalar, int64_t *out, GError **error);
/* An integer, or a string percentage such as "25%" (a rolling update's maxSurge). */
gboolean fs_scalar_int_or_percent (const FsScalar *scalar, FsIntOrPercent *out, GError **error);
/* One entry of a resource list ("cpu": "500m") into RESOURCES; NAME is interned into POOL
 * when it is an extended resource. */
gboolean fs_scalar_resource (FsPool *pool, FsResources *resources, const char *name,
                             const FsScalar *scalar, GError **error);
/* In, NotIn, Exists, DoesNotExist, and for NODE_SELECTOR Gt and Lt. */
gboolean fs_scalar_selector_op (const FsScalar *scalar, gboolean node_selector,
                                FsSelectorOp *out, GError **error);
/* NoSchedule, PreferNoSchedule, NoExecute, and with ALLOW_EMPTY "" (all of them). */
gboolean fs_scalar_effect (const FsScalar *scalar, gboolean allow_empty, FsTaintEffect *out,
                           GError **error);
/* Honor or Ignore. */
gboolean fs_scalar_policy (const FsScalar *scalar, FsInclusionPolicy *out, GError **error);

/* The text into BUFFER of SIZE bytes, NUL-terminated; longer text is an error. */
static inline gboolean
fs_scalar_copy (const FsScalar *scalar, char *buffer, gsize size, GError **error)
{
  if (scalar->len >= size)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "value \"%.*s...\" is too long (%" G_GSIZE_FORMAT
                   " bytes, at most %" G_GSIZE_FORMAT ")", 24, scalar->text, scalar->len, size - 1);
      return FALSE;
    }
  memcpy (buffer, scalar->text, scalar->len);
  buffer[scalar->len] = '\0';
  return TRUE;
}

static inline gboolean
fs_scalar_equals (const FsScalar *scalar, const char *text)
{
  return strlen (text) == scalar->len && memcmp (scalar->text, text, scalar->len) == 0;
}

static inline gboolean
fs_scalar_int32 (const FsScalar *scalar, int32_t min, int32_t *out, GError **error)
{
  int64_t value;
  if (!fs_scalar_int (scalar, min, G_MAXINT32, &value, error))
    return FALSE;
  *out = (int32_t) value;
  return TRUE;
}

static inline gboolean
fs_scalar_bool (const FsScalar *scalar, gboolean *out, GError **error)
{
  if (scalar->type != FS_SCALAR_BOOL)
    return fs_scalar_type_error (scalar, "true or false", error);
  *out = fs_scalar_equals (scalar, "true");
  return TRUE;
}
