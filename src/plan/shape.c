/* fitscale — pod shapes from flags, workloads and files (see include/fitscale/shape.h). */
#include "config.h"

#include <string.h>

#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"
#include "fitscale/model/names.h"
#include "fitscale/model/quantity.h"
#include "fitscale/model/runtimeclass.h"
#include "fitscale/plan/shape.h"
#include "fitscale/model/schedconfig.h"

struct FsShape {
  FsPool *pool;              /* what this shape built */
  FsSnapshot *snapshot;      /* a snapshot it borrows from (a file's), or NULL */
  const FsWorkload *workload;
  FsPodShape pod;
  char *description;
};

void
fs_shape_free (FsShape *shape)
{
  if (shape == NULL)
    return;
  fs_pool_free (shape->pool);
  if (shape->snapshot != NULL)
    fs_snapshot_unref (shape->snapshot);
  g_free (shape->description);
  g_free (shape);
}

FsPodShape
fs_shape_judged (const FsSnapshot *snapshot, const FsPodShape *pod, const FsLabelSelector *selector,
                 FsSpreadList **owned)
{
  FsPodShape judged = *pod;
  judged.profile = fs_snapshot_profile (snapshot, pod->spec);
  *owned = fs_scheduler_default_spread (judged.profile, pod->spec != NULL ? pod->spec->placement : NULL,
                                        selector);
  judged.default_spread = *owned;
  return judged;
}

gboolean
fs_shape_check_scheduler (const FsSnapshot *snapshot, const FsPodSpec *spec, const char *what,
                          GError **error)
{
  if (fs_snapshot_knows_scheduler (snapshot, spec))
    return TRUE;
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
               "%s: its pods' schedulerName \"%s\" has no profile in %s: no scheduler of that "
               "configuration places them, and fitscale does not judge them by another profile",
               what, spec->placement->scheduler_name != NULL && spec->placement->scheduler_name[0] != '\0'
                         ? spec->placement->scheduler_name : FS_DEFAULT_SCHEDULER_NAME,
               snapshot->scheduler_config->source);
  return FALSE;
}

const FsPodShape *
fs_shape_pod (const FsShape *shape)
{
  return &shape->pod;
}

const char *
fs_shape_describe (const FsShape *shape)
{
  return shape->description;
}

const FsWorkload *
fs_shape_workload (const FsShape *shape)
{
  return shape->workload;
}

gboolean
fs_parse_resource_list (const char *text, FsPool *pool, FsResources *resources, GError **error)
{
  memset (resources, 0, sizeof *resources);
  g_auto (GStrv) items = g_strsplit (text, ",", -1);
  if (items[0] == NULL || (items[1] == NULL && *g_strstrip (items[0]) == '\0'))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "an empty request: give resources as NAME=QUANTITY, e.g. "
                   "cpu=500m,memory=3Gi");
      return FALSE;
    }
  for (guint i = 0; items[i] != NULL; i++)
    {
      const char *item = g_strstrip (items[i]);
      const char *equals = strchr (item, '=');
      if (equals == NULL || equals == item)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                       "\"%s\": give resources as NAME=QUANTITY, e.g. cpu=500m,memory=3Gi", item);
          return FALSE;
        }
      g_autofree char *name = g_strndup (item, (gsize) (equals - item));
      const char *quantity = equals + 1;
      FsResourceKind kind = fs_resource_kind (name);
      if (kind == FS_RES_KIND_IGNORED || kind == FS_RES_KIND_PODS)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                       "\"%s\" is not a resource the scheduler checks (cpu, memory, "
                       "ephemeral-storage, hugepages-*, or an extended resource like nvidia.com/gpu)",
                       name);
          return FALSE;
        }
      int64_t amount;
      gboolean parsed = kind == FS_RES_KIND_CPU
                            ? fs_quantity_parse_milli (quantity, strlen (quantity), &amount, error)
                            : fs_quantity_parse_value (quantity, strlen (quantity), &amount, error);
      if (!parsed)
        return FALSE;
      if (amount < 0)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "%s: a request cannot be negative", item);
          return FALSE;
        }
      for (guint j = 0; j < i; j++)
        if (g_str_has_prefix (items[j], name) && items[j][strlen (name)] == '=')
          {
            g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "%s is given twice (\"%s\" and \"%s\")", name, items[j], item);
            return FALSE;
          }
      if (!fs_resources_set (resources, fs_pool_intern (pool, name, strlen (name)), amount, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- selectors and tolerations from flags ----------------------------------------- */

static gboolean
add_selector_flags (FsPool *pool, const FsLabelSet *base, char **flags,
                    const FsLabelSet **out, GError **error)
{
  g_autoptr (GArray) labels = g_array_new (FALSE, FALSE, sizeof (FsLabel));
  for (guint i = 0; base != NULL && i < base->n; i++)
    g_array_append_val (labels, base->items[i]);
  for (guint i = 0; flags != NULL && flags[i] != NULL; i++)
    {
      const char *equals = strchr (flags[i], '=');
      if (equals == NULL || equals == flags[i])
        {
          g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                       "--node-selector \"%s\": give KEY=VALUE", flags[i]);
          return FALSE;
        }
      FsLabel label = { fs_pool_intern (pool, flags[i], (gsize) (equals - flags[i])),
                        fs_pool_intern (pool, equals + 1, strlen (equals + 1)) };
      g_array_append_val (labels, label);
    }
  *out = NULL;
  if (labels->len == 0)
    return TRUE;
  g_array_sort (labels, fs_label_compare);
  gsize size = sizeof (FsLabelSet) + labels->len * sizeof (FsLabel);
  FsLabelSet *set = fs_pool_alloc (pool, size);
  set->n = labels->len;
  memcpy (set->items, labels->data, labels->len * sizeof (FsLabel));
  *out = set;
  return TRUE;
}

/* "key=value:NoSchedule", "key:NoSchedule" (Exists), "key" (Exists, any effect), "*" (all). */
static gboolean
parse_toleration (FsPool *pool, const char *text, FsToleration *toleration, GError **error)
{
  memset (toleration, 0, sizeof *toleration);
  if (strcmp (text, "*") == 0)
    {
      toleration->op = FS_TOLERATION_EXISTS;
      return TRUE;
    }
  g_autofree char *copy = g_strdup (text);
  char *colon = strrchr (copy, ':');
  if (colon != NULL)
    {
      *colon = '\0';
      const char *effect = colon + 1;
      if (strcmp (effect, "NoSchedule") == 0)
        toleration->effect = FS_EFFECT_NO_SCHEDULE;
      else if (strcmp (effect, "NoExecute") == 0)
        toleration->effect = FS_EFFECT_NO_EXECUTE;
      else if (strcmp (effect, "PreferNoSchedule") == 0)
        toleration->effect = FS_EFFECT_PREFER_NO_SCHEDULE;
      else
        {
          g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                       "--toleration \"%s\": effect must be NoSchedule, NoExecute or PreferNoSchedule",
                       text);
          return FALSE;
        }
    }
  char *equals = strchr (copy, '=');
  if (equals != NULL)
    {
      *equals = '\0';
      toleration->value = fs_pool_intern (pool, equals + 1, strlen (equals + 1));
      toleration->op = FS_TOLERATION_EQUAL;
    }
  else
    toleration->op = FS_TOLERATION_EXISTS;
  if (copy[0] == '\0')
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "--toleration \"%s\": the key is empty", text);
      return FALSE;
    }
  toleration->key = fs_pool_intern (pool, copy, strlen (copy));
  return TRUE;
}

static gboolean
add_toleration_flags (FsPool *pool, const FsTolerationList *base, char **flags,
                      const FsTolerationList **out, GError **error)
{
  guint n_base = base != NULL ? base->n : 0;
  guint n_flags = flags != NULL ? g_strv_length (flags) : 0;
  *out = base;
  if (n_flags == 0)
    return TRUE;
  FsTolerationList *list = fs_pool_alloc (pool, sizeof (FsTolerationList)
                                                    + (n_base + n_flags) * sizeof (FsToleration));
  list->n = n_base + n_flags;
  for (guint i = 0; i < n_base; i++)
    list->items[i] = base->items[i];
  for (guint i = 0; i < n_flags; i++)
    if (!parse_toleration (pool, flags[i], &list->items[n_base + i], error))
      return FALSE;
  *out = list;
  return TRUE;
}

/* A copy of BASE (may be NULL) with the flags' selectors and tolerations added. */
static const FsPlacement *
placement_with_flags (FsPool *pool, const FsPlacement *base, const FsShapeFlags *flags,
                      GError **error)
{
  FsPlacement *placement = fs_pool_alloc (pool, sizeof (FsPlacement));
  if (base != NULL)
    *placement = *base;
  if (!add_selector_flags (pool, placement->node_selector, flags->node_selector,
                           &placement->node_selector, error)
      || !add_toleration_flags (pool, placement->tolerations, flags->tolerations,
                                &placement->tolerations, error))
    return NULL;
  return placement;
}

static FsShape *
shape_new (void)
{
  FsShape *shape = g_new0 (FsShape, 1);
  shape->pool = fs_pool_new ();
  return shape;
}

FsShape *
fs_shape_from_flags (const FsShapeFlags *flags, GError **error)
{
  g_autoptr (FsShape) shape = shape_new ();
  FsPodSpec *spec = fs_pool_alloc (shape->pool, sizeof (FsPodSpec));
  if (!fs_parse_resource_list (flags->request, shape->pool, &spec->request, error))
    return NULL;
  spec->placement = placement_with_flags (shape->pool, NULL, flags, error);
  if (spec->placement == NULL)
    return NULL;
  FsContainerSet *containers = fs_pool_alloc (shape->pool, sizeof (FsContainerSet));
  FsContainer *container = fs_pool_alloc (shape->pool, sizeof (FsContainer));
  container->name = "main";
  container->requests = spec->request;
  containers->n_containers = 1;
  containers->containers = container;
  spec->containers = containers;
  shape->pod = (FsPodShape){ .namespace = flags->namespace != NULL ? flags->namespace : "default",
                             .spec = spec };
  shape->description = g_strdup (flags->request);
  return g_steal_pointer (&shape);
}

static gboolean
shape_adopt_spec (FsShape *shape, const FsPodSpec *spec, const FsShapeFlags *flags,
                  GError **error)
{
  FsPodSpec *copy = fs_pool_alloc (shape->pool, sizeof (FsPodSpec));
  *copy = *spec;
  copy->placement = placement_with_flags (shape->pool, spec->placement, flags, error);
  shape->pod.spec = copy;
  return copy->placement != NULL;
}

static gboolean
shape_from_snapshot (FsShape *shape, const FsSnapshot *snapshot, const char *kind,
                     const char *name, const char *namespace, const FsShapeFlags *flags,
                     GError **error)
{
  if (g_ascii_strcasecmp (kind, "pod") == 0 || g_ascii_strcasecmp (kind, "pods") == 0)
    for (guint i = 0; i < snapshot->n_pods; i++)
      {
        const FsPod *pod = &snapshot->pods[i];
        if ((name == NULL || strcmp (pod->name, name) == 0)
            && (namespace == NULL || strcmp (pod->namespace, namespace) == 0))
          {
            shape->pod = (FsPodShape){ .namespace = pod->namespace, .labels = pod->labels,
                                       .priority = pod->priority, .name = pod->name };
            return shape_adopt_spec (shape, pod->spec, flags, error);
          }
      }
  for (guint i = 0; i < snapshot->n_workloads; i++)
    {
      const FsWorkload *workload = &snapshot->workloads[i];
      FsWorkloadKind wanted;
      gboolean kind_matches = fs_workload_kind_parse (kind, &wanted) && wanted == workload->kind;
      if (kind_matches && (name == NULL || strcmp (workload->name, name) == 0)
          && (namespace == NULL || strcmp (workload->namespace, namespace) == 0))
        {
          shape->workload = workload;
          shape->pod = (FsPodShape){ .namespace = workload->namespace,
                                     .labels = workload->template_labels };
          return shape_adopt_spec (shape, workload->template, flags, error);
        }
    }
  g_set_error (error, FS_ERROR, FS_ERROR_NOT_FOUND, "%s%s%s not found%s%s", kind,
               name != NULL ? "/" : "", name != NULL ? name : "",
               namespace != NULL ? " in namespace " : "", namespace != NULL ? namespace : "");
  return FALSE;
}

FsShape *
fs_shape_from_object (const FsSnapshot *snapshot, const char *reference,
                      const FsShapeFlags *flags, GError **error)
{
  const char *slash = strchr (reference, '/');
  if (slash == NULL || slash == reference || slash[1] == '\0')
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                   "\"%s\": name the object as KIND/NAME, e.g. deployment/web", reference);
      return NULL;
    }
  g_autofree char *kind = g_strndup (reference, (gsize) (slash - reference));
  g_autoptr (FsShape) shape = shape_new ();
  if (!shape_from_snapshot (shape, snapshot, kind, slash + 1,
                            flags->namespace != NULL ? flags->namespace : "default", flags, error))
    return NULL;
  shape->description = g_strdup (reference);
  return g_steal_pointer (&shape);
}

gboolean
fs_shape_apply_runtime_class (FsShape *shape, const FsSnapshot *snapshot, GError **error)
{
  const FsPodSpec *spec = fs_pod_spec_with_runtime_class (snapshot, shape->pool, shape->pod.spec, error);
  if (spec == NULL)
    return FALSE;
  shape->pod.spec = spec;
  return TRUE;
}

FsShape *
fs_shape_from_file (const char *path, const FsShapeFlags *flags, GError **error)
{
  const char *paths[] = { path, NULL };
  g_autoptr (FsSnapshot) snapshot = fs_load_snapshot (paths, error);
  if (snapshot == NULL)
    return NULL;
  g_autoptr (FsShape) shape = shape_new ();
  const char *kind = snapshot->n_pods > 0 ? "pod" : snapshot->n_workloads > 0
                     ? fs_workload_kind_name (snapshot->workloads[0].kind) : NULL;
  if (kind == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "%s: holds no Pod, Deployment, StatefulSet or ReplicaSet", path);
      return NULL;
    }
  if (!shape_from_snapshot (shape, snapshot, kind, NULL, NULL, flags, error))
    return NULL;
  if (flags->namespace != NULL)
    shape->pod.namespace = fs_pool_intern (shape->pool, flags->namespace, strlen (flags->namespace));
  shape->workload = NULL; /* it belongs to the file, not to the cluster */
  shape->description = g_strdup (path);
  shape->snapshot = g_steal_pointer (&snapshot);
  return g_steal_pointer (&shape);
}
