/* fitscale tests — shared helpers: the cmocka includes, byte-size constants, where the fixtures
 * are, and loading snapshots from files or from text.  Header-only; every test program
 * includes it once, after config.h. */
#pragma once

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"
#include "fitscale/model/names.h"
#include "fitscale/model/objects.h"

#define KiB 1024LL
#define MiB (1024LL * 1024)
#define GiB (1024LL * 1024 * 1024)

/* $FS_SRCDIR/PATH (make check sets FS_SRCDIR; a direct run falls back to "."). */
static inline char *
test_path (const char *path)
{
  const char *srcdir = g_getenv ("FS_SRCDIR");
  return g_build_filename (srcdir != NULL ? srcdir : ".", path, NULL);
}

static inline FsSnapshot *
test_load_files (const char *first, ...)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  va_list args;
  va_start (args, first);
  for (const char *name = first; name != NULL; name = va_arg (args, const char *))
    g_ptr_array_add (paths, test_path (name));
  va_end (args);
  g_ptr_array_add (paths, NULL);
  g_autoptr (GError) error = NULL;
  FsSnapshot *snapshot = fs_load_snapshot ((const char *const *) paths->pdata, &error);
  if (snapshot == NULL)
    fail_msg ("loading failed: %s", error->message);
  return snapshot;
}

/* Loads TEXT (JSON or YAML); NULL with *ERROR set when it is rejected. */
static inline FsSnapshot *
test_load_text (const char *text, GError **error)
{
  g_autoptr (FsSnapshotBuilder) builder = fs_snapshot_builder_new ();
  if (!fs_load_bytes (builder, "test-input", text, strlen (text), error))
    return NULL;
  return fs_snapshot_builder_finish (g_steal_pointer (&builder), error);
}

/* Loads TEXT, which must be accepted. */
static inline FsSnapshot *
test_load_valid_text (const char *text)
{
  g_autoptr (GError) error = NULL;
  FsSnapshot *snapshot = test_load_text (text, &error);
  if (snapshot == NULL)
    fail_msg ("%s", error->message);
  return snapshot;
}

/* Asserts TEXT is rejected with a message containing every NULL-terminated fragment. */
static inline void
test_expect_error (const char *text, const char *first_fragment, ...)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = test_load_text (text, &error);
  if (snapshot != NULL)
    fail_msg ("accepted input that should fail: %.200s", text);
  assert_non_null (error);
  va_list args;
  va_start (args, first_fragment);
  for (const char *fragment = first_fragment; fragment != NULL; fragment = va_arg (args, const char *))
    if (strstr (error->message, fragment) == NULL)
      fail_msg ("error \"%s\" lacks \"%s\"", error->message, fragment);
  va_end (args);
}

static inline const char *
test_label (const FsLabelSet *labels, const char *key)
{
  return fs_labels_get (labels, key);
}
