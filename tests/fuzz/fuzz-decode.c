/* libFuzzer target: any bytes through the JSON/YAML decoders and the snapshot build.  The
 * input must be accepted or rejected with an error; crashes, leaks and UB are findings. */
#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#include "fitscale/decode.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FsSnapshotBuilder *builder = fs_snapshot_builder_new ();
  GError *error = NULL;
  if (fs_load_bytes (builder, "fuzz", (const char *) data, size, &error))
    {
      FsSnapshot *snapshot = fs_snapshot_builder_finish (builder, &error);
      if (snapshot != NULL)
        fs_snapshot_unref (snapshot);
    }
  else
    fs_snapshot_builder_free (builder);
  g_clear_error (&error);
  return 0;
}
