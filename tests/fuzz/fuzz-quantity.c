/* libFuzzer target: any bytes through the quantity parser (include/fitscale/quantity.h).
 * An input is accepted or rejected with FS_ERROR_INVALID / FS_ERROR_LIMIT.  When accepted:
 * the canonical string parses back to the same Value()/MilliValue() (saturation flags
 * included) and prints the same again, and the allocation-free fast paths
 * (fs_quantity_parse_value / _milli) agree with parse + value / milli_value.  When rejected,
 * the fast paths reject it with the same error.  Any mismatch aborts; crashes, leaks and UB
 * are findings too. */
#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/quantity.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_rejected (const char *text, size_t size, const GError *error)
{
  GError *fast_error = NULL;
  int64_t out = 42;

  if (error == NULL || error->domain != FS_ERROR
      || (error->code != FS_ERROR_INVALID && error->code != FS_ERROR_LIMIT))
    abort ();
  if (strstr (error->message, "quantity \"") == NULL)
    abort ();

  if (fs_quantity_parse_value (text, size, &out, &fast_error) || out != 0)
    abort ();
  if (!g_error_matches (fast_error, error->domain, error->code)
      || strcmp (fast_error->message, error->message) != 0)
    abort ();
  g_clear_error (&fast_error);

  out = 42;
  if (fs_quantity_parse_milli (text, size, &out, &fast_error) || out != 0)
    abort ();
  if (!g_error_matches (fast_error, error->domain, error->code))
    abort ();
  g_clear_error (&fast_error);
}

static void
check_accepted (const char *text, size_t size, const FsQuantity *q)
{
  GError *error = NULL;
  int64_t value, milli, again_value, again_milli, fast;
  gboolean value_ok, milli_ok;
  FsQuantity *again;
  char *printed, *reprinted;

  value_ok = fs_quantity_value (q, &value);
  milli_ok = fs_quantity_milli_value (q, &milli);
  /* a saturated result sits on a rail */
  if (!value_ok && value != INT64_MAX && value != INT64_MIN)
    abort ();
  if (!milli_ok && milli != INT64_MAX && milli != INT64_MIN)
    abort ();

  /* the canonical string reparses to the same quantity */
  printed = fs_quantity_to_string (q);
  if (printed == NULL || printed[0] == '\0')
    abort ();
  again = fs_quantity_parse (printed, -1, &error);
  if (again == NULL)
    abort ();
  if (fs_quantity_value (again, &again_value) != value_ok || again_value != value)
    abort ();
  if (fs_quantity_milli_value (again, &again_milli) != milli_ok || again_milli != milli)
    abort ();
  reprinted = fs_quantity_to_string (again);
  if (strcmp (reprinted, printed) != 0)
    abort ();
  g_free (reprinted);
  fs_quantity_free (again);
  g_free (printed);

  /* the fast paths agree with the general path (saturation is no error there) */
  fast = 42;
  if (!fs_quantity_parse_value (text, size, &fast, &error) || error != NULL || fast != value)
    abort ();
  fast = 42;
  if (!fs_quantity_parse_milli (text, size, &fast, &error) || error != NULL || fast != milli)
    abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* an exact-size copy, so that ASan sees any read past the given length */
  char *text = g_malloc (size > 0 ? size : 1);
  GError *error = NULL;
  FsQuantity *q;

  if (size > 0)
    memcpy (text, data, size);
  q = fs_quantity_parse (text, (gssize) size, &error);
  if (q == NULL)
    check_rejected (text, size, error);
  else
    {
      if (error != NULL)
        abort ();
      check_accepted (text, size, q);
      fs_quantity_free (q);
    }
  g_clear_error (&error);
  g_free (text);
  return 0;
}
