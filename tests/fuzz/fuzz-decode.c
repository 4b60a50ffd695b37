/* libFuzzer target: any bytes through the JSON/YAML decoders and the snapshot build, then
 * through what reads a snapshot further (the HPA and Hvpa readers and rules, a diagnosis).
 * The input must be accepted or rejected with an error; crashes, leaks and UB are findings. */
#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#include "fitscale/kube/decode.h"
#include "fitscale/plan/hpaexplain.h"
#include "fitscale/plan/hvpaexplain.h"
#include "fitscale/plan/why.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
read_further (const FsSnapshot *snapshot)
{
  for (guint i = 0; i < snapshot->n_generic; i++)
    {
      GError *error = NULL;
      if (snapshot->generic[i].kind == FS_KIND_HPA)
        {
          FsHpaAnswer answer;
          if (fs_hpa_explain (snapshot, &snapshot->generic[i], 0, FALSE, &answer, &error))
            fs_hpa_answer_clear (&answer);
        }
      else if (snapshot->generic[i].kind == FS_KIND_HVPA)
        {
          FsHvpaAnswer *answer = g_new0 (FsHvpaAnswer, 1);
          fs_hvpa_explain (snapshot, &snapshot->generic[i], FS_HVPA_SEMANTICS_HVPA, 0, answer, &error);
          g_free (answer);
        }
      g_clear_error (&error);
    }
  if (snapshot->n_pods > 0 && snapshot->n_nodes < 64)
    fs_diagnosis_free (fs_diagnose (snapshot, &snapshot->pods[0]));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FsSnapshotBuilder *builder = fs_snapshot_builder_new ();
  GError *error = NULL;
  if (fs_load_bytes (builder, "fuzz", (const char *) data, size, &error))
    {
      FsSnapshot *snapshot = fs_snapshot_builder_finish (builder, &error);
      if (snapshot != NULL)
        {
          read_further (snapshot);
          fs_snapshot_unref (snapshot);
        }
    }
  else
    fs_snapshot_builder_free (builder);
  g_clear_error (&error);
  return 0;
}
