/* fitscale — Kubernetes resource quantities, exactly as k8s.io/apimachinery/pkg/api/resource
 * (quantity.go: ParseQuantity, Quantity.String/CanonicalizeBytes, Value, MilliValue).
 *
 * FsQuantity is an exact decimal value with the format upstream keeps (DecimalSI, BinarySI,
 * DecimalExponent).  Ordinary values live in an int64 mantissa; anything larger falls back to
 * an arbitrary-precision mantissa (GMP), as upstream falls back to inf.Dec.  The caller owns an
 * FsQuantity and frees it with fs_quantity_free() (g_autoptr works).  The *_parse_value and
 * *_parse_milli helpers are the allocation-free fast path the decoders use. */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum {
  FS_QUANTITY_DECIMAL_EXPONENT, /* "1e3", "12E-3" */
  FS_QUANTITY_BINARY_SI,        /* "Ki" "Mi" "Gi" "Ti" "Pi" "Ei" */
  FS_QUANTITY_DECIMAL_SI,       /* "n" "u" "m" "" "k" "M" "G" "T" "P" "E" */
} FsQuantityFormat;

typedef struct FsQuantity FsQuantity;

/* Longest string fs_quantity_format_int() writes, NUL included. */
#define FS_QUANTITY_INT_BUF 32

/* Parses TEXT (LEN bytes, or -1 for NUL-terminated) as ParseQuantity does.  On failure sets
 * FS_ERROR_INVALID with the input quoted, e.g. `quantity "1.5.5Gi": unable to parse`. */
FsQuantity *fs_quantity_parse (const char *text, gssize len, GError **error);
void fs_quantity_free (FsQuantity *quantity);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsQuantity, fs_quantity_free)

FsQuantityFormat fs_quantity_get_format (const FsQuantity *quantity);

/* The canonical string, Quantity.String(): "1536Mi", "1500", "1Gi", "100m".  Caller frees. */
char *fs_quantity_to_string (const FsQuantity *quantity);

/* Quantity.Value() (rounded up to a whole unit) and MilliValue() (rounded up to a thousandth).
 * Return FALSE when the value does not fit int64; *OUT is then saturated to G_MININT64 or
 * G_MAXINT64.  (Upstream's Value() wraps for such values; fitscale saturates and says so.) */
gboolean fs_quantity_value (const FsQuantity *quantity, int64_t *out);
gboolean fs_quantity_milli_value (const FsQuantity *quantity, int64_t *out);

/* Parse + Value()/MilliValue() in one step, without allocating for ordinary input.  A value
 * outside int64 saturates (no error); a syntax error sets FS_ERROR_INVALID. */
gboolean fs_quantity_parse_value (const char *text, gsize len, int64_t *out, GError **error);
gboolean fs_quantity_parse_milli (const char *text, gsize len, int64_t *out, GError **error);

/* The canonical string of the quantity VALUE * 10^SCALE (SCALE 0 or -3) in FORMAT, as
 * resource.NewScaledQuantity(value, scale) with that Format prints it: bytes as BinarySI
 * ("6Gi", "1536Mi"; below 1024 it prints decimal: 1000 is "1k"), cpu millicores as DecimalSI
 * ("500m", "2", "1500m").
 * Writes into BUF and returns it. */
char *fs_quantity_format_int (int64_t value, int scale, FsQuantityFormat format,
                              char buf[FS_QUANTITY_INT_BUF]);

G_END_DECLS
