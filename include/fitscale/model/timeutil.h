/* fitscale — times and durations as Kubernetes writes them.
 *
 * RFC 3339 timestamps (metav1.Time: "2024-05-01T12:00:00Z", with optional fraction and
 * offset) become unix seconds; Go durations (time.ParseDuration: "30s", "1m0s", "1h30m",
 * "1.5h", "300ms") become milliseconds.  Pure functions, no allocation. */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* FALSE when TEXT is not an RFC 3339 date-time; fractions of a second are truncated. */
gboolean fs_time_parse (const char *text, gsize len, int64_t *unix_seconds);
/* Writes "2024-05-01T12:00:00Z" (UTC) into BUF (at least 21 bytes) and returns it. */
char *fs_time_format (int64_t unix_seconds, char buf[32]);
/* FALSE when TEXT is not a Go duration or overflows int64 milliseconds. */
gboolean fs_duration_parse (const char *text, gsize len, int64_t *milliseconds);

G_END_DECLS
