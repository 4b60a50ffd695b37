/* fitscale — the one error domain.
 *
 * Every fallible function returns gboolean (or a pointer, NULL on failure) and sets a
 * GError in FS_ERROR whose message says what was wrong and where: the file, the object
 * (kind/namespace/name or item index) and the field.  Callers own the GError. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define FS_ERROR (fs_error_quark ())
GQuark fs_error_quark (void);

typedef enum {
  FS_ERROR_INVALID,   /* malformed input: syntax, types, values upstream rejects */
  FS_ERROR_LIMIT,     /* input over a size, depth or count limit */
  FS_ERROR_IO,        /* a file or stream could not be read */
  FS_ERROR_NOT_FOUND, /* a named object is not in the snapshot */
  FS_ERROR_USAGE,     /* command-line misuse */
} FsErrorCode;

G_END_DECLS
