/* fitscale — the scheduler configuration's profiles (include/fitscale/model/schedconfig.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/schedconfig.h"

FsSchedulerConfig *
fs_scheduler_config_new (const char *source, gpointer document, GDestroyNotify document_free)
{
  FsSchedulerConfig *config = g_new0 (FsSchedulerConfig, 1);
  config->ref_count = 1;
  config->source = g_strdup (source);
  config->document = document;
  config->document_free = document_free;
  config->owned = g_ptr_array_new_with_free_func (g_free);
  return config;
}

FsSchedulerConfig *
fs_scheduler_config_ref (FsSchedulerConfig *config)
{
  if (config != NULL)
    g_atomic_int_inc (&config->ref_count);
  return config;
}

void
fs_scheduler_config_unref (FsSchedulerConfig *config)
{
  if (config == NULL || !g_atomic_int_dec_and_test (&config->ref_count))
    return;
  g_free (config->profiles);
  g_ptr_array_unref (config->owned);
  if (config->document_free != NULL)
    config->document_free (config->document);
  g_free (config->source);
  g_free (config);
}

/* The filter plugins of the default profile (pkg/scheduler/apis/config/v1/default_plugins.go
 * getDefaultPlugins, the ones with a Filter extension) that fitscale models, by name. */
static const struct {
  const char *name;
  FsFilter filter;
} filter_plugins[] = {
  { "NodeUnschedulable", FS_FILTER_NODE_UNSCHEDULABLE },
  { "NodeName", FS_FILTER_NODE_NAME },
  { "TaintToleration", FS_FILTER_TAINT_TOLERATION },
  { "NodeAffinity", FS_FILTER_NODE_AFFINITY },
  { "NodePorts", FS_FILTER_NODE_PORTS },
  { "NodeResourcesFit", FS_FILTER_NODE_RESOURCES_FIT },
  { "VolumeRestrictions", FS_FILTER_VOLUME_RESTRICTIONS },
  { "NodeVolumeLimits", FS_FILTER_NODE_VOLUME_LIMITS },
  { "VolumeBinding", FS_FILTER_VOLUME_BINDING },
  { "VolumeZone", FS_FILTER_VOLUME_ZONE },
  { "PodTopologySpread", FS_FILTER_POD_TOPOLOGY_SPREAD },
  { "InterPodAffinity", FS_FILTER_INTER_POD_AFFINITY },
};

gboolean
fs_scheduler_filter_plugin (const char *name, FsFilter *filter)
{
  for (gsize i = 0; name != NULL && i < G_N_ELEMENTS (filter_plugins); i++)
    if (strcmp (name, filter_plugins[i].name) == 0)
      {
        *filter = filter_plugins[i].filter;
        return TRUE;
      }
  return FALSE;
}

const char *
fs_scheduler_filter_name (FsFilter filter)
{
  for (gsize i = 0; i < G_N_ELEMENTS (filter_plugins); i++)
    if (filter_plugins[i].filter == filter)
      return filter_plugins[i].name;
  return "";
}

/* pkg/scheduler/scheduler.go frameworkForPod: profiles are keyed by schedulerName; a pod
 * without one is v1.DefaultSchedulerName's (API defaulting). */
const FsSchedulerProfile *
fs_scheduler_profile_for (const FsSchedulerConfig *config, const char *scheduler_name)
{
  if (config == NULL)
    return NULL;
  const char *name = scheduler_name != NULL && scheduler_name[0] != '\0' ? scheduler_name
                                                                          : FS_DEFAULT_SCHEDULER_NAME;
  for (guint i = 0; i < config->n_profiles; i++)
    if (g_strcmp0 (config->profiles[i].scheduler_name, name) == 0)
      return &config->profiles[i];
  return NULL;
}

gboolean
fs_scheduler_knows (const FsSchedulerConfig *config, const char *scheduler_name)
{
  return config == NULL || fs_scheduler_profile_for (config, scheduler_name) != NULL;
}

static const char *
scheduler_of (const FsPodSpec *spec)
{
  return spec != NULL && spec->placement != NULL ? spec->placement->scheduler_name : NULL;
}

const FsSchedulerProfile *
fs_snapshot_profile (const FsSnapshot *snapshot, const FsPodSpec *spec)
{
  return fs_scheduler_profile_for (snapshot->scheduler_config, scheduler_of (spec));
}

gboolean
fs_snapshot_knows_scheduler (const FsSnapshot *snapshot, const FsPodSpec *spec)
{
  return fs_scheduler_knows (snapshot->scheduler_config, scheduler_of (spec));
}

gboolean
fs_scheduler_profile_runs (const FsSchedulerProfile *profile, FsFilter filter)
{
  return profile == NULL || filter >= 32 || (profile->disabled_filters & (1u << filter)) == 0;
}

/* v1helper.IsExtendedResourceName: a name with a domain that is not kubernetes.io's
 * (IsNativeResource: no '/' or a "kubernetes.io/" in it) and not a quota's "requests."
 * name. */
static gboolean
is_extended_resource (const char *name)
{
  return strchr (name, '/') != NULL && strstr (name, "kubernetes.io/") == NULL
         && !g_str_has_prefix (name, "requests.");
}

/* noderesources/fit.go fitsRequest: "If this resource is one of the extended resources that
 * should be ignored, we will skip checking it": by its whole name (ignoredResources) or by
 * the part before the '/' (ignoredResourceGroups), extended resources only. */
gboolean
fs_scheduler_profile_ignores (const FsSchedulerProfile *profile, const char *name)
{
  if (profile == NULL || name == NULL || !is_extended_resource (name))
    return FALSE;
  for (guint i = 0; i < profile->n_ignored_resources; i++)
    if (strcmp (profile->ignored_resources[i], name) == 0)
      return TRUE;
  const char *slash = strchr (name, '/');
  gsize prefix = (gsize) (slash - name);
  for (guint i = 0; i < profile->n_ignored_groups; i++)
    if (strlen (profile->ignored_groups[i]) == prefix
        && strncmp (profile->ignored_groups[i], name, prefix) == 0)
      return TRUE;
  return FALSE;
}

FsSpreadList *
fs_scheduler_default_spread (const FsSchedulerProfile *profile, const FsPlacement *placement,
                             const FsLabelSelector *selector)
{
  if (profile == NULL || profile->spread_defaulting != FS_SPREAD_DEFAULTING_LIST
      || profile->default_constraints == NULL || selector == NULL
      || (placement != NULL && placement->spread != NULL))
    return NULL;
  const FsSpreadList *defaults = profile->default_constraints;
  gsize size = sizeof (FsSpreadList) + defaults->n * sizeof (FsSpreadConstraint);
  FsSpreadList *spread = g_malloc0 (size);
  memcpy (spread, defaults, size);
  for (guint i = 0; i < spread->n; i++)
    spread->items[i].label_selector = selector;
  return spread;
}
