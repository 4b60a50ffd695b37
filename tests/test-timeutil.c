/* RFC 3339 times (metav1.Time) and Go durations (time.ParseDuration). */
#include "config.h"

#include "testutil.h"
#include "fitscale/model/timeutil.h"

static gboolean
parse_time (const char *text, int64_t *out)
{
  return fs_time_parse (text, strlen (text), out);
}

static void
test_times (void **state)
{
  int64_t t;
  assert_true (parse_time ("1970-01-01T00:00:00Z", &t));
  assert_int_equal (t, 0);
  assert_true (parse_time ("2024-02-29T12:30:15Z", &t));
  assert_int_equal (t, 1709209815);
  assert_true (parse_time ("2024-02-29T14:30:15.123456+02:00", &t));
  assert_int_equal (t, 1709209815);
  assert_true (parse_time ("1969-12-31T23:59:59Z", &t));
  assert_int_equal (t, -1);
  char buf[32];
  assert_string_equal (fs_time_format (1709209815, buf), "2024-02-29T12:30:15Z");
  const char *bad[] = { "", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01",
                        "2024-01-01T00:00:00", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00Zjunk",
                        "2024-01-01T00:00:00.Z", "yesterday",
                        /* RFC 3339 allows these; Go's time.Parse(time.RFC3339, ...), which
                         * metav1.Time.UnmarshalJSON calls, rejects them (src/time/format_rfc3339.go
                         * parseRFC3339: 'T' and 'Z' only, seconds 0-59). */
                        "2024-01-01t00:00:00Z", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00z",
                        "2016-12-31T23:59:60Z" };
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    if (parse_time (bad[i], &t))
      fail_msg ("accepted \"%s\"", bad[i]);
}

static void
test_durations (void **state)
{
  static const struct { const char *text; int64_t ms; } good[] = {
    /* cases from Go's time_test.go parseDurationTests */
    { "0", 0 }, { "5s", 5000 }, { "30s", 30000 }, { "1478s", 1478000 }, { "-5s", -5000 },
    { "+5s", 5000 }, { "5.6s", 5600 }, { "1m0s", 60000 }, { "3m", 180000 },
    { "1h30m", 5400000 }, { "1.5h", 5400000 }, { "300ms", 300 }, { "10h", 36000000 },
    { "2m3.4s", 123400 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (good); i++)
    {
      int64_t ms;
      if (!fs_duration_parse (good[i].text, strlen (good[i].text), &ms))
        fail_msg ("rejected \"%s\"", good[i].text);
      assert_int_equal (ms, good[i].ms);
    }
  const char *bad[] = { "", "3", "-", "s", ".s", "1.2.3s", "3x", "1d" };
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      int64_t ms;
      if (fs_duration_parse (bad[i], strlen (bad[i]), &ms))
        fail_msg ("accepted \"%s\"", bad[i]);
    }
}

/* time.Parse checks the day against the month (daysIn): February 29 in leap years only,
 * which skip the centuries not divisible by 400. */
static void
test_times_leap_years (void **state)
{
  int64_t t;
  assert_true (parse_time ("2000-02-29T00:00:00Z", &t));
  assert_int_equal (t, 951782400);
  assert_true (parse_time ("2024-02-29T00:00:00Z", &t));
  assert_false (parse_time ("1900-02-29T00:00:00Z", &t));
  assert_false (parse_time ("2100-02-29T00:00:00Z", &t));
  assert_false (parse_time ("2023-02-29T00:00:00Z", &t));
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_times),
    cmocka_unit_test (test_durations),
    cmocka_unit_test (test_times_leap_years),
  };
  return cmocka_run_group_tests_name ("timeutil", tests, NULL, NULL);
}
