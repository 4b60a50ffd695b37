/* fitscale — where a DaemonSet runs: the daemon controller's rule for whether a node should
 * run a daemon pod, read from a pod the DaemonSet made (the snapshot keeps pods, whose specs
 * are the DaemonSet's template plus the controller's per-node additions).  Pure; no I/O. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* Whether NODE should run a pod of the DaemonSet that made DAEMON_POD (a pod whose controller
 * is that DaemonSet), as pkg/controller/daemon/daemon_controller.go NodeShouldRunDaemonPod
 * decides its first result (shouldRun). */
gboolean fs_daemon_should_run (const FsNode *node, const FsPod *daemon_pod);
/* The node DAEMON_POD is for: its spec.nodeName, else (Pending, not yet scheduled) the node its
 * required node affinity pins it to (matchFields metadata.name In [NODE]); NULL if neither. */
const char *fs_daemon_pod_node (const FsPod *daemon_pod);

G_END_DECLS
