/* fitscale — Kubernetes resource quantities (include/fitscale/quantity.h).
 *
 * A port of k8s.io/apimachinery/pkg/api/resource: quantity.go (ParseQuantity,
 * parseQuantityString, CanonicalizeBytes, String, ScaledValue), suffix.go, amount.go
 * (int64Amount, infDecAmount), math.go and scale_int.go.  Upstream keeps an int64Amount
 * (value * 10^scale) and falls back to an inf.Dec; here the fallback is a GMP mpz_t mantissa
 * with a power-of-ten exponent.
 *
 * The parse does upstream's int32 scale arithmetic, wrap-around included, so an input decodes
 * to the value upstream decodes it to.  The result is then kept with an int64 exponent and is
 * never materialised as 10^scale, so the inputs on which upstream v1.37 hangs (exponents near
 * +-2^31) decode at once to their exact value, as upstream master decodes them.  Two
 * deliberate differences, both at that int32 edge (see the README of this module in the
 * report): a decimal exponent that truncates to -2^31 is rejected with ErrSuffix (as upstream
 * master does), and a quantity whose canonical exponent exceeds 2^31-1 is rejected (upstream
 * prints a wrapped exponent there, a spelling that reparses to a different value).
 *
 * Value()/MilliValue() follow the current upstream: rounded away from zero, saturated at the
 * int64 bounds.  Nothing here allocates for the ordinary inputs of fs_quantity_parse_value()
 * and fs_quantity_parse_milli(), nor in fs_quantity_format_int(). */
#include "fitscale/model/quantity.h"

#include <gmp.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fitscale/model/error.h"

#if GMP_NAIL_BITS != 0
#error "fitscale needs a GMP without nail bits"
#endif

/* Longest input a parse looks at, and how much of a longer one an error quotes. */
#define QUANTITY_MAX_INPUT 1024
#define QUANTITY_QUOTE_PREFIX 32
/* Longest input the allocation-free direct path of fs_quantity_parse_value() takes. */
#define DIRECT_MAX_INPUT 48
/* fs_quantity_format_int() takes scales in this range (FS_QUANTITY_INT_BUF holds them all). */
#define FORMAT_INT_MIN_SCALE (-18)
#define FORMAT_INT_MAX_SCALE 9

/* math.go maxInt64Factors and log10MaxInt64; amount.go Nano and Milli. */
#define MAX_INT64_FACTORS 18
#define LOG10_MAX_INT64 19
#define SCALE_NANO (-9)
#define SCALE_MILLI (-3)

/* quantity.go splitREString and the parse errors built from it. */
#define SPLIT_RE_STRING "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
static const char err_format_wrong[] =
  "quantities must match the regular expression '" SPLIT_RE_STRING "'";
static const char err_numeric[] = "unable to parse numeric part of quantity";
static const char err_suffix[] = "unable to parse quantity's suffix";

/* 10^0 .. 10^19; 10^19 still fits a guint64. */
static const guint64 pow10_u64[20] = {
  1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
  1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
  100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
  1000000000000000000ull, 10000000000000000000ull,
};

struct FsQuantity
{
  FsQuantityFormat format;
  gboolean big;     /* FALSE: int64Amount (value, scale); TRUE: infDecAmount (unscaled, scale) */
  int64_t value;    /* the int64Amount mantissa, without trailing decimal zeros */
  int64_t scale;    /* power-of-ten exponent of either form (upstream's Scale, widened) */
  mpz_t unscaled;   /* the inf.Dec mantissa; initialised only when big */
  char *cached;     /* Quantity.s: the input spelling, when the parse found it canonical */
};

typedef enum
{
  PARSE_OK,
  PARSE_ERR_FORMAT,  /* ErrFormatWrong */
  PARSE_ERR_NUMERIC, /* ErrNumeric */
  PARSE_ERR_SUFFIX,  /* ErrSuffix */
  PARSE_ERR_RANGE,   /* fitscale: the canonical exponent does not fit int32 */
} ParseStatus;

/* The pieces parseQuantityString returns.  `value` (what inf.Dec.SetString reads) is the sign,
 * int_digits, and the denominator; only its digits matter here. */
typedef struct
{
  gboolean positive;
  const char *int_digits; /* integer digits, leading zeros included */
  gsize int_len;
  const char *num;        /* integer digits without leading zeros, "0" when none */
  gsize num_len;
  const char *denom;
  gsize denom_len;
  const char *suffix;
  gsize suffix_len;
} QuantityParts;

/* suffix.go bePair plus the format interpret() reports. */
typedef struct
{
  int32_t base;
  int32_t exponent;
  FsQuantityFormat format;
} SuffixValue;

/* suffix.go newSuffixer: every suffix interpret() knows by name, decimal ones first. */
static const struct
{
  const char *text;
  SuffixValue value;
} suffix_table[] = {
  { "", { 10, 0, FS_QUANTITY_DECIMAL_SI } },
  { "n", { 10, -9, FS_QUANTITY_DECIMAL_SI } },
  { "u", { 10, -6, FS_QUANTITY_DECIMAL_SI } },
  { "m", { 10, -3, FS_QUANTITY_DECIMAL_SI } },
  { "k", { 10, 3, FS_QUANTITY_DECIMAL_SI } },
  { "M", { 10, 6, FS_QUANTITY_DECIMAL_SI } },
  { "G", { 10, 9, FS_QUANTITY_DECIMAL_SI } },
  { "T", { 10, 12, FS_QUANTITY_DECIMAL_SI } },
  { "P", { 10, 15, FS_QUANTITY_DECIMAL_SI } },
  { "E", { 10, 18, FS_QUANTITY_DECIMAL_SI } },
  { "Ki", { 2, 10, FS_QUANTITY_BINARY_SI } },
  { "Mi", { 2, 20, FS_QUANTITY_BINARY_SI } },
  { "Gi", { 2, 30, FS_QUANTITY_BINARY_SI } },
  { "Ti", { 2, 40, FS_QUANTITY_BINARY_SI } },
  { "Pi", { 2, 50, FS_QUANTITY_BINARY_SI } },
  { "Ei", { 2, 60, FS_QUANTITY_BINARY_SI } },
};

/* ---------------------------------------------------------------------------------------- */
/* Small helpers                                                                             */

/* fitscale-only: Go's int32(x) conversion, keeping the low 32 bits (two's complement). */
static int32_t
wrap_int32 (int64_t x)
{
  guint32 low = (guint32) (guint64) x;

  if (low <= (guint32) INT32_MAX)
    return (int32_t) low;
  return (int32_t) (low - 0x80000000u) + INT32_MIN;
}

/* fitscale-only: |value| as a guint64 (INT64_MIN included). */
static guint64
magnitude_u64 (int64_t value)
{
  return value < 0 ? (guint64) 0 - (guint64) value : (guint64) value;
}

/* fitscale-only: NEGATIVE ? -magnitude : magnitude, for a magnitude that fits. */
static int64_t
signed_from_magnitude (guint64 magnitude, gboolean negative)
{
  if (!negative)
    return (int64_t) magnitude;
  if (magnitude == (guint64) INT64_MAX + 1)
    return INT64_MIN;
  return -(int64_t) magnitude;
}

/* math.go mostPositive / mostNegative: the int64 rail of a sign. */
static int64_t
int64_rail (gboolean negative)
{
  return negative ? INT64_MIN : INT64_MAX;
}

/* fitscale-only: writes the decimal digits of V (no sign, no leading zeros) and returns how
 * many; strconv.AppendInt without the sign. */
static gsize
write_u64_digits (guint64 v, char out[20])
{
  char reversed[20];
  gsize n = 0;

  do
    {
      reversed[n++] = (char) ('0' + v % 10);
      v /= 10;
    }
  while (v != 0);
  for (gsize i = 0; i < n; i++)
    out[i] = reversed[n - 1 - i];
  return n;
}

/* fitscale-only: the magnitude of a z with |z| < 2^64. */
static guint64
mpz_get_u64 (const mpz_t z)
{
  guint64 v = 0;

  mpz_export (&v, NULL, -1, sizeof v, 0, 0, z);
  return v;
}

/* fitscale-only: z = v. */
static void
mpz_set_u64 (mpz_t z, guint64 v)
{
  mpz_import (z, 1, -1, sizeof v, 0, 0, &v);
}

/* fitscale-only: appends TEXT as a double-quoted string with the bytes outside printable ASCII
 * escaped (a byte-wise Go %q), so an error message never carries raw control bytes. */
static void
append_quoted (GString *out, const char *text, gsize len)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) text[i];

      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", c);
      else if (c >= 0x20 && c < 0x7f)
        g_string_append_c (out, (char) c);
      else
        g_string_append_printf (out, "\\x%02x", c);
    }
  g_string_append_c (out, '"');
}

/* fitscale-only: the FS_ERROR_LIMIT error for an input over QUANTITY_MAX_INPUT bytes. */
static void
set_limit_error (GError **error, const char *text, gsize len)
{
  g_autoptr (GString) quoted = g_string_new (NULL);

  append_quoted (quoted, text, QUANTITY_QUOTE_PREFIX);
  g_set_error (error, FS_ERROR, FS_ERROR_LIMIT,
               "quantity %s... is %" G_GSIZE_FORMAT " bytes long; a quantity may have at most %d",
               quoted->str, len, QUANTITY_MAX_INPUT);
}

/* fitscale-only: the FS_ERROR_INVALID error for STATUS, quoting the input as upstream's
 * callers do (`quantity "1.5.5Gi": quantities must match ...`). */
static void
set_parse_error (GError **error, const char *text, gsize len, ParseStatus status,
                 int64_t exponent)
{
  g_autoptr (GString) quoted = g_string_new (NULL);

  append_quoted (quoted, text, len);
  switch (status)
    {
    case PARSE_ERR_NUMERIC:
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "quantity %s: %s", quoted->str, err_numeric);
      break;
    case PARSE_ERR_SUFFIX:
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "quantity %s: %s", quoted->str, err_suffix);
      break;
    case PARSE_ERR_RANGE:
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "quantity %s: its canonical form needs the exponent 10^%" PRId64
                   ", beyond the int32 scale of a quantity", quoted->str, exponent);
      break;
    case PARSE_ERR_FORMAT:
    case PARSE_OK:
    default:
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "quantity %s: %s", quoted->str,
                   err_format_wrong);
      break;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* math.go                                                                                   */

/* math.go positiveScaleInt64: base * 10^scale; on overflow FALSE and the rail of base's sign. */
static gboolean
positive_scale_int64 (int64_t base, int64_t scale, int64_t *out)
{
  guint64 magnitude = magnitude_u64 (base);
  guint64 limit = base < 0 ? (guint64) INT64_MAX + 1 : (guint64) INT64_MAX;

  if (base == 0)
    {
      *out = 0;
      return TRUE;
    }
  if (scale >= LOG10_MAX_INT64 || magnitude > limit / pow10_u64[scale])
    {
      *out = int64_rail (base < 0);
      return FALSE;
    }
  *out = signed_from_magnitude (magnitude * pow10_u64[scale], base < 0);
  return TRUE;
}

/* math.go negativeScaleInt64: base / 10^scale, rounded away from zero; FALSE when inexact. */
static int64_t
negative_scale_int64 (int64_t base, int64_t scale, gboolean *exact)
{
  int64_t value = base;
  gboolean fraction = FALSE;

  for (int64_t i = 0; i < scale; i++)
    {
      if (!fraction && value % 10 != 0)
        fraction = TRUE;
      value = value / 10;
      if (value == 0)
        {
          if (exact)
            *exact = !fraction;
          if (!fraction)
            return 0;
          return base > 0 ? 1 : -1;
        }
    }
  if (fraction)
    value += base > 0 ? 1 : -1;
  if (exact)
    *exact = !fraction;
  return value;
}

/* ---------------------------------------------------------------------------------------- */
/* suffix.go                                                                                 */

/* strconv.ParseInt (s, 10, 64), as suffix.go interpret() calls it: an optional sign, then
 * one or more ASCII digits, within int64. */
static gboolean
go_parse_int64 (const char *s, gsize len, int64_t *out)
{
  gboolean negative = FALSE;
  guint64 limit, n = 0;
  gsize i = 0;

  if (len > 0 && (s[0] == '+' || s[0] == '-'))
    {
      negative = s[0] == '-';
      i = 1;
    }
  if (i == len)
    return FALSE;
  limit = negative ? (guint64) INT64_MAX + 1 : (guint64) INT64_MAX;
  for (; i < len; i++)
    {
      guint digit;

      if (!g_ascii_isdigit (s[i]))
        return FALSE;
      digit = (guint) (s[i] - '0');
      if (n > (limit - digit) / 10)
        return FALSE;
      n = n * 10 + digit;
    }
  *out = signed_from_magnitude (n, negative);
  return TRUE;
}

/* suffix.go listSuffixer.lookup over both tables: the named suffixes. */
static const SuffixValue *
suffix_lookup (const char *s, gsize len)
{
  for (gsize i = 0; i < G_N_ELEMENTS (suffix_table); i++)
    if (strlen (suffix_table[i].text) == len && memcmp (suffix_table[i].text, s, len) == 0)
      return &suffix_table[i].value;
  return NULL;
}

/* suffix.go fastLookup.interpret and suffixHandler.interpret: base, exponent and format of a
 * suffix; FALSE for ErrSuffix.  A decimal exponent is parsed as an int64 and truncated to int32
 * as upstream does ("1e4294967297" is 1e1); one that truncates to -2^31 is rejected, as
 * upstream master rejects it (its negation does not fit the scale). */
static gboolean
suffix_interpret (const char *s, gsize len, SuffixValue *out)
{
  const SuffixValue *named = suffix_lookup (s, len);
  int64_t parsed;
  int32_t exponent;

  if (named)
    {
      *out = *named;
      return TRUE;
    }
  if (len < 2 || (s[0] != 'E' && s[0] != 'e'))
    return FALSE;
  if (!go_parse_int64 (s + 1, len - 1, &parsed))
    return FALSE;
  exponent = wrap_int32 (parsed);
  if (exponent == INT32_MIN)
    return FALSE;
  out->base = 10;
  out->exponent = exponent;
  out->format = FS_QUANTITY_DECIMAL_EXPONENT;
  return TRUE;
}

/* suffix.go suffixHandler.constructBytes (10, exponent, format), with the fallback of
 * quantity.go CanonicalizeBytes: a DecimalSI exponent without a suffix prints as "e<n>".
 * Writes the suffix to OUT (at least 22 bytes) and returns its length. */
static gsize
write_decimal_suffix (char *out, int64_t exponent, FsQuantityFormat format)
{
  if (format == FS_QUANTITY_DECIMAL_SI)
    for (gsize i = 0; i < G_N_ELEMENTS (suffix_table); i++)
      if (suffix_table[i].value.base == 10 && suffix_table[i].value.exponent == exponent)
        {
          gsize len = strlen (suffix_table[i].text);

          memcpy (out, suffix_table[i].text, len);
          return len;
        }
  if (exponent == 0)
    return 0;
  return (gsize) sprintf (out, "e%" PRId64, exponent);
}

/* suffix.go suffixHandler.constructBytes (2, times*10, BinarySI): "Ki" .. "Ei".  Any other
 * power of 1024 (0, or one past 2^60, which only a constructed value reaches) has no suffix,
 * and upstream prints none. */
static const char *
binary_suffix (int times)
{
  for (gsize i = 0; i < G_N_ELEMENTS (suffix_table); i++)
    if (suffix_table[i].value.base == 2 && suffix_table[i].value.exponent == times * 10)
      return suffix_table[i].text;
  return "";
}

/* ---------------------------------------------------------------------------------------- */
/* Canonical printing: amount.go AsCanonicalBytes / AsCanonicalBase1024Bytes                 */

/* amount.go int64Amount.AsCanonicalBytes and infDecAmount.AsCanonicalBytes, followed by the
 * DecimalExponent/DecimalSI branch of quantity.go CanonicalizeBytes: the decimal DIGITS of the
 * mantissa lose their trailing zeros to the exponent, the exponent goes down to a multiple of 3
 * (appending zeros), and the suffix follows.  Multiplying by 10 or 100 is appending "0"s, so no
 * arithmetic can overflow.  OUT needs n_digits + 25 bytes; returns the length written. */
static gsize
write_decimal_canonical (char *out, gboolean negative, const char *digits, gsize n_digits,
                         int64_t exponent, FsQuantityFormat format)
{
  gsize len = 0;
  int pad;

  while (n_digits > 1 && digits[n_digits - 1] == '0')
    {
      n_digits--;
      exponent++;
    }
  pad = (int) (((exponent % 3) + 3) % 3);
  exponent -= pad;
  if (negative)
    out[len++] = '-';
  memcpy (out + len, digits, n_digits);
  len += n_digits;
  for (int i = 0; i < pad; i++)
    out[len++] = '0';
  len += write_decimal_suffix (out + len, exponent, format);
  out[len] = '\0';
  return len;
}

/* amount.go int64Amount.AsCanonicalBase1024Bytes with math.go removeInt64Factors (value, 1024)
 * and the BinarySI branch of CanonicalizeBytes.  Like upstream, INT64_MIN keeps all its
 * factors (its negation does not fit) and prints without a suffix. */
static gsize
write_int64_base1024 (char *out, int64_t value)
{
  char digits[20];
  guint64 magnitude = magnitude_u64 (value);
  gsize len = 0, n_digits;
  int times = 0;
  const char *suffix;

  if (value != INT64_MIN)
    while (magnitude >= 1024 && magnitude % 1024 == 0)
      {
        magnitude /= 1024;
        times++;
      }
  if (value < 0)
    out[len++] = '-';
  n_digits = write_u64_digits (magnitude, digits);
  memcpy (out + len, digits, n_digits);
  len += n_digits;
  suffix = binary_suffix (times);
  memcpy (out + len, suffix, strlen (suffix));
  len += strlen (suffix);
  out[len] = '\0';
  return len;
}

/* amount.go infDecAmount.AsCanonicalBase1024Bytes for fs_quantity_format_int(): |VALUE| * 10^SCALE
 * (SCALE <= FORMAT_INT_MAX_SCALE, more than int64 holds) in base 1024, on stack limbs so that
 * nothing is allocated.  OUT needs FS_QUANTITY_INT_BUF bytes; returns the length written. */
static gsize
write_scaled_base1024 (char *out, int64_t value, int scale)
{
  mp_limb_t limbs[4] = { 0 };
  mp_size_t n = 0;
  guint64 magnitude = magnitude_u64 (value);
  char reversed[40];
  gsize n_digits = 0, len = 0;
  int times = 0;
  const char *suffix;

#if GMP_NUMB_BITS >= 64
  limbs[n++] = (mp_limb_t) magnitude;
#else
  limbs[n++] = (mp_limb_t) (magnitude & GMP_NUMB_MASK);
  limbs[n++] = (mp_limb_t) (magnitude >> GMP_NUMB_BITS);
  if (limbs[n - 1] == 0)
    n--;
#endif
  for (int i = 0; i < scale; i++)
    {
      mp_limb_t carry = mpn_mul_1 (limbs, limbs, n, 10);

      if (carry != 0)
        limbs[n++] = carry;
    }
  while ((limbs[0] & 1023) == 0 && (n > 1 || limbs[0] >= 1024))
    {
      mpn_rshift (limbs, limbs, n, 10);
      if (limbs[n - 1] == 0)
        n--;
      times++;
    }
  while (n > 0)
    {
      reversed[n_digits++] = (char) ('0' + mpn_divrem_1 (limbs, 0, limbs, n, 10));
      if (limbs[n - 1] == 0)
        n--;
    }
  if (value < 0)
    out[len++] = '-';
  while (n_digits > 0)
    out[len++] = reversed[--n_digits];
  suffix = binary_suffix (times);
  memcpy (out + len, suffix, strlen (suffix));
  len += strlen (suffix);
  out[len] = '\0';
  return len;
}

/* ---------------------------------------------------------------------------------------- */
/* int64Amount (amount.go)                                                                   */

/* amount.go int64Amount.AsScaledInt64 (the current, saturating version): VALUE * 10^SCALE in
 * units of 10^TARGET, rounded away from zero; FALSE, with the rail of the sign, on overflow. */
static gboolean
int64_amount_as_scaled (int64_t value, int64_t scale, int64_t target, int64_t *out)
{
  int64_t delta = scale - target;

  if (value == 0)
    {
      *out = 0;
      return TRUE;
    }
  if (delta < 0)
    {
      /* Scaling down past 10^-log10MaxInt64 leaves only the rounding unit. */
      if (-delta >= LOG10_MAX_INT64)
        *out = value < 0 ? -1 : 1;
      else
        *out = negative_scale_int64 (value, -delta, NULL);
      return TRUE;
    }
  return positive_scale_int64 (value, delta, out);
}

/* quantity.go Quantity.CmpInt64 against -1024 and 1024, for an int64Amount: TRUE when
 * -1024 < VALUE * 10^SCALE < 1024. */
static gboolean
int64_amount_below_1024 (int64_t value, int64_t scale)
{
  guint64 magnitude = magnitude_u64 (value);

  if (scale >= 0)
    return scale <= 3 && magnitude <= 1023 / pow10_u64[scale];
  if (-scale >= 17)
    return TRUE;
  return magnitude < 1024 * pow10_u64[-scale];
}

/* amount.go int64Amount.AsScale (0): whether VALUE * 10^SCALE is a whole number. */
static gboolean
int64_amount_is_integer (int64_t value, int64_t scale)
{
  if (scale >= 0 || value == 0)
    return TRUE;
  if (-scale >= LOG10_MAX_INT64)
    return FALSE;
  return magnitude_u64 (value) % pow10_u64[-scale] == 0;
}

/* ---------------------------------------------------------------------------------------- */
/* infDecAmount (amount.go, scale_int.go)                                                    */

/* scale_int.go bigToInt64Saturated. */
static gboolean
mpz_to_int64_saturated (const mpz_t v, int64_t *out)
{
  if (mpz_sizeinbase (v, 2) <= 63)
    {
      *out = signed_from_magnitude (mpz_get_u64 (v), mpz_sgn (v) < 0);
      return TRUE;
    }
  if (mpz_sgn (v) < 0 && mpz_sizeinbase (v, 2) == 64 && mpz_scan1 (v, 0) == 63)
    {
      *out = INT64_MIN; /* exactly -2^63 */
      return TRUE;
    }
  *out = int64_rail (mpz_sgn (v) < 0);
  return FALSE;
}

/* scale_int.go scaledValue (the current, saturating version): UNSCALED * 10^SCALE in units of
 * 10^TARGET, rounded away from zero, without building a 10^n wider than the mantissa. */
static gboolean
mpz_amount_as_scaled (const mpz_t unscaled, int64_t scale, int64_t target, int64_t *out)
{
  int64_t dif = target - scale; /* inf.Scale difference: scale - newScale */
  gboolean negative = mpz_sgn (unscaled) < 0;
  gboolean ok;
  mpz_t quotient, remainder, divisor;

  if (dif == 0)
    return mpz_to_int64_saturated (unscaled, out);
  if (mpz_sgn (unscaled) == 0)
    {
      *out = 0;
      return TRUE;
    }
  if (dif < 0)
    {
      int64_t small;

      if (dif <= -LOG10_MAX_INT64 || !mpz_to_int64_saturated (unscaled, &small))
        {
          *out = int64_rail (negative);
          return FALSE;
        }
      return positive_scale_int64 (small, -dif, out);
    }
  if ((guint64) dif >= mpz_sizeinbase (unscaled, 2))
    {
      *out = negative ? -1 : 1;
      return TRUE;
    }
  mpz_inits (quotient, remainder, divisor, NULL);
  mpz_ui_pow_ui (divisor, 10, (unsigned long) dif);
  mpz_tdiv_qr (quotient, remainder, unscaled, divisor);
  if (mpz_sgn (remainder) != 0)
    {
      if (negative)
        mpz_sub_ui (quotient, quotient, 1);
      else
        mpz_add_ui (quotient, quotient, 1);
    }
  ok = mpz_to_int64_saturated (quotient, out);
  mpz_clears (quotient, remainder, divisor, NULL);
  return ok;
}

/* quantity.go ParseQuantity: `amount.Round(amount, Nano.infScale(), inf.RoundUp)` on the
 * magnitude of a non-zero amount.  A value finer than 1n rounds away from zero; when 10^shift
 * exceeds the whole mantissa the result is 1n outright, so no 10^shift is ever built for the
 * extreme exponents (upstream master's sub-nano shortcut). */
static void
round_up_to_nano (mpz_t magnitude, int64_t *scale)
{
  guint64 shift;

  if (mpz_sgn (magnitude) == 0 || *scale >= SCALE_NANO)
    return;
  shift = (guint64) (SCALE_NANO - *scale);
  if (shift >= mpz_sizeinbase (magnitude, 10))
    mpz_set_ui (magnitude, 1);
  else
    {
      mpz_t divisor;

      mpz_init (divisor);
      mpz_ui_pow_ui (divisor, 10, (unsigned long) shift);
      mpz_cdiv_q (magnitude, magnitude, divisor);
      mpz_clear (divisor);
    }
  *scale = SCALE_NANO;
}

/* inf.Dec.Cmp of MAGNITUDE * 10^SCALE against BOUND, for SCALE in [-9, 0] (what a BinarySI
 * amount has after the nano rounding). */
static int
mpz_cmp_scaled_u64 (const mpz_t magnitude, int64_t scale, guint64 bound)
{
  mpz_t scaled_bound;
  int cmp;

  g_assert (scale <= 0 && scale >= SCALE_NANO);
  mpz_init (scaled_bound);
  mpz_set_u64 (scaled_bound, bound);
  mpz_mul_ui (scaled_bound, scaled_bound, (unsigned long) pow10_u64[-scale]);
  cmp = mpz_cmp (magnitude, scaled_bound);
  mpz_clear (scaled_bound);
  return cmp;
}

/* ---------------------------------------------------------------------------------------- */
/* FsQuantity storage                                                                        */

/* fitscale-only: stores the int64Amount VALUE * 10^SCALE, trailing zeros moved to the scale;
 * PARSE_ERR_RANGE when the resulting exponent (the one AsCanonicalBytes would print from) does
 * not fit int32. */
static ParseStatus
quantity_set_int64 (FsQuantity *q, int64_t value, int64_t scale)
{
  if (value == 0)
    scale = 0;
  while (value != 0 && value % 10 == 0)
    {
      value /= 10;
      scale++;
    }
  q->value = value;
  q->scale = scale;
  return scale > INT32_MAX ? PARSE_ERR_RANGE : PARSE_OK;
}

/* fitscale-only: stores the inf.Dec -MAGNITUDE (NEGATIVE) or MAGNITUDE times 10^SCALE, as an
 * int64Amount when the mantissa fits.  MAGNITUDE loses its trailing zeros. */
static ParseStatus
quantity_set_mpz (FsQuantity *q, mpz_t magnitude, int64_t scale, gboolean negative)
{
  if (mpz_sgn (magnitude) == 0)
    return quantity_set_int64 (q, 0, 0);
  while (mpz_divisible_ui_p (magnitude, 10))
    {
      mpz_divexact_ui (magnitude, magnitude, 10);
      scale++;
    }
  q->scale = scale;
  if (scale > INT32_MAX)
    return PARSE_ERR_RANGE;
  if (mpz_sizeinbase (magnitude, 2) <= 63)
    {
      q->value = signed_from_magnitude (mpz_get_u64 (magnitude), negative);
      return PARSE_OK;
    }
  mpz_init_set (q->unscaled, magnitude);
  if (negative)
    mpz_neg (q->unscaled, q->unscaled);
  q->big = TRUE;
  return PARSE_OK;
}

/* quantity.go Quantity.IsZero. */
static gboolean
quantity_is_zero (const FsQuantity *q)
{
  return q->big ? mpz_sgn (q->unscaled) == 0 : q->value == 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Parsing (quantity.go)                                                                     */

/* fitscale-only: whether C is one of the suffix letters "eEinumkKMGTP" (strings.ContainsAny on
 * one byte; a NUL is not one). */
static gboolean
is_suffix_letter (char c)
{
  return c != '\0' && strchr ("eEinumkKMGTP", c) != NULL;
}

/* quantity.go parseQuantityString: the fast scanner.  Splits STR into sign, number and suffix
 * without judging the suffix; PARSE_ERR_FORMAT when a character follows what the scanner
 * accepts. */
static ParseStatus
parse_quantity_string (const char *str, gsize end, QuantityParts *parts)
{
  gsize pos = 0, int_start, num_start, denom_start, suffix_start;

  memset (parts, 0, sizeof *parts);
  parts->positive = TRUE;
  parts->num = "0";
  parts->num_len = 1;
  parts->suffix = str + end;
  if (pos < end && (str[0] == '-' || str[0] == '+'))
    {
      parts->positive = str[0] != '-';
      pos++;
    }
  /* strip leading zeros; nothing else means the value is "0" */
  int_start = pos;
  while (pos < end && str[pos] == '0')
    pos++;
  if (pos >= end)
    {
      parts->int_digits = "0";
      parts->int_len = 1;
      return PARSE_OK;
    }
  /* extract the numerator */
  num_start = pos;
  while (pos < end && g_ascii_isdigit (str[pos]))
    pos++;
  parts->int_digits = str + int_start;
  parts->int_len = pos - int_start;
  if (pos > num_start)
    {
      parts->num = str + num_start;
      parts->num_len = pos - num_start;
    }
  if (pos >= end)
    return PARSE_OK;
  /* handle a denominator */
  if (str[pos] == '.')
    {
      denom_start = ++pos;
      while (pos < end && g_ascii_isdigit (str[pos]))
        pos++;
      parts->denom = str + denom_start;
      parts->denom_len = pos - denom_start;
      if (pos >= end)
        return PARSE_OK;
    }
  /* grab the elements of the suffix */
  suffix_start = pos;
  while (pos < end && is_suffix_letter (str[pos]))
    pos++;
  if (pos < end && (str[pos] == '-' || str[pos] == '+'))
    pos++;
  while (pos < end && g_ascii_isdigit (str[pos]))
    pos++;
  if (pos < end)
    return PARSE_ERR_FORMAT;
  parts->suffix = str + suffix_start;
  parts->suffix_len = end - suffix_start;
  return PARSE_OK;
}

/* fitscale-only: the I-th digit (0-based) of upstream's `shifted` (num + denom). */
static char
shifted_digit (const QuantityParts *parts, gsize i)
{
  return i < parts->num_len ? parts->num[i] : parts->denom[i - parts->num_len];
}

/* quantity.go ParseQuantity, the canonical-string test of the int64 fast path:
 * `scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0'`. */
static gboolean
shifted_is_canonical (const QuantityParts *parts, int32_t scale)
{
  gsize len = parts->num_len + parts->denom_len;
  gboolean ends_000 = len >= 3;

  for (gsize i = 1; i <= 3 && ends_000; i++)
    ends_000 = shifted_digit (parts, len - i) == '0';
  return scale % 3 == 0 && !ends_000 && shifted_digit (parts, 0) != '0';
}

/* quantity.go ParseQuantity, the int64 fast path: the `precision` estimate, the int32 scale
 * (wrapping as upstream's does), strconv.ParseInt of num+denom and int64Multiply by the binary
 * mantissa.  FALSE when upstream falls through to inf.Dec; otherwise *VALUE * 10^*SCALE and
 * whether upstream keeps the input as the canonical string. */
static gboolean
parse_int64_fast_path (const QuantityParts *parts, const SuffixValue *sfx, int64_t *value,
                       int32_t *scale, gboolean *canonical)
{
  int32_t precision, fast_scale = 0;
  int64_t mantissa = 1, digits = 0;

  switch (sfx->format)
    {
    case FS_QUANTITY_BINARY_SI:
      if (sfx->exponent < 0 || parts->denom_len != 0)
        return FALSE;
      mantissa = INT64_C (1) << sfx->exponent;
      /* 1Mi (2^20) has ~6 digits of decimal precision, so exponent*3/10 -1 is roughly the
       * precision; float32 arithmetic as upstream (exact for these exponents) */
      precision = 15 - (int32_t) parts->num_len - (int32_t) ((float) sfx->exponent * 3 / 10) - 1;
      break;
    case FS_QUANTITY_DECIMAL_EXPONENT:
    case FS_QUANTITY_DECIMAL_SI:
    default:
      fast_scale = sfx->exponent;
      precision = MAX_INT64_FACTORS - (int32_t) (parts->num_len + parts->denom_len);
      break;
    }
  if (precision < 0)
    return FALSE;
  fast_scale = wrap_int32 ((int64_t) fast_scale - (int64_t) parts->denom_len);
  if (fast_scale < SCALE_NANO)
    return FALSE;
  /* at most 18 digits: strconv.ParseInt cannot fail, nor can int64Multiply */
  for (gsize i = 0; i < parts->num_len + parts->denom_len; i++)
    digits = digits * 10 + (shifted_digit (parts, i) - '0');
  *value = parts->positive ? digits * mantissa : -(digits * mantissa);
  *scale = fast_scale;
  if (sfx->format == FS_QUANTITY_BINARY_SI)
    *canonical = sfx->exponent % 10 == 0 && (digits & 0x07) != 0;
  else
    *canonical = shifted_is_canonical (parts, fast_scale);
  return TRUE;
}

/* quantity.go ParseQuantity, the inf.Dec fallback: SetString of the number (ErrNumeric when it
 * has no digit), the suffix applied (int32 scale arithmetic, wrapping as upstream's), the nano
 * round-up, the BinarySI cap at maxAllowed and the BinarySI -> DecimalSI switch below one. */
static ParseStatus
parse_inf_dec (const QuantityParts *parts, const SuffixValue *sfx, FsQuantity *q)
{
  gsize n_digits = parts->int_len + parts->denom_len;
  g_autofree char *digits = NULL;
  int32_t inf_scale = (int32_t) parts->denom_len;
  int64_t scale;
  ParseStatus status;
  mpz_t amount;

  if (n_digits == 0)
    return PARSE_ERR_NUMERIC;
  digits = g_malloc (n_digits + 1);
  if (parts->int_len > 0)
    memcpy (digits, parts->int_digits, parts->int_len);
  if (parts->denom_len > 0)
    memcpy (digits + parts->int_len, parts->denom, parts->denom_len);
  digits[n_digits] = '\0';
  mpz_init_set_str (amount, digits, 10);

  /* So that no one but us has to think about suffixes, remove it. */
  if (sfx->base == 10)
    inf_scale = wrap_int32 ((int64_t) inf_scale - (int64_t) sfx->exponent);
  else
    mpz_mul_2exp (amount, amount, (mp_bitcnt_t) sfx->exponent);
  scale = -(int64_t) inf_scale;

  round_up_to_nano (amount, &scale);
  q->format = sfx->format;
  if (q->format == FS_QUANTITY_BINARY_SI && mpz_sgn (amount) != 0)
    {
      /* The max is just a simple cap. */
      if (mpz_cmp_scaled_u64 (amount, scale, INT64_MAX) > 0)
        {
          mpz_set_u64 (amount, INT64_MAX);
          scale = 0;
        }
      /* This avoids rounding and hopefully confusion, too. */
      if (mpz_cmp_scaled_u64 (amount, scale, 1) < 0)
        q->format = FS_QUANTITY_DECIMAL_SI;
    }
  status = quantity_set_mpz (q, amount, scale, !parts->positive);
  mpz_clear (amount);
  return status;
}

/* quantity.go ParseQuantity: fills Q from STR (LEN bytes, at most QUANTITY_MAX_INPUT). */
static ParseStatus
parse_quantity (const char *str, gsize len, FsQuantity *q)
{
  QuantityParts parts;
  SuffixValue sfx;
  ParseStatus status;
  int64_t value;
  int32_t scale;
  gboolean canonical;

  if (len == 0)
    return PARSE_ERR_FORMAT;
  q->format = FS_QUANTITY_DECIMAL_SI;
  if (len == 1 && str[0] == '0')
    {
      q->cached = g_strdup ("0");
      return PARSE_OK;
    }
  status = parse_quantity_string (str, len, &parts);
  if (status != PARSE_OK)
    return status;
  if (!suffix_interpret (parts.suffix, parts.suffix_len, &sfx))
    return PARSE_ERR_SUFFIX;
  if (!parse_int64_fast_path (&parts, &sfx, &value, &scale, &canonical))
    return parse_inf_dec (&parts, &sfx, q);
  q->format = sfx.format;
  status = quantity_set_int64 (q, value, scale);
  if (status == PARSE_OK && canonical)
    q->cached = g_strndup (str, len);
  return status;
}

FsQuantity *
fs_quantity_parse (const char *text, gssize len, GError **error)
{
  g_autoptr (FsQuantity) q = NULL;
  ParseStatus status;
  gsize n;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n = len < 0 ? strlen (text) : (gsize) len;
  if (n > QUANTITY_MAX_INPUT)
    {
      set_limit_error (error, text, n);
      return NULL;
    }
  q = g_new0 (FsQuantity, 1);
  status = parse_quantity (text, n, q);
  if (status != PARSE_OK)
    {
      set_parse_error (error, text, n, status, q->scale);
      return NULL;
    }
  return g_steal_pointer (&q);
}

/* fitscale-only: frees Q and what it owns. */
void
fs_quantity_free (FsQuantity *quantity)
{
  if (quantity == NULL)
    return;
  if (quantity->big)
    mpz_clear (quantity->unscaled);
  g_free (quantity->cached);
  g_free (quantity);
}

/* quantity.go Quantity.Format. */
FsQuantityFormat
fs_quantity_get_format (const FsQuantity *quantity)
{
  g_return_val_if_fail (quantity != NULL, FS_QUANTITY_DECIMAL_SI);
  return quantity->format;
}

/* ---------------------------------------------------------------------------------------- */
/* Printing (quantity.go CanonicalizeBytes, String)                                          */

/* quantity.go CanonicalizeBytes, the BinarySI test: whether Q prints in base 1024, i.e. it is
 * not within (-1024, 1024) and AsScale(0) is exact.  Q is normalised (no trailing zeros), so a
 * whole number is one with a scale >= 0. */
static gboolean
quantity_prints_binary (const FsQuantity *q)
{
  if (q->scale < 0)
    return FALSE;
  return q->big || !int64_amount_below_1024 (q->value, q->scale);
}

/* quantity.go Quantity.CanonicalizeBytes: the canonical form of a non-cached Q.  Returns a
 * newly allocated string. */
static char *
quantity_canonicalize (const FsQuantity *q)
{
  FsQuantityFormat format = q->format;
  g_autofree char *big_digits = NULL;
  char small_digits[20];
  const char *digits;
  gsize n_digits;
  gboolean negative;
  char *out;

  if (quantity_is_zero (q))
    return g_strdup ("0");
  if (format == FS_QUANTITY_BINARY_SI && !quantity_prints_binary (q))
    format = FS_QUANTITY_DECIMAL_SI;

  if (format == FS_QUANTITY_BINARY_SI)
    {
      int64_t integer;
      gboolean fits;

      /* ParseQuantity caps a BinarySI amount at maxAllowed (2^63-1) and keeps it DecimalSI
       * below one, so a whole BinarySI quantity is an int64Amount that fits at scale 0. */
      g_assert (!q->big);
      fits = positive_scale_int64 (q->value, q->scale, &integer);
      g_assert (fits);
      out = g_malloc (FS_QUANTITY_INT_BUF);
      write_int64_base1024 (out, integer);
      return out;
    }

  if (q->big)
    {
      negative = mpz_sgn (q->unscaled) < 0;
      big_digits = g_malloc (mpz_sizeinbase (q->unscaled, 10) + 2);
      mpz_get_str (big_digits, 10, q->unscaled);
      digits = big_digits + (negative ? 1 : 0);
      n_digits = strlen (digits);
    }
  else
    {
      negative = q->value < 0;
      n_digits = write_u64_digits (magnitude_u64 (q->value), small_digits);
      digits = small_digits;
    }
  out = g_malloc (n_digits + 26);
  write_decimal_canonical (out, negative, digits, n_digits, q->scale, format);
  return out;
}

/* quantity.go Quantity.String: the cached input spelling when the parse kept one, else the
 * canonical form. */
char *
fs_quantity_to_string (const FsQuantity *quantity)
{
  g_return_val_if_fail (quantity != NULL, NULL);

  if (quantity->cached)
    return g_strdup (quantity->cached);
  return quantity_canonicalize (quantity);
}

/* quantity.go NewScaledQuantity (value, scale) with .Format = format, then String(): the
 * canonical form of an int64Amount, without allocating. */
char *
fs_quantity_format_int (int64_t value, int scale, FsQuantityFormat format,
                        char buf[FS_QUANTITY_INT_BUF])
{
  char digits[20];
  gsize n_digits;

  g_return_val_if_fail (buf != NULL, NULL);
  g_return_val_if_fail (scale >= FORMAT_INT_MIN_SCALE && scale <= FORMAT_INT_MAX_SCALE, NULL);
  g_return_val_if_fail (format == FS_QUANTITY_DECIMAL_EXPONENT || format == FS_QUANTITY_BINARY_SI
                          || format == FS_QUANTITY_DECIMAL_SI, NULL);

  if (value == 0)
    {
      strcpy (buf, "0");
      return buf;
    }
  if (format == FS_QUANTITY_BINARY_SI)
    {
      int64_t integer;

      if (int64_amount_below_1024 (value, scale) || !int64_amount_is_integer (value, scale))
        format = FS_QUANTITY_DECIMAL_SI;
      else if (int64_amount_as_scaled (value, scale, 0, &integer))
        {
          write_int64_base1024 (buf, integer);
          return buf;
        }
      else
        {
          write_scaled_base1024 (buf, value, scale);
          return buf;
        }
    }
  n_digits = write_u64_digits (magnitude_u64 (value), digits);
  write_decimal_canonical (buf, value < 0, digits, n_digits, scale, format);
  return buf;
}

/* ---------------------------------------------------------------------------------------- */
/* Value / MilliValue (quantity.go ScaledValue)                                              */

/* quantity.go Quantity.ScaledValue (TARGET) with the saturation of the current upstream:
 * rounded away from zero, FALSE and the int64 rail when the result does not fit. */
static gboolean
quantity_scaled_value (const FsQuantity *q, int64_t target, int64_t *out)
{
  if (q->big)
    return mpz_amount_as_scaled (q->unscaled, q->scale, target, out);
  return int64_amount_as_scaled (q->value, q->scale, target, out);
}

/* quantity.go Quantity.Value. */
gboolean
fs_quantity_value (const FsQuantity *quantity, int64_t *out)
{
  g_return_val_if_fail (quantity != NULL && out != NULL, FALSE);
  return quantity_scaled_value (quantity, 0, out);
}

/* quantity.go Quantity.MilliValue. */
gboolean
fs_quantity_milli_value (const FsQuantity *quantity, int64_t *out)
{
  g_return_val_if_fail (quantity != NULL && out != NULL, FALSE);
  return quantity_scaled_value (quantity, SCALE_MILLI, out);
}

/* ---------------------------------------------------------------------------------------- */
/* The allocation-free direct path of fs_quantity_parse_value / fs_quantity_parse_milli      */

/* fitscale-only: MANTISSA * 10^K rounded away from zero to a whole number, for any K; the
 * magnitude, or FALSE when it exceeds LIMIT. */
static gboolean
scale_magnitude_away (guint64 mantissa, int k, guint64 limit, guint64 *out)
{
  if (mantissa == 0)
    *out = 0;
  else if (k >= 0)
    {
      if (k >= LOG10_MAX_INT64 || mantissa > limit / pow10_u64[k])
        return FALSE;
      *out = mantissa * pow10_u64[k];
    }
  else if (-k > LOG10_MAX_INT64)
    *out = 1; /* 10^20 exceeds any guint64 */
  else
    *out = mantissa / pow10_u64[-k] + (mantissa % pow10_u64[-k] != 0);
  return *out <= limit;
}

/* fitscale-only: what ParseQuantity + ScaledValue (TARGET) give for a BinarySI number
 * MANTISSA / 10^N_FRACTION * 2^EXPONENT; FALSE when it needs more than 64 bits. */
static gboolean
direct_binary_magnitude (guint64 mantissa, int n_fraction, int exponent, int target,
                         guint64 limit, guint64 *out, gboolean *saturated)
{
  guint64 shifted;

  *saturated = FALSE;
  if (n_fraction == 0)
    {
      /* the parse caps the magnitude at maxAllowed (2^63-1) */
      shifted = mantissa > ((guint64) INT64_MAX >> exponent) ? (guint64) INT64_MAX
                                                            : mantissa << exponent;
    }
  else
    {
      if (n_fraction > LOG10_MAX_INT64 || mantissa > (G_MAXUINT64 >> exponent))
        return FALSE;
      /* below 2^64 / 10, far under the cap */
      shifted = mantissa << exponent;
    }
  if (!scale_magnitude_away (shifted, -target - n_fraction, limit, out))
    *saturated = TRUE;
  return TRUE;
}

/* fitscale-only: the direct path.  Takes [sign] digits [. digits] named-suffix with at most 18
 * significant digits and computes ParseQuantity(text).ScaledValue(TARGET) in 64-bit integers;
 * FALSE (nothing decided) for anything else, which the general path then handles.  Equal to the
 * general path: a nano round-up before the final round-up changes nothing (ceil(ceil(x)/n) ==
 * ceil(x/n)), and the BinarySI cap is applied at the same point. */
static gboolean
direct_scaled_value (const char *text, gsize len, int target, int64_t *out)
{
  const char *p = text, *end = text + len;
  const SuffixValue *sfx;
  gboolean negative = FALSE, saturated = FALSE;
  guint64 mantissa = 0, magnitude, limit;
  int n_digits = 0, n_fraction = 0;

  if (len == 0 || len > DIRECT_MAX_INPUT)
    return FALSE;
  if (*p == '-' || *p == '+')
    negative = *p++ == '-';
  for (; p < end && g_ascii_isdigit (*p); p++, n_digits++)
    {
      if (mantissa > (pow10_u64[MAX_INT64_FACTORS] - 1 - (guint64) (*p - '0')) / 10)
        return FALSE;
      mantissa = mantissa * 10 + (guint64) (*p - '0');
    }
  if (p < end && *p == '.')
    for (p++; p < end && g_ascii_isdigit (*p); p++, n_fraction++)
      {
        if (mantissa > (pow10_u64[MAX_INT64_FACTORS] - 1 - (guint64) (*p - '0')) / 10)
          return FALSE;
        mantissa = mantissa * 10 + (guint64) (*p - '0');
      }
  if (n_digits + n_fraction == 0)
    return FALSE;
  sfx = suffix_lookup (p, (gsize) (end - p));
  if (sfx == NULL)
    return FALSE;

  limit = negative ? (guint64) INT64_MAX + 1 : (guint64) INT64_MAX;
  if (sfx->base == 10)
    saturated = !scale_magnitude_away (mantissa, sfx->exponent - n_fraction - target, limit,
                                       &magnitude);
  else if (!direct_binary_magnitude (mantissa, n_fraction, sfx->exponent, target, limit,
                                     &magnitude, &saturated))
    return FALSE;
  *out = saturated ? int64_rail (negative) : signed_from_magnitude (magnitude, negative);
  return TRUE;
}

/* fitscale-only: fs_quantity_parse_value / fs_quantity_parse_milli. */
static gboolean
parse_scaled (const char *text, gsize len, int target, int64_t *out, GError **error)
{
  g_autoptr (FsQuantity) q = NULL;

  g_return_val_if_fail (text != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (text != NULL && direct_scaled_value (text, len, target, out))
    return TRUE;
  q = fs_quantity_parse (text != NULL ? text : "", (gssize) len, error);
  if (q == NULL)
    {
      *out = 0;
      return FALSE;
    }
  quantity_scaled_value (q, target, out);
  return TRUE;
}

/* quantity.go ParseQuantity followed by Quantity.Value. */
gboolean
fs_quantity_parse_value (const char *text, gsize len, int64_t *out, GError **error)
{
  return parse_scaled (text, len, 0, out, error);
}

/* quantity.go ParseQuantity followed by Quantity.MilliValue. */
gboolean
fs_quantity_parse_milli (const char *text, gsize len, int64_t *out, GError **error)
{
  return parse_scaled (text, len, SCALE_MILLI, out, error);
}
