/* fitscale — reading a KubeSchedulerConfiguration (see include/fitscale/kube/schedconfig.h).
 * Defaults and validation follow pkg/scheduler/apis/config/v1/defaults.go and
 * pkg/scheduler/apis/config/validation (validation.go, validation_pluginargs.go). */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "fitscale/kube/decode.h"
#include "fitscale/kube/kubeconfig.h"
#include "fitscale/kube/schedconfig.h"
#include "fitscale/kube/tree.h"
#include "fitscale/model/error.h"

#define API_VERSION "kubescheduler.config.k8s.io/v1"

static gboolean G_GNUC_PRINTF (3, 4)
invalid (GError **error, const char *path, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *text = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s: %s", path, text);
  return FALSE;
}

static const FsTree *
list_at (const FsTree *tree, const char *path)
{
  const FsTree *list = fs_tree_at (tree, path);
  return list != NULL && list->type == FS_TREE_LIST ? list : NULL;
}

/* A list of strings at BASE.FIELD into NAMES (at most FS_SCHED_MAX_NAMES). */
static gboolean
read_names (const FsTree *args, const char *base, const char *field, const char **names,
            guint *n, GError **error)
{
  const FsTree *list = list_at (args, field);
  *n = 0;
  for (guint i = 0; list != NULL && i < list->n; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s.%s[%u]", base, field, i);
      const char *text = list->values[i]->text;
      if (list->values[i]->type != FS_TREE_STRING || text == NULL || text[0] == '\0')
        return invalid (error, path, "a resource name is required");
      if (*n == FS_SCHED_MAX_NAMES)
        return invalid (error, path, "more than %d names", FS_SCHED_MAX_NAMES);
      names[(*n)++] = text;
    }
  return TRUE;
}

/* NodeResourcesFitArgs (ValidateNodeResourcesFitArgs): ignoredResources, and
 * ignoredResourceGroups whose names have no '/'.  scoringStrategy only scores. */
static gboolean
read_fit_args (const FsTree *args, const char *base, FsSchedulerProfile *out, GError **error)
{
  if (!read_names (args, base, "ignoredResources", out->ignored_resources,
                   &out->n_ignored_resources, error)
      || !read_names (args, base, "ignoredResourceGroups", out->ignored_groups,
                      &out->n_ignored_groups, error))
    return FALSE;
  for (guint i = 0; i < out->n_ignored_groups; i++)
    if (strchr (out->ignored_groups[i], '/') != NULL)
      {
        g_autofree char *path = g_strdup_printf ("%s.ignoredResourceGroups[%u]", base, i);
        return invalid (error, path, "\"%s\": resource group name can't contain '/'",
                        out->ignored_groups[i]);
      }
  return TRUE;
}

/* PodTopologySpreadArgs (SetDefaults_PodTopologySpreadArgs: defaultingType System;
 * ValidatePodTopologySpreadArgs: System needs no defaultConstraints, each constraint has
 * maxSkew > 0, a topologyKey, a known whenUnsatisfiable and no labelSelector, and no two share
 * topologyKey and whenUnsatisfiable). */
static gboolean
read_spread_args (const FsTree *args, const char *base, FsSchedulerConfig *config,
                  FsSchedulerProfile *out, GError **error)
{
  const char *type = fs_tree_text (args, "defaultingType");
  g_autofree char *type_path = g_strdup_printf ("%s.defaultingType", base);
  if (type == NULL || strcmp (type, "System") == 0)
    out->spread_defaulting = FS_SPREAD_DEFAULTING_SYSTEM;
  else if (strcmp (type, "List") == 0)
    out->spread_defaulting = FS_SPREAD_DEFAULTING_LIST;
  else
    return invalid (error, type_path, "\"%s\" is not supported (System, List)", type);
  const FsTree *list = list_at (args, "defaultConstraints");
  guint n = list != NULL ? list->n : 0;
  if (n > 0 && out->spread_defaulting == FS_SPREAD_DEFAULTING_SYSTEM)
    return invalid (error, type_path, "when .defaultingType is \"System\", .defaultConstraints must be empty");
  if (n == 0)
    return TRUE;
  if (n > FS_SCHED_MAX_NAMES)
    return invalid (error, base, "more than %d defaultConstraints", FS_SCHED_MAX_NAMES);
  FsSpreadList *spread = g_malloc0 (sizeof (FsSpreadList) + n * sizeof (FsSpreadConstraint));
  g_ptr_array_add (config->owned, spread);
  spread->n = n;
  for (guint i = 0; i < n; i++)
    {
      const FsTree *entry = list->values[i];
      FsSpreadConstraint *c = &spread->items[i];
      g_autofree char *path = g_strdup_printf ("%s.defaultConstraints[%u]", base, i);
      g_autofree char *skew_path = g_strdup_printf ("%s.maxSkew", path);
      int64_t skew = 0;
      GError *local = NULL;
      if (!fs_tree_int (entry, "maxSkew", 1, G_MAXINT32, &skew, &local))
        {
          if (local != NULL)
            g_clear_error (&local);
          return invalid (error, skew_path, "must be greater than zero");
        }
      c->max_skew = (int32_t) skew;
      c->topology_key = fs_tree_text (entry, "topologyKey");
      if (c->topology_key == NULL || c->topology_key[0] == '\0')
        return invalid (error, path, "topologyKey: can not be empty");
      const char *when = fs_tree_text (entry, "whenUnsatisfiable");
      if (g_strcmp0 (when, "DoNotSchedule") == 0)
        c->when_unsatisfiable = FS_SPREAD_DO_NOT_SCHEDULE;
      else if (g_strcmp0 (when, "ScheduleAnyway") == 0)
        c->when_unsatisfiable = FS_SPREAD_SCHEDULE_ANYWAY;
      else
        return invalid (error, path, "whenUnsatisfiable: \"%s\" is not supported (DoNotSchedule, ScheduleAnyway)",
                        when != NULL ? when : "");
      if (fs_tree_at (entry, "labelSelector") != NULL)
        return invalid (error, path, "labelSelector: constraint must not define a selector, as they "
                                     "deduced for each pod");
      for (guint j = 0; j < i; j++)
        if (strcmp (spread->items[j].topology_key, c->topology_key) == 0
            && spread->items[j].when_unsatisfiable == c->when_unsatisfiable)
          return invalid (error, path, "duplicate {%s, %s}", c->topology_key, when);
    }
  out->default_constraints = spread;
  return TRUE;
}

/* A NodeSelectorRequirement list (matchExpressions or matchFields) at BASE. */
static gboolean
read_requirements (const FsTree *term, const char *base, const char *field,
                   FsSchedulerConfig *config, const FsRequirementList **out, GError **error)
{
  static const struct { const char *name; FsSelectorOp op; } ops[] = {
    { "In", FS_OP_IN }, { "NotIn", FS_OP_NOT_IN }, { "Exists", FS_OP_EXISTS },
    { "DoesNotExist", FS_OP_DOES_NOT_EXIST }, { "Gt", FS_OP_GT }, { "Lt", FS_OP_LT },
  };
  const FsTree *list = list_at (term, field);
  *out = NULL;
  if (list == NULL || list->n == 0)
    return TRUE;
  FsRequirementList *reqs = g_malloc0 (sizeof (FsRequirementList) + list->n * sizeof (FsRequirement));
  g_ptr_array_add (config->owned, reqs);
  reqs->n = list->n;
  for (guint i = 0; i < list->n; i++)
    {
      const FsTree *entry = list->values[i];
      g_autofree char *path = g_strdup_printf ("%s.%s[%u]", base, field, i);
      const char *op = fs_tree_text (entry, "operator");
      gsize k = 0;
      while (k < G_N_ELEMENTS (ops) && g_strcmp0 (op, ops[k].name) != 0)
        k++;
      if (k == G_N_ELEMENTS (ops))
        return invalid (error, path, "operator: \"%s\" is not a valid operator (In, NotIn, Exists, "
                                     "DoesNotExist, Gt, Lt)", op != NULL ? op : "");
      const char *key = fs_tree_text (entry, "key");
      if (key == NULL || key[0] == '\0')
        return invalid (error, path, "key: required");
      const FsTree *values = list_at (entry, "values");
      guint n = values != NULL ? values->n : 0;
      const char **texts = g_new0 (const char *, n + 1);
      g_ptr_array_add (config->owned, texts);
      for (guint v = 0; v < n; v++)
        texts[v] = values->values[v]->text;
      reqs->items[i] = (FsRequirement){ key, ops[k].op, n, texts };
    }
  *out = reqs;
  return TRUE;
}

/* NodeAffinityArgs.addedAffinity: its required node selector terms (preferred ones score). */
static gboolean
read_affinity_args (const FsTree *args, const char *base, FsSchedulerConfig *config,
                    FsSchedulerProfile *out, GError **error)
{
  const char *field = "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
  const FsTree *terms = list_at (args, field);
  if (terms == NULL)
    {
      if (fs_tree_at (args, "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution") != NULL)
        {
          g_autofree char *path = g_strdup_printf ("%s.%s", base, field);
          return invalid (error, path, "must have at least one node selector term");
        }
      return TRUE;
    }
  FsNodeSelector *selector = g_malloc0 (sizeof (FsNodeSelector) + (terms->n + 1) * sizeof (FsNodeSelectorTerm));
  g_ptr_array_add (config->owned, selector);
  selector->n = terms->n;
  for (guint i = 0; i < terms->n; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s.%s[%u]", base, field, i);
      if (!read_requirements (terms->values[i], path, "matchExpressions", config,
                              &selector->terms[i].match_expressions, error)
          || !read_requirements (terms->values[i], path, "matchFields", config,
                                 &selector->terms[i].match_fields, error))
        return FALSE;
    }
  out->added_affinity = selector;
  return TRUE;
}

/* Plugins of the default profile without a Filter (default_plugins.go): enabling them in
 * multiPoint adds no filter fitscale lacks. */
static gboolean
scores_only (const char *name)
{
  static const char *const names[] = {
    "SchedulingGates", "PrioritySort", "NodeResourcesBalancedAllocation", "ImageLocality",
    "DefaultPreemption", "DefaultBinder",
  };
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (names[i], name) == 0)
      return TRUE;
  return FALSE;
}

/* plugins.multiPoint and plugins.filter (v1 defaults.go mergePlugins): the default filters
 * minus the disabled ones ("*": all), plus those enabled again. */
static gboolean
read_plugins (const FsTree *profile, const char *base, FsSchedulerProfile *out, GError **error)
{
  static const char *const points[] = { "multiPoint", "filter" };
  guint32 disabled = 0;
  for (gsize p = 0; p < G_N_ELEMENTS (points); p++)
    {
      g_autofree char *field = g_strdup_printf ("plugins.%s.disabled", points[p]);
      const FsTree *list = list_at (profile, field);
      for (guint i = 0; list != NULL && i < list->n; i++)
        {
          const char *name = fs_tree_text (list->values[i], "name");
          FsFilter filter;
          if (g_strcmp0 (name, "*") == 0)
            disabled = G_MAXUINT32;
          else if (fs_scheduler_filter_plugin (name, &filter))
            disabled |= 1u << filter;
          else if (name == NULL)
            {
              g_autofree char *path = g_strdup_printf ("%s.%s[%u].name", base, field, i);
              return invalid (error, path, "required");
            }
        }
    }
  for (gsize p = 0; p < G_N_ELEMENTS (points); p++)
    {
      g_autofree char *field = g_strdup_printf ("plugins.%s.enabled", points[p]);
      const FsTree *list = list_at (profile, field);
      for (guint i = 0; list != NULL && i < list->n; i++)
        {
          const char *name = fs_tree_text (list->values[i], "name");
          FsFilter filter;
          if (name == NULL)
            {
              g_autofree char *path = g_strdup_printf ("%s.%s[%u].name", base, field, i);
              return invalid (error, path, "required");
            }
          if (fs_scheduler_filter_plugin (name, &filter))
            disabled &= ~(1u << filter);
          else if (!scores_only (name) && out->n_unmodelled < FS_SCHED_MAX_NAMES)
            out->unmodelled[out->n_unmodelled++] = name;
        }
    }
  out->disabled_filters = disabled;
  return TRUE;
}

static gboolean
read_profile (const FsTree *profile, guint index, FsSchedulerConfig *config,
              FsSchedulerProfile *out, GError **error)
{
  g_autofree char *base = g_strdup_printf ("profiles[%u]", index);
  const char *name = fs_tree_text (profile, "schedulerName");
  out->scheduler_name = name != NULL && name[0] != '\0' ? name : FS_DEFAULT_SCHEDULER_NAME;
  if (!read_plugins (profile, base, out, error))
    return FALSE;
  const FsTree *configs = list_at (profile, "pluginConfig");
  for (guint i = 0; configs != NULL && i < configs->n; i++)
    {
      const FsTree *entry = configs->values[i];
      const char *plugin = fs_tree_text (entry, "name");
      const FsTree *args = fs_tree_at (entry, "args");
      g_autofree char *path = g_strdup_printf ("%s.pluginConfig[%u].args", base, i);
      if (plugin == NULL)
        return invalid (error, path, "the plugin's name is required");
      for (guint j = 0; j < i; j++)
        if (g_strcmp0 (fs_tree_text (configs->values[j], "name"), plugin) == 0)
          return invalid (error, path, "pluginConfig for plugin \"%s\" is duplicated", plugin);
      gboolean ok = TRUE;
      if (strcmp (plugin, "NodeResourcesFit") == 0)
        ok = read_fit_args (args, path, out, error);
      else if (strcmp (plugin, "PodTopologySpread") == 0)
        ok = read_spread_args (args, path, config, out, error);
      else if (strcmp (plugin, "NodeAffinity") == 0)
        ok = read_affinity_args (args, path, config, out, error);
      /* InterPodAffinityArgs (hardPodAffinityWeight, ignorePreferredTermsOfExistingPods) and
       * every score plugin's args weigh nodes only: not read. */
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

static void
snapshot_unref (gpointer snapshot)
{
  fs_snapshot_unref (snapshot);
}

FsSchedulerConfig *
fs_scheduler_config_load (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;
  if (!fs_read_small_file (path, "scheduler configuration", FS_SCHED_CONFIG_MAX_BYTES, &data, &length, error))
    return NULL;
  g_autoptr (FsSnapshotBuilder) builder = fs_snapshot_builder_new ();
  if (!fs_load_bytes (builder, path, data, length, error))
    return NULL;
  FsSnapshot *snapshot = fs_snapshot_builder_finish (g_steal_pointer (&builder), error);
  if (snapshot == NULL)
    return NULL;
  g_autoptr (FsSchedulerConfig) config = fs_scheduler_config_new (path, snapshot, snapshot_unref);
  const FsGenericObject *object = NULL;
  for (guint i = 0; i < snapshot->n_generic && object == NULL; i++)
    if (snapshot->generic[i].kind == FS_KIND_SCHEDULER_CONFIGURATION)
      object = &snapshot->generic[i];
  GError *local = NULL;
  if (object == NULL)
    g_set_error (&local, FS_ERROR, FS_ERROR_INVALID, "holds no KubeSchedulerConfiguration");
  else if (g_strcmp0 (object->api_version, API_VERSION) != 0)
    invalid (&local, "apiVersion", "\"%s\" is not supported (" API_VERSION ")",
             object->api_version != NULL ? object->api_version : "");
  else
    {
      /* SetDefaults_KubeSchedulerConfiguration: no profiles is one default-scheduler profile */
      const FsTree *profiles = list_at (object->object, "profiles");
      guint n = profiles != NULL && profiles->n > 0 ? profiles->n : 1;
      if (n > 64)
        g_set_error (&local, FS_ERROR, FS_ERROR_LIMIT, "profiles: more than 64");
      config->profiles = g_new0 (FsSchedulerProfile, n);
      config->n_profiles = n;
      if (profiles == NULL || profiles->n == 0)
        config->profiles[0].scheduler_name = FS_DEFAULT_SCHEDULER_NAME;
      for (guint i = 0; local == NULL && profiles != NULL && i < profiles->n; i++)
        if (read_profile (profiles->values[i], i, config, &config->profiles[i], &local))
          for (guint j = 0; j < i && local == NULL; j++)
            if (strcmp (config->profiles[j].scheduler_name, config->profiles[i].scheduler_name) == 0)
              {
                g_autofree char *field = g_strdup_printf ("profiles[%u].schedulerName", i);
                invalid (&local, field, "\"%s\": duplicate profile with scheduler name",
                         config->profiles[i].scheduler_name);
              }
    }
  if (local != NULL)
    {
      g_propagate_prefixed_error (error, local, "%s: ", path);
      return NULL;
    }
  return g_steal_pointer (&config);
}
