/* fitscale — reading a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1, JSON or
 * YAML, as kube-scheduler's --config reads it) into model/schedconfig.h's profiles.  The file
 * is read whole, at most FS_SCHED_CONFIG_MAX_BYTES, through the snapshot decoders; what the
 * model does not read (score plugins, scoringStrategy, InterPodAffinityArgs, leader election,
 * client connection, extenders) is checked for its shape only by those decoders.  A field
 * kube-scheduler's validation would refuse is an error naming it. */
#pragma once

#include <glib.h>

#include "fitscale/model/schedconfig.h"

G_BEGIN_DECLS

#define FS_SCHED_CONFIG_MAX_BYTES (1u << 20)

/* The configuration in PATH; NULL and an error naming PATH and the field when it is not one
 * kube-scheduler would accept. */
FsSchedulerConfig *fs_scheduler_config_load (const char *path, GError **error);

G_END_DECLS
