/* fitscale — RFC 3339 times and Go durations (see include/fitscale/model/timeutil.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/timeutil.h"

static gboolean
read_digits (const char *text, gsize len, gsize *pos, guint count, int *out)
{
  int value = 0;
  for (guint i = 0; i < count; i++, (*pos)++)
    {
      if (*pos >= len || !g_ascii_isdigit (text[*pos]))
        return FALSE;
      value = value * 10 + (text[*pos] - '0');
    }
  *out = value;
  return TRUE;
}

static gboolean
expect_char (const char *text, gsize len, gsize *pos, const char *accepted)
{
  if (*pos >= len)
    return FALSE;
  for (const char *candidate = accepted; *candidate != '\0'; candidate++) /* inlined: no strchr */
    if (text[*pos] == *candidate)
      {
        (*pos)++;
        return TRUE;
      }
  return FALSE;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static int64_t
days_from_civil (int64_t year, int month, int day)
{
  year -= month <= 2;
  int64_t era = (year >= 0 ? year : year - 399) / 400;
  int64_t year_of_era = year - era * 400;
  int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

static gboolean
valid_date (int year, int month, int day)
{
  static const int month_days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
  if (month < 1 || month > 12 || day < 1)
    return FALSE;
  gboolean leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= month_days[month - 1] + (month == 2 && leap);
}

/* What metav1.Time.UnmarshalJSON accepts: Go's time.Parse(time.RFC3339, ...)
 * (src/time/format_rfc3339.go parseRFC3339): an upper-case 'T' and 'Z', seconds 0-59 (no
 * leap second), an optional fraction, and an offset of at most 23:59. */
gboolean
fs_time_parse (const char *text, gsize len, int64_t *unix_seconds)
{
  gsize pos = 0;
  int year, month, day, hour, minute, second;
  if (!read_digits (text, len, &pos, 4, &year) || !expect_char (text, len, &pos, "-")
      || !read_digits (text, len, &pos, 2, &month) || !expect_char (text, len, &pos, "-")
      || !read_digits (text, len, &pos, 2, &day) || !expect_char (text, len, &pos, "T")
      || !read_digits (text, len, &pos, 2, &hour) || !expect_char (text, len, &pos, ":")
      || !read_digits (text, len, &pos, 2, &minute) || !expect_char (text, len, &pos, ":")
      || !read_digits (text, len, &pos, 2, &second))
    return FALSE;
  if (!valid_date (year, month, day) || hour > 23 || minute > 59 || second > 59)
    return FALSE;
  if (pos < len && text[pos] == '.')
    {
      pos++;
      gsize digits_start = pos;
      while (pos < len && g_ascii_isdigit (text[pos]))
        pos++;
      if (pos == digits_start)
        return FALSE;
    }
  int offset_seconds = 0;
  if (pos < len && text[pos] == 'Z')
    pos++;
  else
    {
      int sign = pos < len && text[pos] == '-' ? -1 : 1;
      int offset_hour, offset_minute;
      if (!expect_char (text, len, &pos, "+-") || !read_digits (text, len, &pos, 2, &offset_hour)
          || !expect_char (text, len, &pos, ":")
          || !read_digits (text, len, &pos, 2, &offset_minute) || offset_hour > 23
          || offset_minute > 59)
        return FALSE;
      offset_seconds = sign * (offset_hour * 3600 + offset_minute * 60);
    }
  if (pos != len)
    return FALSE;
  *unix_seconds = days_from_civil (year, month, day) * 86400 + hour * 3600 + minute * 60
                  + second - offset_seconds;
  return TRUE;
}

char *
fs_time_format (int64_t unix_seconds, char buf[32])
{
  g_autoptr (GDateTime) time = g_date_time_new_from_unix_utc (unix_seconds);
  if (time == NULL)
    {
      g_strlcpy (buf, "invalid", 32);
      return buf;
    }
  g_autofree char *text = g_date_time_format (time, "%Y-%m-%dT%H:%M:%SZ");
  g_strlcpy (buf, text, 32);
  return buf;
}

/* time.ParseDuration (Go src/time/format.go): a sequence of decimal numbers, each with an
 * optional fraction and a unit (ns us µs ms s m h), optionally signed; "0" alone is valid. */
gboolean
fs_duration_parse (const char *text, gsize len, int64_t *milliseconds)
{
  static const struct { const char *unit; double ms; } units[] = {
    { "ns", 1e-6 }, { "us", 1e-3 }, { "\xc2\xb5s", 1e-3 }, { "ms", 1 },
    { "s", 1e3 },   { "m", 6e4 },   { "h", 3.6e6 },
  };
  gsize pos = 0;
  gboolean negative = FALSE;
  if (pos < len && (text[pos] == '-' || text[pos] == '+'))
    negative = text[pos++] == '-';
  if (len - pos == 1 && text[pos] == '0')
    {
      *milliseconds = 0;
      return TRUE;
    }
  if (pos == len)
    return FALSE;
  double total_ms = 0;
  while (pos < len)
    {
      gsize number_start = pos;
      while (pos < len && (g_ascii_isdigit (text[pos]) || text[pos] == '.'))
        pos++;
      if (pos == number_start || pos - number_start > 40)
        return FALSE;
      char number[48];
      memcpy (number, text + number_start, pos - number_start);
      number[pos - number_start] = '\0';
      if (strcmp (number, ".") == 0 || strchr (strchr (number, '.') ? strchr (number, '.') + 1 : "", '.'))
        return FALSE;
      double value = g_ascii_strtod (number, NULL);
      gsize unit_len = 0;
      double unit_ms = 0;
      for (gsize u = 0; u < G_N_ELEMENTS (units); u++)
        {
          gsize candidate = strlen (units[u].unit);
          if (candidate > unit_len && pos + candidate <= len
              && memcmp (text + pos, units[u].unit, candidate) == 0)
            unit_len = candidate, unit_ms = units[u].ms;
        }
      if (unit_len == 0)
        return FALSE;
      pos += unit_len;
      total_ms += value * unit_ms;
    }
  if (total_ms > 9.2e18)
    return FALSE;
  *milliseconds = (int64_t) total_ms * (negative ? -1 : 1);
  return TRUE;
}
