/* Mutation test of the decoders: thousands of random byte edits of the real fixtures must
 * each be accepted or rejected with an error — never a crash, a hang or a leak (the
 * sanitizer build of ./check runs this under ASan and LeakSanitizer).  Seeded, so a failure
 * repeats; FS_MUTATE_SEED and FS_MUTATE_RUNS override. */
#include "config.h"

#include "fitscale/plan/hpaexplain.h"
#include "fitscale/plan/hvpaexplain.h"
#include "fitscale/plan/why.h"
#include "testutil.h"

static void
mutate (GRand *rand, GByteArray *bytes)
{
  static const char interesting[] = "{}[]\":,\\ 0123456789-.eEKiMGmnu\n\t'&*!|>#";
  guint edits = g_rand_int_range (rand, 1, 9);
  for (guint e = 0; e < edits && bytes->len > 0; e++)
    {
      guint at = g_rand_int_range (rand, 0, (gint32) bytes->len);
      switch (g_rand_int_range (rand, 0, 5))
        {
        case 0: /* overwrite with a structural byte */
          bytes->data[at] = interesting[g_rand_int_range (rand, 0, sizeof interesting - 1)];
          break;
        case 1: /* random byte */
          bytes->data[at] = (guint8) g_rand_int_range (rand, 0, 256);
          break;
        case 2: /* delete a run */
          {
            guint want = (guint) g_rand_int_range (rand, 1, 64);
            guint len = MIN (bytes->len - at, want);
            g_byte_array_remove_range (bytes, at, len);
            break;
          }
        case 3: /* duplicate a run */
          {
            guint want = (guint) g_rand_int_range (rand, 1, 256);
            guint len = MIN (bytes->len - at, want);
            g_autofree guint8 *copy = g_memdup2 (bytes->data + at, len);
            g_byte_array_append (bytes, copy, len);
            break;
          }
        default: /* truncate */
          g_byte_array_set_size (bytes, at);
          break;
        }
    }
}

/* What reads the snapshot further must cope with whatever the decoder let through: the HPA
 * and Hvpa readers, the HPA replay, the HVPA rules in both semantics, and a diagnosis. */
static void
exercise_readers (const FsSnapshot *snapshot)
{
  for (guint i = 0; i < snapshot->n_generic; i++)
    {
      const FsGenericObject *object = &snapshot->generic[i];
      g_autoptr (GError) error = NULL;
      if (object->kind == FS_KIND_HPA)
        {
          FsHpaAnswer answer;
          if (fs_hpa_explain (snapshot, object, 1764676800000, FALSE, &answer, &error))
            fs_hpa_answer_clear (&answer);
        }
      else if (object->kind == FS_KIND_HVPA)
        {
          g_autofree FsHvpaAnswer *answer = g_new0 (FsHvpaAnswer, 1);
          if (fs_hvpa_explain (snapshot, object, FS_HVPA_SEMANTICS_DESIGN, 1764676800000, answer, &error))
            {
              g_clear_error (&error);
              fs_hvpa_explain (snapshot, object, FS_HVPA_SEMANTICS_HVPA, 1764676800000, answer, &error);
            }
        }
    }
  for (guint i = 0; i < snapshot->n_pods && i < 3; i++)
    if (snapshot->pods[i].node_name == NULL)
      {
        g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, &snapshot->pods[i]);
        assert_non_null (diagnosis);
      }
}

static void
test_mutated_fixtures (void **state)
{
  g_autofree char *dir_path = test_path ("tests/fixtures/real");
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  assert_non_null (dir);
  const char *seed_text = g_getenv ("FS_MUTATE_SEED");
  const char *runs_text = g_getenv ("FS_MUTATE_RUNS");
  guint32 seed = seed_text != NULL ? (guint32) g_ascii_strtoull (seed_text, NULL, 10) : 20261202;
  guint runs_per_file = runs_text != NULL ? (guint) g_ascii_strtoull (runs_text, NULL, 10) : 200;
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  const char *name;
  guint total = 0, rejected = 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (!g_str_has_suffix (name, ".json") && !g_str_has_suffix (name, ".yaml"))
        continue;
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autofree char *original = NULL;
      gsize original_len;
      assert_true (g_file_get_contents (path, &original, &original_len, NULL));
      for (guint run = 0; run < runs_per_file; run++, total++)
        {
          g_autoptr (GByteArray) bytes = g_byte_array_sized_new (original_len);
          g_byte_array_append (bytes, (const guint8 *) original, (guint) original_len);
          mutate (rand, bytes);
          g_autoptr (FsSnapshotBuilder) builder = fs_snapshot_builder_new ();
          g_autoptr (GError) error = NULL;
          if (!fs_load_bytes (builder, name, (const char *) bytes->data, bytes->len, &error))
            {
              assert_non_null (error);
              assert_true (g_str_has_prefix (error->message, name));
              rejected++;
              continue;
            }
          g_autoptr (FsSnapshot) snapshot = fs_snapshot_builder_finish (g_steal_pointer (&builder), &error);
          assert_true (snapshot != NULL || error != NULL);
          if (snapshot != NULL)
            exercise_readers (snapshot);
        }
    }
  print_message ("# %u mutated inputs (seed %u): %u rejected with an error, the rest loaded\n",
                 total, seed, rejected);
  assert_true (total >= 4000);
  assert_true (rejected > total / 4);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_mutated_fixtures),
  };
  return cmocka_run_group_tests_name ("mutate", tests, NULL, NULL);
}
