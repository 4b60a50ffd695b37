/* Kubernetes resource quantities (include/fitscale/quantity.h) against the tables of
 * k8s.io/apimachinery pkg/api/resource/quantity_test.go.  Each case is named after the upstream
 * test its table comes from; the Fitscale* cases cover what fitscale adds (saturating
 * Value/MilliValue, the input limit, the allocation-free fast paths, format_int).
 *
 * Expected values and strings are upstream's: the Quantity each table row expects
 * (decQuantity (mantissa, exponent, format)) is turned into Value()/MilliValue() by an
 * independent 128-bit reference below, and the canonical strings follow upstream String(),
 * including its cached input spelling when ParseQuantity found the input canonical. */
#include "config.h"

#include <inttypes.h>

#include "testutil.h"
#include "fitscale/model/error.h"
#include "fitscale/model/quantity.h"

#define DEC_SI FS_QUANTITY_DECIMAL_SI
#define BIN_SI FS_QUANTITY_BINARY_SI
#define DEC_EXP FS_QUANTITY_DECIMAL_EXPONENT

/* ---------------------------------------------------------------------------------------- */
/* Reference arithmetic                                                                      */

typedef __int128 i128;

/* ceil-away (M * 10^(E - TARGET)): what Quantity.ScaledValue(TARGET) computes, unbounded. */
static i128
ref_scaled (i128 m, int e, int target)
{
  int d = e - target;

  if (m == 0)
    return 0;
  if (d >= 0)
    {
      for (int i = 0; i < d; i++)
        m *= 10;
      return m;
    }
  i128 div = 1;
  for (int i = 0; i < -d; i++)
    div *= 10;
  i128 q = m / div;
  if (m % div != 0)
    q += m < 0 ? -1 : 1;
  return q;
}

/* fitscale's contract: the int64 value when it fits, else FALSE and the rail of the sign. */
static gboolean
ref_saturate (i128 v, int64_t *out)
{
  if (v > (i128) INT64_MAX)
    {
      *out = INT64_MAX;
      return FALSE;
    }
  if (v < (i128) INT64_MIN)
    {
      *out = INT64_MIN;
      return FALSE;
    }
  *out = (int64_t) v;
  return TRUE;
}

/* Parses a plain decimal ("-123.45") into M * 10^E, for the inf.Dec strings of upstream's
 * TestParseQuantity table (at most 38 significant digits). */
static void
ref_decimal (const char *text, i128 *m, int *e)
{
  gboolean negative = FALSE, fraction = FALSE;
  i128 v = 0;
  int exp = 0;

  if (*text == '-')
    {
      negative = TRUE;
      text++;
    }
  for (; *text != '\0'; text++)
    {
      if (*text == '.')
        {
          fraction = TRUE;
          continue;
        }
      v = v * 10 + (*text - '0');
      if (fraction)
        exp--;
    }
  *m = negative ? -v : v;
  *e = exp;
}

/* ---------------------------------------------------------------------------------------- */
/* Helpers                                                                                   */

static FsQuantity *
must_parse (const char *text)
{
  g_autoptr (GError) error = NULL;
  FsQuantity *q = fs_quantity_parse (text, -1, &error);

  if (q == NULL)
    fail_msg ("\"%s\" rejected: %s", text, error->message);
  return q;
}

static void
assert_canonical (const FsQuantity *q, const char *input, const char *expect)
{
  g_autofree char *got = fs_quantity_to_string (q);

  if (strcmp (got, expect) != 0)
    fail_msg ("\"%s\": String() is \"%s\", upstream gives \"%s\"", input, got, expect);
}

/* Value() and MilliValue() of Q equal ceil-away (M * 10^E) at scale 0 and -3, saturated. */
static void
assert_values (const FsQuantity *q, const char *input, i128 m, int e)
{
  int64_t want, got;
  gboolean want_ok, got_ok;

  want_ok = ref_saturate (ref_scaled (m, e, 0), &want);
  got_ok = fs_quantity_value (q, &got);
  if (got != want || got_ok != want_ok)
    fail_msg ("\"%s\": Value() is %" PRId64 " (%d), want %" PRId64 " (%d)", input, got, got_ok,
              want, want_ok);
  want_ok = ref_saturate (ref_scaled (m, e, -3), &want);
  got_ok = fs_quantity_milli_value (q, &got);
  if (got != want || got_ok != want_ok)
    fail_msg ("\"%s\": MilliValue() is %" PRId64 " (%d), want %" PRId64 " (%d)", input, got,
              got_ok, want, want_ok);
}

/* TEXT is rejected with CODE and a message quoting QUOTED (the input, escaped). */
static void
assert_rejected (const char *text, gssize len, FsErrorCode code, const char *quoted)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsQuantity) q = fs_quantity_parse (text, len, &error);
  int64_t out = 42;

  if (q != NULL)
    {
      g_autofree char *s = fs_quantity_to_string (q);
      fail_msg ("\"%s\" parsed unexpectedly, as %s", quoted, s);
    }
  assert_non_null (error);
  assert_true (g_error_matches (error, FS_ERROR, (gint) code));
  if (strstr (error->message, quoted) == NULL)
    fail_msg ("error \"%s\" does not quote %s", error->message, quoted);
  g_clear_error (&error);

  /* the fast paths reject it the same way */
  gsize n = len < 0 ? strlen (text) : (gsize) len;
  assert_false (fs_quantity_parse_value (text, n, &out, &error));
  assert_true (g_error_matches (error, FS_ERROR, (gint) code));
  assert_int_equal (out, 0);
  g_clear_error (&error);
  out = 42;
  assert_false (fs_quantity_parse_milli (text, n, &out, &error));
  assert_true (g_error_matches (error, FS_ERROR, (gint) code));
  assert_int_equal (out, 0);
}

/* ---------------------------------------------------------------------------------------- */
/* TestQuantityParse                                                                         */

typedef struct
{
  const char *input;
  int64_t m; /* upstream's expectation: decQuantity (m, e, format) */
  int e;
  FsQuantityFormat format;
  const char *canonical; /* upstream String() of the parsed quantity */
  gboolean cached;       /* ParseQuantity kept the input spelling (Quantity.s) */
} ParseRow;

#define MAX_ALLOWED INT64_MAX /* quantity.go maxAllowed */

static const ParseRow parse_table[] = {
  { "0", 0, 0, DEC_SI, "0", FALSE }, /* only the literal "0" is cached, signs are not */
  { "0n", 0, 0, DEC_SI, "0", FALSE },
  { "0u", 0, 0, DEC_SI, "0", FALSE },
  { "0m", 0, 0, DEC_SI, "0", FALSE },
  { "0Ki", 0, 0, BIN_SI, "0", FALSE },
  { "0k", 0, 0, DEC_SI, "0", FALSE },
  { "0Mi", 0, 0, BIN_SI, "0", FALSE },
  { "0M", 0, 0, DEC_SI, "0", FALSE },
  { "0Gi", 0, 0, BIN_SI, "0", FALSE },
  { "0G", 0, 0, DEC_SI, "0", FALSE },
  { "0Ti", 0, 0, BIN_SI, "0", FALSE },
  { "0T", 0, 0, DEC_SI, "0", FALSE },

  /* Quantity less numbers are allowed */
  { "1", 1, 0, DEC_SI, "1", TRUE },

  /* Binary suffixes */
  { "1Ki", 1024, 0, BIN_SI, "1Ki", TRUE },
  { "8Ki", 8 * 1024, 0, BIN_SI, "8Ki", FALSE }, /* value&7 == 0: not kept */
  { "7Mi", INT64_C (7) * 1024 * 1024, 0, BIN_SI, "7Mi", TRUE },
  { "6Gi", INT64_C (6) * 1024 * 1024 * 1024, 0, BIN_SI, "6Gi", TRUE },
  { "5Ti", INT64_C (5) * 1024 * 1024 * 1024 * 1024, 0, BIN_SI, "5Ti", TRUE },
  { "4Pi", INT64_C (4) * 1024 * 1024 * 1024 * 1024 * 1024, 0, BIN_SI, "4Pi", FALSE },
  { "3Ei", INT64_C (3) * 1024 * 1024 * 1024 * 1024 * 1024 * 1024, 0, BIN_SI, "3Ei", FALSE },
  { "10Ti", INT64_C (10) * 1024 * 1024 * 1024 * 1024, 0, BIN_SI, "10Ti", TRUE },
  { "100Ti", INT64_C (100) * 1024 * 1024 * 1024 * 1024, 0, BIN_SI, "100Ti", FALSE },

  /* Decimal suffixes */
  { "5n", 5, -9, DEC_SI, "5n", TRUE },
  { "4u", 4, -6, DEC_SI, "4u", TRUE },
  { "3m", 3, -3, DEC_SI, "3m", TRUE },
  { "9", 9, 0, DEC_SI, "9", TRUE },
  { "8k", 8, 3, DEC_SI, "8k", TRUE },
  { "50k", 5, 4, DEC_SI, "50k", TRUE },
  { "7M", 7, 6, DEC_SI, "7M", TRUE },
  { "6G", 6, 9, DEC_SI, "6G", TRUE },
  { "5T", 5, 12, DEC_SI, "5T", TRUE },
  { "40T", 4, 13, DEC_SI, "40T", TRUE },
  { "300T", 3, 14, DEC_SI, "300T", TRUE },
  { "2P", 2, 15, DEC_SI, "2P", TRUE },
  { "1E", 1, 18, DEC_SI, "1E", TRUE },

  /* Decimal exponents (kept as written: scale%3 == 0) */
  { "1E-3", 1, -3, DEC_EXP, "1E-3", TRUE },
  { "1e3", 1, 3, DEC_EXP, "1e3", TRUE },
  { "1E6", 1, 6, DEC_EXP, "1E6", TRUE },
  { "1e9", 1, 9, DEC_EXP, "1e9", TRUE },
  { "1E12", 1, 12, DEC_EXP, "1E12", TRUE },
  { "1e15", 1, 15, DEC_EXP, "1e15", TRUE },
  { "1E18", 1, 18, DEC_EXP, "1E18", TRUE },

  /* Nonstandard but still parsable */
  { "1e14", 1, 14, DEC_EXP, "100e12", FALSE },
  { "1e13", 1, 13, DEC_EXP, "10e12", FALSE },
  { "100.035k", 100035, 0, DEC_SI, "100.035k", TRUE },

  /* Things that look like floating point */
  { "0.001", 1, -3, DEC_SI, "1m", FALSE },
  { "0.0005k", 5, -1, DEC_SI, "500m", FALSE },
  { "0.005", 5, -3, DEC_SI, "5m", FALSE },
  { "0.05", 5, -2, DEC_SI, "50m", FALSE },
  { "0.5", 5, -1, DEC_SI, "500m", FALSE },
  { "0.00050k", 5, -1, DEC_SI, "500m", FALSE },
  { "0.00500", 5, -3, DEC_SI, "5m", FALSE },
  { "0.05000", 5, -2, DEC_SI, "50m", FALSE },
  { "0.50000", 5, -1, DEC_SI, "500m", FALSE },
  { "0.5e0", 5, -1, DEC_EXP, "500e-3", FALSE },
  { "0.5e-1", 5, -2, DEC_EXP, "50e-3", FALSE },
  { "0.5e-2", 5, -3, DEC_EXP, "5e-3", FALSE },
  { "10.035M", 10035, 3, DEC_SI, "10.035M", TRUE },

  { "1.2e3", 12, 2, DEC_EXP, "1200", FALSE },
  { "1.3E+6", 13, 5, DEC_EXP, "1300e3", FALSE },
  { "1.40e9", 14, 8, DEC_EXP, "1400e6", FALSE },
  { "1.53E12", 153, 10, DEC_EXP, "1530e9", FALSE },
  { "1.6e15", 16, 14, DEC_EXP, "1600e12", FALSE },
  { "1.7E18", 17, 17, DEC_EXP, "1700e15", FALSE },

  { "9.01", 901, -2, DEC_SI, "9010m", FALSE },
  { "8.1k", 81, 2, DEC_SI, "8100", FALSE },
  { "7.123456M", 7123456, 0, DEC_SI, "7.123456M", TRUE },
  { "6.987654321G", INT64_C (6987654321), 0, DEC_SI, "6.987654321G", TRUE },
  { "5.444T", 5444, 9, DEC_SI, "5.444T", TRUE },
  { "40.1T", 401, 11, DEC_SI, "40100G", FALSE },
  { "300.2T", 3002, 11, DEC_SI, "300200G", FALSE },
  { "2.5P", 25, 14, DEC_SI, "2500T", FALSE },
  { "1.01E", 101, 16, DEC_SI, "1010P", FALSE },

  /* Things that saturate/round */
  { "3.001n", 4, -9, DEC_SI, "4n", FALSE },
  { "1.1E-9", 2, -9, DEC_EXP, "2e-9", FALSE },
  { "0.0000000001", 1, -9, DEC_SI, "1n", FALSE },
  { "0.0000000005", 1, -9, DEC_SI, "1n", FALSE },
  { "0.00000000050", 1, -9, DEC_SI, "1n", FALSE },
  { "0.5e-9", 1, -9, DEC_EXP, "1e-9", FALSE },
  { "0.9n", 1, -9, DEC_SI, "1n", FALSE },
  { "0.00000012345", 124, -9, DEC_SI, "124n", FALSE },
  { "0.00000012354", 124, -9, DEC_SI, "124n", FALSE },
  { "9Ei", MAX_ALLOWED, 0, BIN_SI, "9223372036854775807", FALSE },
  { "9223372036854775807Ki", MAX_ALLOWED, 0, BIN_SI, "9223372036854775807", FALSE },
  { "12E", 12, 18, DEC_SI, "12E", TRUE },

  /* We'll accept fractional binary stuff, too. */
  { "100.035Ki", 10243584, -2, BIN_SI, "102435840m", FALSE },
  { "0.5Mi", 512 * 1024, 0, BIN_SI, "512Ki", FALSE },
  { "0.05Gi", 536870912, -1, BIN_SI, "53687091200m", FALSE },
  { "0.025Ti", INT64_C (274877906944), -1, BIN_SI, "27487790694400m", FALSE },

  /* Things written by trolls */
  { "0.000000000001Ki", 2, -9, DEC_SI, "2n", FALSE }, /* rounds up, changes format */
  { ".001", 1, -3, DEC_SI, "1m", FALSE },
  { ".0001k", 100, -3, DEC_SI, "100m", FALSE },
  { "1.", 1, 0, DEC_SI, "1.", TRUE },
  { "1.G", 1, 9, DEC_SI, "1.G", TRUE },
};

static void
check_parse_row (const ParseRow *row, const char *sign)
{
  g_autofree char *input = g_strconcat (sign, row->input, NULL);
  g_autoptr (FsQuantity) q = must_parse (input);
  g_autofree char *expect = NULL;
  i128 m = row->m;

  if (strcmp (sign, "-") == 0)
    {
      m = -m;
      /* Don't expect it to print "-0" ever */
      expect = g_strdup (row->m == 0 ? "0" : NULL);
      if (expect == NULL)
        expect = g_strconcat ("-", row->canonical, NULL);
    }
  else if (strcmp (sign, "+") == 0)
    expect = row->cached ? g_strdup (input) : g_strdup (row->canonical);
  else
    expect = g_strdup (row->canonical);

  if (fs_quantity_get_format (q) != row->format)
    fail_msg ("\"%s\": format %d, upstream %d", input, fs_quantity_get_format (q), row->format);
  assert_canonical (q, input, expect);
  assert_values (q, input, m, row->e);

  /* the canonical string parses back to the same quantity */
  g_autofree char *text = fs_quantity_to_string (q);
  g_autoptr (FsQuantity) again = must_parse (text);
  assert_canonical (again, text, text);
  assert_values (again, text, m, row->e);
}

static void
TestQuantityParse (void **state)
{
  g_autoptr (GError) error = NULL;

  /* expected empty string to return error */
  assert_null (fs_quantity_parse ("", -1, &error));
  assert_true (g_error_matches (error, FS_ERROR, FS_ERROR_INVALID));

  for (gsize i = 0; i < G_N_ELEMENTS (parse_table); i++)
    {
      check_parse_row (&parse_table[i], "");
      /* Try the negative version of everything */
      check_parse_row (&parse_table[i], "-");
      /* Try everything with an explicit + */
      check_parse_row (&parse_table[i], "+");
    }
}

/* TestQuantityParse, its `invalid` list, with TestQuantityParseNonNumericPanic,
 * TestQuantityValueSet, parseQuantityString's ErrFormatWrong and interpret()'s ErrSuffix. */
static void
TestQuantityParse_invalid (void **state)
{
  static const char *const invalid[] = {
    /* upstream's list */
    "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-",
    /* trailing whitespace is forbidden */
    " 1", "1 ",
    /* MustParse("Non-Numeric") panics; QuantityValue.Set("invalid") fails */
    "Non-Numeric", "invalid",
    /* ErrFormatWrong from parseQuantityString */
    "1.5.5Gi", "1Gb", "1 Gi", "1.1.1", "1iB", "1e3.5", "1.5e-3Gi", "1Ki5Ki", "0x10", "1_000",
    "1e+-3", "--1",
    /* ErrSuffix: not a suffix, or an exponent strconv.ParseInt rejects */
    "1e", "1e-", "1e+", "1K", "1KI", "1ki", "1mi", "1Eii", "1nm", "1ee3", "1e3e3",
    "-+1", "1e9223372036854775808", "1e-9223372036854775809", "1e99999999999999999999",
    /* ErrNumeric: no digit for inf.Dec.SetString, where the int64 fast path does not apply
     * (Pi/Ei exceed its precision, a scale below nano leaves it) */
    "Ei", "Pi", "-Ei", "+Pi", ".Ei", "-.Pi", "e-10", ".e-10", "-E-12",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      g_autofree char *quoted = g_strdup_printf ("\"%s\"", invalid[i]);
      assert_rejected (invalid[i], -1, FS_ERROR_INVALID, quoted);
    }
  assert_rejected ("", -1, FS_ERROR_INVALID, "\"\"");
  /* an embedded NUL is a character like any other; the message escapes it */
  assert_rejected ("1\0", 2, FS_ERROR_INVALID, "\"1\\x00\"");
  assert_rejected ("1\n", -1, FS_ERROR_INVALID, "\"1\\x0a\"");
  assert_rejected ("1\"", -1, FS_ERROR_INVALID, "\"1\\\"\"");
}

/* TestQuantityParseZero */
static void
TestQuantityParseZero (void **state)
{
  g_autoptr (FsQuantity) zero = must_parse ("0");

  assert_canonical (zero, "0", "0");
  assert_int_equal (fs_quantity_get_format (zero), DEC_SI);
  assert_values (zero, "0", 0, 0);
}

/* TestParseQuantityString: the scanner accepts a number without digits, which
 * ParseQuantity then reads as zero ("." and "-." parse; so do a bare suffix and a bare sign).
 * TestQuantityParseZero's "0" aside, none of them is kept as written. */
static void
TestParseQuantityString (void **state)
{
  static const struct
  {
    const char *input;
    FsQuantityFormat format;
  } zeros[] = {
    { ".", DEC_SI }, { "-.", DEC_SI }, { "+.", DEC_SI }, { "-", DEC_SI }, { "+", DEC_SI },
    { "Gi", BIN_SI }, { "Ki", BIN_SI }, { "m", DEC_SI }, { "E", DEC_SI }, { "e3", DEC_EXP },
    { ".Mi", BIN_SI }, { "-0.0", DEC_SI }, { "000", DEC_SI }, { "0e5", DEC_EXP },
    { "Ti", BIN_SI }, { "n", DEC_SI }, { "e-9", DEC_EXP }, { "000Ei", BIN_SI }, { "-0Ei", BIN_SI },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (zeros); i++)
    {
      g_autoptr (FsQuantity) q = must_parse (zeros[i].input);
      assert_canonical (q, zeros[i].input, "0");
      assert_values (q, zeros[i].input, 0, 0);
      if (fs_quantity_get_format (q) != zeros[i].format)
        fail_msg ("\"%s\": format %d", zeros[i].input, fs_quantity_get_format (q));
    }

  /* "0.025Ti", "1.025Ti", "-1.025Ti", "1E-3" split and decode as decimals */
  g_autoptr (FsQuantity) a = must_parse ("1.025Ti");
  assert_values (a, "1.025Ti", (i128) 1025 * ((i128) 1 << 40), -3);
  g_autoptr (FsQuantity) b = must_parse ("-1.025Ti");
  assert_values (b, "-1.025Ti", -(i128) 1025 * ((i128) 1 << 40), -3);
}

/* ---------------------------------------------------------------------------------------- */
/* TestQuantityString                                                                        */

static void
TestQuantityString (void **state)
{
  static const struct
  {
    int64_t m;
    int e;
    FsQuantityFormat format;
    const char *expect;
    const char *alternate;
  } table[] = {
    { INT64_C (1024) * 1024 * 1024, 0, BIN_SI, "1Gi", "1024Mi" },
    { INT64_C (300) * 1024 * 1024, 0, BIN_SI, "300Mi", "307200Ki" },
    { 6 * 1024, 0, BIN_SI, "6Ki", "" },
    { INT64_C (1001) * 1024 * 1024 * 1024, 0, BIN_SI, "1001Gi", "1025024Mi" },
    { INT64_C (1024) * 1024 * 1024 * 1024, 0, BIN_SI, "1Ti", "1024Gi" },
    { 5, 0, BIN_SI, "5", "5000m" },
    { 500, -3, BIN_SI, "500m", "0.5" },
    { 1, 9, DEC_SI, "1G", "1000M" },
    { 1000, 6, DEC_SI, "1G", "0.001T" },
    { 1000000, 3, DEC_SI, "1G", "" },
    { 1000000000, 0, DEC_SI, "1G", "" },
    { 1, -3, DEC_SI, "1m", "1000u" },
    { 80, -3, DEC_SI, "80m", "" },
    { 1080, -3, DEC_SI, "1080m", "1.08" },
    { 108, -2, DEC_SI, "1080m", "1080000000n" },
    { 10800, -4, DEC_SI, "1080m", "" },
    { 300, 6, DEC_SI, "300M", "" },
    { 1, 12, DEC_SI, "1T", "" },
    /* DecimalSI has no suffix beyond "E": exponent notation instead */
    { 1, 18, DEC_SI, "1E", "" },
    { 1, 21, DEC_SI, "1e21", "1000E" },
    { 5, 21, DEC_SI, "5e21", "5000E" },
    { 1, 24, DEC_SI, "1e24", "1000000E" },
    { 1234567, 6, DEC_SI, "1234567M", "" },
    { 1234567, -3, BIN_SI, "1234567m", "" },
    { 3, 3, DEC_SI, "3k", "" },
    { 1025, 0, BIN_SI, "1025", "" },
    { 0, 0, DEC_SI, "0", "" },
    { 0, 0, BIN_SI, "0", "" },
    { 1, 9, DEC_EXP, "1e9", ".001e12" },
    { 1, -3, DEC_EXP, "1e-3", "0.001e0" },
    { 1, -9, DEC_EXP, "1e-9", "1000e-12" },
    { 80, -3, DEC_EXP, "80e-3", "" },
    { 300, 6, DEC_EXP, "300e6", "" },
    { 1, 12, DEC_EXP, "1e12", "" },
    { 1, 3, DEC_EXP, "1e3", "" },
    { 3, 3, DEC_EXP, "3e3", "" },
    { 3, 3, DEC_SI, "3k", "" },
    { 0, 0, DEC_EXP, "0", "00" },
    { 1, -9, DEC_SI, "1n", "" },
    { 80, -9, DEC_SI, "80n", "" },
    { 1080, -9, DEC_SI, "1080n", "" },
    { 108, -8, DEC_SI, "1080n", "" },
    { 10800, -10, DEC_SI, "1080n", "" },
    { 1, -6, DEC_SI, "1u", "" },
    { 80, -6, DEC_SI, "80u", "" },
    { 1080, -6, DEC_SI, "1080u", "" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (table); i++)
    {
      const char *expect = table[i].expect;
      char buf[FS_QUANTITY_INT_BUF];

      /* the constructed quantity prints as expected, and so does its negation */
      if (table[i].e >= -18 && table[i].e <= 9)
        {
          const char *got = fs_quantity_format_int (table[i].m, table[i].e, table[i].format, buf);
          if (got == NULL || strcmp (got, expect) != 0)
            fail_msg ("(%" PRId64 ", %d, %d): \"%s\", want \"%s\"", table[i].m, table[i].e,
                      table[i].format, got, expect);
          if (table[i].m != 0)
            {
              g_autofree char *neg = g_strconcat ("-", expect, NULL);
              got = fs_quantity_format_int (-table[i].m, table[i].e, table[i].format, buf);
              if (got == NULL || strcmp (got, neg) != 0)
                fail_msg ("(-%" PRId64 ", %d): \"%s\", want \"%s\"", table[i].m, table[i].e, got,
                          neg);
            }
        }

      /* the canonical string is kept on parse */
      g_autoptr (FsQuantity) q = must_parse (expect);
      assert_canonical (q, expect, expect);
      assert_values (q, expect, table[i].m, table[i].e);

      /* the alternate spelling prints canonically */
      if (table[i].alternate[0] == '\0')
        continue;
      g_autoptr (FsQuantity) alt = must_parse (table[i].alternate);
      assert_canonical (alt, table[i].alternate, expect);
      assert_values (alt, table[i].alternate, table[i].m, table[i].e);
      g_autofree char *neg_alt = g_strconcat ("-", table[i].alternate, NULL);
      g_autofree char *neg_expect =
        table[i].m == 0 ? g_strdup ("0") : g_strconcat ("-", expect, NULL);
      g_autoptr (FsQuantity) nalt = must_parse (neg_alt);
      assert_canonical (nalt, neg_alt, neg_expect);
      assert_values (nalt, neg_alt, -(i128) table[i].m, table[i].e);
    }
}

/* TestQuantityParseEmit, with the round-trip cases the brief names. */
static void
TestQuantityParseEmit (void **state)
{
  static const struct
  {
    const char *in;
    const char *expect;
  } table[] = {
    { "1Ki", "1Ki" },
    { "1Mi", "1Mi" },
    { "1Gi", "1Gi" },
    { "1024Mi", "1Gi" },
    { "1000M", "1G" },
    { ".001Ki", "1024m" },
    { ".000001Ki", "1024u" },
    { ".000000001Ki", "1024n" },
    { ".000000000001Ki", "2n" },
    /* fitscale additions, upstream's answers */
    { "1.5Gi", "1536Mi" },
    { "1.5k", "1500" },
    { "100m", "100m" },
    { "1e3", "1e3" },
    { "1E-3", "1E-3" }, /* kept as written (scale%3 == 0); canonically "1e-3" */
    { "0.001E0", "1e-3" },
    { "0.001", "1m" },
    { "0.5n", "1n" },
    { "0.1m", "100u" },
    { "8Ei", "9223372036854775807" }, /* capped at maxAllowed (kubernetes#140674) */
    { "1Ei", "1Ei" },
    { "9223372036854775807", "9223372036854775807" },
    { "9223372036854775808", "9223372036854775808" },
    { "10E", "10E" },
    { "1000m", "1" },
    { "1024", "1024" },
    { "1024Ki", "1Mi" },
    { "2048", "2048" },
    { "0.9765625Ki", "1k" }, /* exactly 1000, BinarySI below 1024 prints DecimalSI */
    { "1.1Ki", "1126400m" },
    { "1e1000000000", "10e999999999" },
    { "1e-1000000000", "1e-9" }, /* DecimalExponent keeps its format */
  };

  for (gsize i = 0; i < G_N_ELEMENTS (table); i++)
    {
      g_autoptr (FsQuantity) q = must_parse (table[i].in);
      assert_canonical (q, table[i].in, table[i].expect);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (table); i++)
    {
      g_autofree char *in = g_strconcat ("-", table[i].in, NULL);
      g_autofree char *expect = g_strconcat ("-", table[i].expect, NULL);
      g_autoptr (FsQuantity) q = must_parse (in);
      assert_canonical (q, in, expect);
    }
}

/* TestParseQuantity: 18-20 digit values around the int64 bounds, as inf.Dec strings. */
static void
TestParseQuantity (void **state)
{
  static const struct
  {
    const char *input;
    const char *dec;
    const char *canonical; /* NULL: the input itself */
  } tests[] = {
    /* min/max 18 digits */
    { "-999999999999999999", "-999999999999999999", NULL },
    { "999999999999999999", "999999999999999999", NULL },
    { "-999999999999999999.0", "-999999999999999999", "-999999999999999999" },
    { "999999999999999999.0", "999999999999999999", "999999999999999999" },
    { "-999999999999999999.1", "-999999999999999999.1", "-999999999999999999100m" },
    { "999999999999999999.1", "999999999999999999.1", "999999999999999999100m" },
    /* min/max 19 digits */
    { "-9999999999999999999", "-9999999999999999999", NULL },
    { "9999999999999999999", "9999999999999999999", NULL },
    { "-1E", "-1000000000000000000", NULL },
    { "1E", "1000000000000000000", NULL },
    { "-1000000000000000000", "-1000000000000000000", "-1E" },
    { "1000000000000000000", "1000000000000000000", "1E" },
    { "-9999999999999999999.0", "-9999999999999999999", "-9999999999999999999" },
    { "9999999999999999999.0", "9999999999999999999", "9999999999999999999" },
    { "-1.0E", "-1000000000000000000", "-1E" },
    { "1.0E", "1000000000000000000", "1E" },
    { "-1000000000000000000.0", "-1000000000000000000", "-1E" },
    { "1000000000000000000.0", "1000000000000000000", "1E" },
    { "-9999999999999999999000m", "-9999999999999999999", "-9999999999999999999" },
    { "9999999999999999999000m", "9999999999999999999", "9999999999999999999" },
    { "-9999999999999999999.1", "-9999999999999999999.1", "-9999999999999999999100m" },
    { "9999999999999999999.1", "9999999999999999999.1", "9999999999999999999100m" },
    { "-1.0000000000000000001E", "-1000000000000000000.1", "-1000000000000000000100m" },
    { "1.0000000000000000001E", "1000000000000000000.1", "1000000000000000000100m" },
    { "-1000000000000000000.1", "-1000000000000000000.1", "-1000000000000000000100m" },
    { "1000000000000000000.1", "1000000000000000000.1", "1000000000000000000100m" },
    { "-1.000000000000000001E", "-1000000000000000001", "-1000000000000000001" },
    { "1.000000000000000001E", "1000000000000000001", "1000000000000000001" },
    { "-1000000000000000001", "-1000000000000000001", NULL },
    { "1000000000000000001", "1000000000000000001", NULL },
    /* min/max 20 digits */
    { "-10E", "-10000000000000000000", NULL },
    { "10E", "10000000000000000000", NULL },
    { "-10000000000000000000", "-10000000000000000000", "-10E" },
    { "10000000000000000000", "10000000000000000000", "10E" },
    { "-10.0E", "-10000000000000000000", "-10E" },
    { "10.0E", "10000000000000000000", "10E" },
    { "-10000000000000000000.0", "-10000000000000000000", "-10E" },
    { "10000000000000000000.0", "10000000000000000000", "10E" },
    { "-10000000000000000000000m", "-10000000000000000000", "-10E" },
    { "10000000000000000000000m", "10000000000000000000", "10E" },
    { "-10.0000000000000000001E", "-10000000000000000000.1", "-10000000000000000000100m" },
    { "10.0000000000000000001E", "10000000000000000000.1", "10000000000000000000100m" },
    { "-10000000000000000000.1", "-10000000000000000000.1", "-10000000000000000000100m" },
    { "10000000000000000000.1", "10000000000000000000.1", "10000000000000000000100m" },
    { "-10.000000000000000001E", "-10000000000000000001", "-10000000000000000001" },
    { "10.000000000000000001E", "10000000000000000001", "10000000000000000001" },
    { "-10000000000000000001", "-10000000000000000001", NULL },
    { "10000000000000000001", "10000000000000000001", NULL },
    /* min/max int64 - 1 */
    { "-9223372036854775809", "-9223372036854775809", NULL },
    { "9223372036854775806", "9223372036854775806", NULL },
    { "-9223372036854775809.0", "-9223372036854775809", "-9223372036854775809" },
    { "9223372036854775806.0", "9223372036854775806", "9223372036854775806" },
    { "-9223372036854775809000m", "-9223372036854775809", "-9223372036854775809" },
    { "9223372036854775806000m", "9223372036854775806", "9223372036854775806" },
    { "-9223372036854775809.1", "-9223372036854775809.1", "-9223372036854775809100m" },
    { "9223372036854775806.1", "9223372036854775806.1", "9223372036854775806100m" },
    /* min/max int64 */
    { "-9223372036854775808", "-9223372036854775808", NULL },
    { "9223372036854775807", "9223372036854775807", NULL },
    { "-9223372036854775808.0", "-9223372036854775808", "-9223372036854775808" },
    { "9223372036854775807.0", "9223372036854775807", "9223372036854775807" },
    { "-9223372036854775808000m", "-9223372036854775808", "-9223372036854775808" },
    { "9223372036854775807000m", "9223372036854775807", "9223372036854775807" },
    { "-9223372036854775808.1", "-9223372036854775808.1", "-9223372036854775808100m" },
    { "9223372036854775807.1", "9223372036854775807.1", "9223372036854775807100m" },
    /* min/max int64 + 1 */
    { "-9223372036854775807", "-9223372036854775807", NULL },
    { "9223372036854775808", "9223372036854775808", NULL },
    { "-9223372036854775807.0", "-9223372036854775807", "-9223372036854775807" },
    { "9223372036854775808.0", "9223372036854775808", "9223372036854775808" },
    { "-9223372036854775807000m", "-9223372036854775807", "-9223372036854775807" },
    { "9223372036854775808000m", "9223372036854775808", "9223372036854775808" },
    { "-9223372036854775807.1", "-9223372036854775807.1", "-9223372036854775807100m" },
    { "9223372036854775808.1", "9223372036854775808.1", "9223372036854775808100m" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (tests); i++)
    {
      g_autoptr (FsQuantity) q = must_parse (tests[i].input);
      i128 m;
      int e;

      ref_decimal (tests[i].dec, &m, &e);
      assert_canonical (q, tests[i].input,
                        tests[i].canonical != NULL ? tests[i].canonical : tests[i].input);
      assert_values (q, tests[i].input, m, e);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Value / MilliValue                                                                        */

/* TestQuantityRoundUp's and Value()'s rounding (away from zero), and the fitscale contract:
 * FALSE and the int64 rail of the sign when the result does not fit. */
static void
FitscaleValueSaturation (void **state)
{
  static const struct
  {
    const char *input;
    int64_t value;
    gboolean value_ok;
    int64_t milli;
    gboolean milli_ok;
  } table[] = {
    { "9.01", 10, TRUE, 9010, TRUE },
    { "-9.01", -10, TRUE, -9010, TRUE },
    { "100m", 1, TRUE, 100, TRUE },
    { "-100m", -1, TRUE, -100, TRUE },
    { "0.1m", 1, TRUE, 1, TRUE },
    { "-0.1m", -1, TRUE, -1, TRUE },
    { "0.5n", 1, TRUE, 1, TRUE },
    { "1n", 1, TRUE, 1, TRUE },
    { "1.5", 2, TRUE, 1500, TRUE },
    { "1.5Gi", INT64_C (1610612736), TRUE, INT64_C (1610612736000), TRUE },
    { "1Mi", 1048576, TRUE, 1048576000, TRUE },
    { "8Ei", INT64_MAX, TRUE, INT64_MAX, FALSE },
    { "-8Ei", -INT64_MAX, TRUE, INT64_MIN, FALSE },
    { "-1Ei", -INT64_C (1152921504606846976), TRUE, INT64_MIN, FALSE },
    { "9223372036854775807", INT64_MAX, TRUE, INT64_MAX, FALSE },
    { "-9223372036854775808", INT64_MIN, TRUE, INT64_MIN, FALSE },
    { "-9223372036854775809", INT64_MIN, FALSE, INT64_MIN, FALSE },
    { "9223372036854775808", INT64_MAX, FALSE, INT64_MAX, FALSE },
    { "9223372036854775806.5", INT64_MAX, TRUE, INT64_MAX, FALSE },
    { "9223372036854775807.5", INT64_MAX, FALSE, INT64_MAX, FALSE },
    { "-9223372036854775807.5", INT64_MIN, TRUE, INT64_MIN, FALSE },
    { "9223372036854775.807", 9223372036854776, TRUE, INT64_MAX, TRUE },
    { "9223372036854775.808", 9223372036854776, TRUE, INT64_MAX, FALSE },
    { "-9223372036854775.808", -9223372036854776, TRUE, INT64_MIN, TRUE },
    { "9223372036854775807m", 9223372036854776, TRUE, INT64_MAX, TRUE },
    { "9E", INT64_C (9000000000000000000), TRUE, INT64_MAX, FALSE },
    { "10E", INT64_MAX, FALSE, INT64_MAX, FALSE },
    { "-10E", INT64_MIN, FALSE, INT64_MIN, FALSE },
    { "12E", INT64_MAX, FALSE, INT64_MAX, FALSE },
    { "1e19", INT64_MAX, FALSE, INT64_MAX, FALSE },
    { "1e1000000000", INT64_MAX, FALSE, INT64_MAX, FALSE },
    { "-1e1000000000", INT64_MIN, FALSE, INT64_MIN, FALSE },
    { "1e-1000000000", 1, TRUE, 1, TRUE },
    { "-1e-1000000000", -1, TRUE, -1, TRUE },
    { "1e-18", 1, TRUE, 1, TRUE },
    { "0", 0, TRUE, 0, TRUE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (table); i++)
    {
      g_autoptr (FsQuantity) q = must_parse (table[i].input);
      int64_t v = 42;
      gboolean ok = fs_quantity_value (q, &v);

      if (v != table[i].value || ok != table[i].value_ok)
        fail_msg ("\"%s\": Value() %" PRId64 " (%d), want %" PRId64 " (%d)", table[i].input, v,
                  ok, table[i].value, table[i].value_ok);
      ok = fs_quantity_milli_value (q, &v);
      if (v != table[i].milli || ok != table[i].milli_ok)
        fail_msg ("\"%s\": MilliValue() %" PRId64 " (%d), want %" PRId64 " (%d)", table[i].input,
                  v, ok, table[i].milli, table[i].milli_ok);
      /* the fast paths saturate the same way, without an error */
      g_autoptr (GError) error = NULL;
      assert_true (fs_quantity_parse_value (table[i].input, strlen (table[i].input), &v, &error));
      assert_int_equal (v, table[i].value);
      assert_true (fs_quantity_parse_milli (table[i].input, strlen (table[i].input), &v, &error));
      assert_int_equal (v, table[i].milli);
      assert_null (error);
    }
}

/* TestScaledValue: NewScaledQuantity (1, from).ScaledValue (to), for to in {0, Milli}. */
static void
TestScaledValue (void **state)
{
  static const struct
  {
    int from;
    int to;
    int64_t expected;
  } table[] = {
    { -9, -3, 1 }, { -9, 0, 1 }, { -6, -3, 1 }, { -6, 0, 1 }, { -3, -3, 1 },
    { -3, 0, 1 },  { 0, -3, 1000 }, { 0, 0, 1 }, { 2, 0, 100 }, { 2, -3, 100000 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (table); i++)
    {
      char buf[FS_QUANTITY_INT_BUF];
      g_autoptr (FsQuantity) q = must_parse (fs_quantity_format_int (1, table[i].from, DEC_SI, buf));
      int64_t v;

      if (table[i].to == 0)
        assert_true (fs_quantity_value (q, &v));
      else
        assert_true (fs_quantity_milli_value (q, &v));
      if (v != table[i].expected)
        fail_msg ("%d to %d: %" PRId64 ", want %" PRId64, table[i].from, table[i].to, v,
                  table[i].expected);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* fs_quantity_format_int: TestNewSet, TestMilliNewSet, TestNewScaledSet                     */

static void
check_format_int (int64_t value, int scale, FsQuantityFormat format, const char *expect,
                  const char *equivalent)
{
  char buf[FS_QUANTITY_INT_BUF];
  const char *got = fs_quantity_format_int (value, scale, format, buf);

  if (got != buf || strcmp (got, expect) != 0)
    fail_msg ("format_int (%" PRId64 ", %d, %d) = \"%s\", want \"%s\"", value, scale, format, got,
              expect);
  /* it prints as the parsed quantity of the same value and format prints */
  if (equivalent != NULL)
    {
      g_autoptr (FsQuantity) q = must_parse (equivalent);
      assert_canonical (q, equivalent, got);
      assert_int_equal (fs_quantity_get_format (q), format);
      assert_values (q, equivalent, value, scale);
    }
  /* and the string reads back as the value */
  g_autoptr (FsQuantity) back = must_parse (got);
  assert_values (back, got, value, scale);
}

static void
TestNewSet (void **state)
{
  check_format_int (1, 0, DEC_SI, "1", "1.0");
  check_format_int (1000, 0, DEC_SI, "1k", "1000");
  check_format_int (1234000, 0, DEC_SI, "1234k", "1234000");
  check_format_int (1024, 0, BIN_SI, "1Ki", "1.0Ki");
  check_format_int (1000000, 0, DEC_EXP, "1e6", "1000000e0");
  check_format_int (1024 * 1024, 0, BIN_SI, "1Mi", "1024.0Ki");
}

static void
TestMilliNewSet (void **state)
{
  check_format_int (1, -3, DEC_SI, "1m", "0.001");
  check_format_int (1000, -3, DEC_SI, "1", "1000m");
  check_format_int (1234000, -3, DEC_SI, "1234", "1234000m");
  check_format_int (1024, -3, BIN_SI, "1024m", NULL); /* Format changes */
  check_format_int (1000000, -3, DEC_EXP, "1e3", "1000e0");
  check_format_int (1024 * 1024, -3, BIN_SI, "1048576m", "1.024Ki"); /* Format changes */
}

static void
TestNewScaledSet (void **state)
{
  check_format_int (1, -9, DEC_SI, "1n", "0.001u");
  check_format_int (1000, -9, DEC_SI, "1u", "0.001m");
  check_format_int (1, -6, DEC_SI, "1u", "1000n");
  check_format_int (1000, -6, DEC_SI, "1m", "1000u");
  check_format_int (1, -3, DEC_SI, "1m", "1000u");
  check_format_int (1000, -3, DEC_SI, "1", "1000m");
  check_format_int (1, 0, DEC_SI, "1", "1000m");
  check_format_int (0, -9, DEC_SI, "0", "0n");
  check_format_int (0, -6, DEC_SI, "0", "0u");
  check_format_int (0, -3, DEC_SI, "0", "0m");
  check_format_int (0, 0, DEC_SI, "0", "0k");
}

/* fitscale's own uses: bytes in BinarySI, cpu millicores in DecimalSI, the int64 edges. */
static void
FitscaleFormatInt (void **state)
{
  check_format_int (INT64_C (6442450944), 0, BIN_SI, "6Gi", "6144Mi");
  check_format_int (INT64_C (1610612736), 0, BIN_SI, "1536Mi", "1.5Gi");
  /* 1000 is below 1024, so BinarySI prints as DecimalSI: upstream gives "1k" */
  check_format_int (1000, 0, BIN_SI, "1k", "0.9765625Ki");
  check_format_int (1023, 0, BIN_SI, "1023", NULL);
  check_format_int (1025, 0, BIN_SI, "1025", "1.0009765625Ki");
  check_format_int (500, -3, DEC_SI, "500m", "0.5");
  check_format_int (2000, -3, DEC_SI, "2", "2.000");
  check_format_int (1500, -3, DEC_SI, "1500m", "1.5");
  check_format_int (0, 0, BIN_SI, "0", "0Ki");
  check_format_int (0, 0, DEC_EXP, "0", "0e0");

  /* negative values */
  check_format_int (-INT64_C (6442450944), 0, BIN_SI, "-6Gi", "-6144Mi");
  check_format_int (-INT64_C (1610612736), 0, BIN_SI, "-1536Mi", "-1.5Gi");
  check_format_int (-1000, 0, BIN_SI, "-1k", "-0.9765625Ki");
  check_format_int (-500, -3, DEC_SI, "-500m", "-0.5");
  check_format_int (-2000, -3, DEC_SI, "-2", "-2.0");
  check_format_int (-1500, -3, DEC_SI, "-1500m", "-1.5");
  check_format_int (-1, -9, DEC_SI, "-1n", "-0.000000001");

  /* the int64 edges */
  check_format_int (INT64_MAX, 0, BIN_SI, "9223372036854775807", "9Ei");
  check_format_int (INT64_MAX, 0, DEC_SI, "9223372036854775807", "9223372036854775807.0");
  check_format_int (INT64_MAX, -3, DEC_SI, "9223372036854775807m", "9223372036854775.807");
  check_format_int (INT64_MAX, -3, BIN_SI, "9223372036854775807m", NULL);
  check_format_int (INT64_MAX, 0, DEC_EXP, "9223372036854775807", "9223372036854775807e0");
  check_format_int (-INT64_MAX, 0, BIN_SI, "-9223372036854775807", "-9Ei");
  check_format_int (INT64_MIN, 0, DEC_SI, "-9223372036854775808", "-9223372036854775808.0");
  /* removeInt64Factors cannot negate mostNegative: no base-1024 factors come out */
  check_format_int (INT64_MIN, 0, BIN_SI, "-9223372036854775808", NULL);
  check_format_int (INT64_MIN, -3, DEC_SI, "-9223372036854775808m", "-9223372036854775.808");
  check_format_int (INT64_C (4611686018427387904), 0, BIN_SI, "4Ei", "4Ei");
  check_format_int (INT64_C (1152921504606846976), 0, BIN_SI, "1Ei", "1024Pi");

  /* scales other than 0 and -3 */
  check_format_int (1, 9, DEC_SI, "1G", "1000000000");
  check_format_int (1, 9, BIN_SI, "1000000000", NULL);
  check_format_int (1024, 9, BIN_SI, "1000000000Ki", NULL);
  check_format_int (INT64_MAX, 9, DEC_SI, "9223372036854775807G", NULL);
  check_format_int (INT64_MAX, 9, BIN_SI, "9223372036854775807000000000", NULL);
  check_format_int (1, -18, DEC_SI, "1e-18", NULL);
  check_format_int (INT64_MIN, -18, DEC_SI, "-9223372036854775808e-18", NULL);
}

/* ---------------------------------------------------------------------------------------- */
/* Limits                                                                                    */

static void
FitscaleInputLimit (void **state)
{
  char text[1026];
  g_autoptr (GError) error = NULL;
  int64_t v;

  /* 1024 bytes are read: a 1 with 1023 zeros, far beyond int64 */
  memset (text, '0', sizeof text);
  text[0] = '1';
  text[1024] = '\0';
  g_autoptr (FsQuantity) q = must_parse (text);
  assert_false (fs_quantity_value (q, &v));
  assert_int_equal (v, INT64_MAX);
  g_autofree char *s = fs_quantity_to_string (q);
  assert_string_equal (s, "1e1023");
  assert_true (fs_quantity_parse_value (text, 1024, &v, &error));
  assert_int_equal (v, INT64_MAX);

  /* 1025 bytes are not */
  text[1024] = '0';
  text[1025] = '\0';
  assert_rejected (text, -1, FS_ERROR_LIMIT, "\"10000000000000000000000000000000\"");
  assert_rejected (text, 1025, FS_ERROR_LIMIT, "1025 bytes");
  /* the length given counts, not the NUL */
  g_autoptr (FsQuantity) prefix = fs_quantity_parse (text, 3, &error);
  assert_non_null (prefix);
  assert_values (prefix, "100", 100, 0);

  /* exponents at the int32 edge: upstream master's ErrSuffix, fitscale's range error */
  assert_rejected ("1e2147483648", -1, FS_ERROR_INVALID, "\"1e2147483648\"");
  assert_rejected ("1e-2147483648", -1, FS_ERROR_INVALID, "\"1e-2147483648\"");
  assert_rejected ("10e2147483647", -1, FS_ERROR_INVALID, "\"10e2147483647\"");
  g_autoptr (FsQuantity) edge = must_parse ("1e2147483647");
  assert_canonical (edge, "1e2147483647", "10e2147483646");
  /* the fast path's int32 scale wraps as upstream's does: -2147483647 - 5 is 2147483644 */
  g_autoptr (FsQuantity) wrapped = must_parse ("1.00001e-2147483647");
  assert_canonical (wrapped, "1.00001e-2147483647", "1000010e2147483643");
  /* strconv.ParseInt then int32(): 4294967297 is 1 */
  g_autoptr (FsQuantity) truncated = must_parse ("5e4294967297");
  assert_canonical (truncated, "5e4294967297", "50");
  assert_values (truncated, "5e4294967297", 50, 0);
}

/* ---------------------------------------------------------------------------------------- */
/* The fast paths                                                                            */

static void
check_fast_path (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) fast_error = NULL;
  g_autoptr (FsQuantity) q = fs_quantity_parse (text, -1, &error);
  int64_t value, milli, fast_value = 42, fast_milli = 42;
  gboolean ok_value, ok_milli;

  ok_value = fs_quantity_parse_value (text, strlen (text), &fast_value, &fast_error);
  if (q == NULL)
    {
      if (ok_value)
        fail_msg ("\"%s\": parse_value accepts what parse rejects", text);
      assert_true (g_error_matches (fast_error, error->domain, error->code));
      assert_string_equal (fast_error->message, error->message);
      g_clear_error (&fast_error);
      assert_false (fs_quantity_parse_milli (text, strlen (text), &fast_milli, &fast_error));
      assert_true (g_error_matches (fast_error, error->domain, error->code));
      return;
    }
  if (!ok_value)
    fail_msg ("\"%s\": parse_value rejects: %s", text, fast_error->message);
  ok_milli = fs_quantity_parse_milli (text, strlen (text), &fast_milli, &fast_error);
  if (!ok_milli)
    fail_msg ("\"%s\": parse_milli rejects: %s", text, fast_error->message);
  fs_quantity_value (q, &value);
  fs_quantity_milli_value (q, &milli);
  if (fast_value != value)
    fail_msg ("\"%s\": parse_value %" PRId64 ", parse + value %" PRId64, text, fast_value, value);
  if (fast_milli != milli)
    fail_msg ("\"%s\": parse_milli %" PRId64 ", parse + milli_value %" PRId64, text, fast_milli,
              milli);
}

static void
FitscaleFastPathGrid (void **state)
{
  static const char *const numbers[] = {
    "0", "1", "7", "12", "100", "999", "1000", "1024", "123456789",
    "9223372036854775807", "", "00", "000000000000000000000001", "999999999999999999",
    "1000000000000000000", "18446744073709551615", "18446744073709551616",
  };
  static const char *const fractions[] = {
    "", ".5", ".25", ".001", ".0000001", ".", ".0", ".999999999", ".0000000001",
    ".00000000000000000001", ".123456789012345678",
  };
  static const char *const suffixes[] = {
    "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
    "e3", "e-3", "E9", "e0", "e18", "e-18", "e19", "E-10", "i", "K", "e",
  };
  static const char *const signs[] = { "", "-", "+" };
  char text[128];
  gsize n = 0;

  for (gsize s = 0; s < G_N_ELEMENTS (signs); s++)
    for (gsize a = 0; a < G_N_ELEMENTS (numbers); a++)
      for (gsize b = 0; b < G_N_ELEMENTS (fractions); b++)
        for (gsize c = 0; c < G_N_ELEMENTS (suffixes); c++)
          {
            g_snprintf (text, sizeof text, "%s%s%s%s", signs[s], numbers[a], fractions[b],
                        suffixes[c]);
            check_fast_path (text);
            n++;
          }
  assert_true (n > 15000);

  static const char *const extra[] = {
    "1.5Gi", "0.5n", "-0.1m", "9Ei", "-9Ei", "8Ei", "-8Ei", "8191Pi", "8192Pi", "-8192Pi",
    "9223372036854775807Ki", "0.000000000001Ki", "-0.000000000001Ki", "1e1000000000",
    "-1e-1000000000", "9223372036854775807E", "-9223372036854775807E", "9223372036854775.807",
    "-9223372036854775.808", "-9223372036854775808", "9223372036854775808", "1.1.1", "1 Gi",
    "", " ", "0", "+0", "-0", "1E-3", "1e2147483647", "1e2147483648", "1e-2147483649",
    "18014398509481983.5Ki", "1.00000000000000000000001Ei", "0.99999999999999999999Ki",
    "17179869183.99999Gi", "0.0000000009765625Ki", "123456789012345678.9Mi",
  };
  for (gsize i = 0; i < G_N_ELEMENTS (extra); i++)
    check_fast_path (extra[i]);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (TestQuantityParse),
    cmocka_unit_test (TestQuantityParse_invalid),
    cmocka_unit_test (TestQuantityParseZero),
    cmocka_unit_test (TestParseQuantityString),
    cmocka_unit_test (TestQuantityString),
    cmocka_unit_test (TestQuantityParseEmit),
    cmocka_unit_test (TestParseQuantity),
    cmocka_unit_test (TestScaledValue),
    cmocka_unit_test (TestNewSet),
    cmocka_unit_test (TestMilliNewSet),
    cmocka_unit_test (TestNewScaledSet),
    cmocka_unit_test (FitscaleValueSaturation),
    cmocka_unit_test (FitscaleFormatInt),
    cmocka_unit_test (FitscaleInputLimit),
    cmocka_unit_test (FitscaleFastPathGrid),
  };
  return cmocka_run_group_tests_name ("quantity", tests, NULL, NULL);
}
