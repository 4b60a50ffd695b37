/* fitscale — new nodes in every answer (see include/fitscale/render/nodes-needed.h). */
#include "config.h"

#include "fitscale/plan/capacity.h"
#include "fitscale/render/nodes-needed.h"

static void
emit_string_or_null (FsEmitter *emitter, const char *text)
{
  text != NULL ? fs_emit_string (emitter, text) : fs_emit_null (emitter);
}

void
fs_emit_node_additions (FsEmitter *emitter, const char *shape, const GArray *additions)
{
  fs_emit_list_open (emitter);
  for (guint i = 0; additions != NULL && i < additions->len; i++)
    {
      const FsNodeAddition *addition = &g_array_index (additions, FsNodeAddition, i);
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "shape");
      fs_emit_string (emitter, shape);
      fs_emit_key (emitter, "zone");
      emit_string_or_null (emitter, addition->zone);
      fs_emit_key (emitter, "pool");
      emit_string_or_null (emitter, addition->pool);
      fs_emit_key (emitter, "poolLabel");
      emit_string_or_null (emitter, addition->pool_key);
      fs_emit_key (emitter, "copyOf");
      fs_emit_string (emitter, addition->example->name);
      fs_emit_key (emitter, "count");
      fs_emit_int (emitter, addition->count);
      fs_emit_key (emitter, "replicasPerNode");
      fs_emit_int (emitter, addition->replicas_per_node);
      fs_emit_key (emitter, "replicas");
      fs_emit_int (emitter, addition->replicas);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
}

void
fs_emit_nodes_needed (FsEmitter *emitter, const GArray *estimates)
{
  fs_emit_list_open (emitter);
  for (guint i = 0; i < estimates->len; i++)
    {
      const FsNodeShapeEstimate *estimate = &g_array_index (estimates, FsNodeShapeEstimate, i);
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "shape");
      fs_emit_string (emitter, estimate->shape);
      fs_emit_key (emitter, "existing");
      fs_emit_int (emitter, estimate->existing);
      fs_emit_key (emitter, "replicasPerNode");
      fs_emit_int (emitter, estimate->per_node);
      fs_emit_key (emitter, "nodes");
      estimate->complete ? fs_emit_int (emitter, estimate->nodes_needed) : fs_emit_null (emitter);
      fs_emit_key (emitter, "additions");
      fs_emit_node_additions (emitter, estimate->shape, estimate->additions);
      fs_emit_key (emitter, "uneven");
      fs_emit_bool (emitter, estimate->uneven);
      fs_emit_key (emitter, "unplaced");
      fs_emit_int (emitter, estimate->complete ? 0 : estimate->unplaced);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
}

guint
fs_nodes_needed_complete (const GArray *estimates)
{
  guint n = 0;
  for (guint i = 0; i < estimates->len; i++)
    n += g_array_index (estimates, FsNodeShapeEstimate, i).complete ? 1 : 0;
  return n;
}

void
fs_print_nodes_needed (FILE *out, const char *prefix, gboolean complete_only, const GArray *estimates)
{
  FS_SCRATCH (safe);
  gboolean offered = FALSE; /* a shape that holds them all is printed: the next is another choice */
  for (guint i = 0; i < estimates->len; i++)
    {
      const FsNodeShapeEstimate *estimate = &g_array_index (estimates, FsNodeShapeEstimate, i);
      if (complete_only && !estimate->complete)
        continue;
      if (estimate->complete)
        {
          g_autofree char *text = fs_node_additions_text (estimate, NULL);
          fprintf (out, "%s%s%s\n", prefix, offered ? "or " : "", fs_safe (safe, text));
          offered = TRUE;
        }
      else if (estimate->per_node == 0)
        {
          g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
          fs_verdict_reasons (&estimate->verdict, reasons);
          g_ptr_array_add (reasons, NULL);
          g_autofree char *why = g_strjoinv (", ", (char **) reasons->pdata);
          fprintf (out, "%s%s: a new node cannot hold one (%s)\n", prefix, fs_safe (safe, estimate->shape),
                   why[0] ? fs_safe (safe, why) : "no room");
        }
      else if (estimate->additions->len == 0)
        fprintf (out, "%s%s: no new node of it lets a replica land (topology spread or pod affinity "
                 "keeps them off)\n", prefix, fs_safe (safe, estimate->shape));
      else
        {
          g_autofree char *text = fs_node_additions_text (estimate, NULL);
          int64_t added = 0;
          for (guint a = 0; a < estimate->additions->len; a++)
            added += g_array_index (estimate->additions, FsNodeAddition, a).count;
          fprintf (out, "%s%s, and still %" G_GINT64_FORMAT " replica%s Pending: %s\n", prefix, fs_safe (safe, text),
                   estimate->unplaced, estimate->unplaced == 1 ? "" : "s",
                   added >= FS_ESTIMATE_MAX_NEW_NODES ? "the estimate stops at that many new nodes"
                                                      : "no further new node of this shape lets one land");
        }
    }
}
