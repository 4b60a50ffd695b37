/* fitscale — resource vectors and a pod's effective request.
 *
 * FsResources is a plain value type (copy it with `=`): cpu in millicores, memory and
 * ephemeral-storage in bytes, pods as a count, and up to FS_RES_MAX_EXTENDED scalar resources
 * (hugepages-*, attachable-volumes-*, nvidia.com/gpu, ...) kept sorted by name.  Extended names
 * are borrowed pointers: the caller keeps them alive (the snapshot interns them).  Arithmetic
 * saturates at the int64 bounds instead of wrapping.  Nothing here allocates. */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

#define FS_RES_MAX_EXTENDED 16

typedef enum {
  FS_RES_CPU = 1 << 0,
  FS_RES_MEMORY = 1 << 1,
  FS_RES_EPHEMERAL = 1 << 2,
  FS_RES_PODS = 1 << 3,
} FsResourceBit;

typedef struct {
  const char *name; /* borrowed */
  int64_t value;
} FsExtendedAmount;

typedef struct {
  int64_t cpu_milli;
  int64_t memory_bytes;
  int64_t ephemeral_bytes;
  int64_t pods;
  guint8 present;      /* FsResourceBit: which of the four were given (a 0 can be given) */
  guint8 n_extended;
  FsExtendedAmount extended[FS_RES_MAX_EXTENDED]; /* sorted by strcmp(name) */
} FsResources;

typedef enum {
  FS_RES_KIND_CPU,
  FS_RES_KIND_MEMORY,
  FS_RES_KIND_EPHEMERAL,
  FS_RES_KIND_PODS,
  FS_RES_KIND_SCALAR,  /* checked by the scheduler: extended, hugepages-*, attachable-volumes-*, */
                       /* and names in the kubernetes.io domain */
  FS_RES_KIND_IGNORED, /* an unprefixed name the scheduler never checks ("storage") */
} FsResourceKind;

/* Which kind NAME is (v1helper.IsScalarResourceName and friends,
 * pkg/apis/core/v1/helper/helpers.go). */
FsResourceKind fs_resource_kind (const char *name);

/* Whether AMOUNT (read from TEXT) is one the API server accepts in a resource list (requests,
 * limits, overhead, a node's capacity and allocatable): pkg/apis/core/validation/validation.go
 * ValidateResourceQuantityValue -> ValidateNonnegativeQuantity.  FALSE with FS_ERROR_INVALID
 * ("Invalid value: \"TEXT\": must be greater than or equal to 0"; the caller names the field). */
gboolean fs_resource_amount_valid (int64_t amount, const char *text, gsize text_len, GError **error);
/* Sets NAME (whose kind is not IGNORED) to VALUE; FALSE with FS_ERROR_LIMIT when a new
 * extended name would exceed FS_RES_MAX_EXTENDED. */
gboolean fs_resources_set (FsResources *res, const char *name, int64_t value, GError **error);
/* The amount of NAME, 0 when absent. */
int64_t fs_resources_get (const FsResources *res, const char *name);

/* A + B and A - B, saturated at the int64 bounds instead of wrapping: every resource sum
 * goes through these (or the FsResources functions below, which use them). */
int64_t fs_saturating_add (int64_t a, int64_t b);
int64_t fs_saturating_sub (int64_t a, int64_t b);
/* A x B, saturated the same way (milli-units of a large amount). */
int64_t fs_saturating_mul (int64_t a, int64_t b);
/* ceil(AMOUNT / DIVISOR), DIVISOR > 0, without the overflow of (AMOUNT + DIVISOR - 1) / DIVISOR. */
int64_t fs_div_ceil (int64_t amount, int64_t divisor);
/* AMOUNT rounded up to a multiple of UNIT (> 0); past the int64 range, the last multiple in it. */
int64_t fs_round_up (int64_t amount, int64_t unit);

/* a += b, per resource, saturating.  FALSE (FS_ERROR_LIMIT) on too many extended names. */
gboolean fs_resources_add (FsResources *a, const FsResources *b, GError **error);
/* a -= b, per resource, saturating; names only in b are added as negatives. */
gboolean fs_resources_sub (FsResources *a, const FsResources *b, GError **error);
/* a = max(a, b), per resource. */
gboolean fs_resources_max (FsResources *a, const FsResources *b, GError **error);
/* Every negative amount of RES raised to 0: what a node has free is never less than nothing
 * (a node whose bound pods ask more than its allocatable, as kubelet-admitted or nodeName-bound
 * pods can, has no room, and takes none from the others when free room is summed). */
void fs_resources_floor_zero (FsResources *res);
gboolean fs_resources_equal (const FsResources *a, const FsResources *b);
/* TRUE when every amount REQUEST asks for (> 0) is <= FREE's amount (absent = 0). */
gboolean fs_resources_fits (const FsResources *request, const FsResources *free_res);
gboolean fs_resources_is_zero (const FsResources *res);

/* One container as the effective-request rule needs it. */
typedef struct {
  const char *name;       /* borrowed */
  FsResources requests;
  FsResources limits;
  gboolean restartable;   /* init container with restartPolicy: Always (a native sidecar) */
  guint32 resize_restart; /* FsResourceBit: resources whose resizePolicy is RestartContainer
                           * (an in-place resize of them restarts the container) */
} FsContainer;

/* The pod's effective request for fit, exactly as kube-scheduler computes it
 * (k8s.io/component-helpers/resource/helpers.go PodRequests, AggregateContainerRequests):
 * sum of app containers; init containers in order with restartable ones added to a running
 * total; the max of that and each init container's peak; POD_LEVEL (may be NULL) replacing
 * cpu/memory/hugepages-* where present; OVERHEAD (may be NULL) added last.  The pods field of
 * the result is 0 (a container's "pods" request is ignored).  Requests only. */
gboolean fs_pod_effective_request (const FsContainer *containers, guint n_containers,
                                   const FsContainer *init_containers, guint n_init,
                                   const FsResources *pod_level, const FsResources *overhead,
                                   FsResources *out, GError **error);

/* Copies each limit into the request where the request is absent, as
 * pkg/apis/core/v1/defaults.go SetDefaults_Pod does when the API server stores a Pod: the
 * reader does it for templates, which it never defaults, and for Pods written by hand (a Pod
 * read from the API server has its requests already, and is unchanged). */
gboolean fs_container_default_requests (FsContainer *container, GError **error);

/* The canonical quantity text of one amount of resource NAME (cpu in millicores prints as
 * DecimalSI, memory/storage/hugepages as BinarySI, counts as plain numbers). */
char *fs_format_amount (const char *name, int64_t amount, char buf[32]);
/* One amount of resource NAME for people: the one formatter of every table and sentence
 * (JSON and patches keep fs_format_amount's exact quantity).  Units as kubectl prints them:
 * cpu "250m", "2", and past 10 cores in cores ("3940.75"); memory, storage and hugepages
 * "0", "512" (bytes), "16Gi", "2000Mi" when exact in a unit in four digits, else rounded:
 * under 10Gi to a whole Mi ("5223Mi", as kubectl top), else in the largest unit that holds it
 * ("15.5Gi": one decimal under 100Gi), and "95Mi", "900Ki";
 * counts (pods, GPUs) as plain numbers.  Writes into BUF and returns it. */
char *fs_format_for_people (const char *name, int64_t amount, char buf[32]);
/* AMOUNT of resource NAME as a quantity in the units of WRITTEN, an amount the user wrote
 * (a limit scaled with its request): memory written in Mi/Gi/... rounds to the nearest whole
 * Mi, in M/G/... to a whole M, in Ki or k to those, so a patch reads "5223Mi", not
 * "5476363000", and "4Gi", not "4294968000"; never below AT_LEAST (the request: then it
 * rounds up), saturating.  cpu and counts are exact already and print as fs_format_amount
 * does.  Writes into BUF and returns it. */
char *fs_format_like (const char *name, int64_t amount, int64_t written, int64_t at_least, char buf[32]);
/* AMOUNT of resource NAME rounded up to the unit of WRITTEN (an amount the user wrote), as
 * fs_format_like picks it (memory in Mi/Gi/... to a whole Mi, in M/G/... to a whole M, in Ki
 * or k to those); cpu, counts and amounts <= 0 unchanged; never less than AMOUNT. */
int64_t fs_round_up_like (const char *name, int64_t amount, int64_t written);
/* AMOUNT of resource NAME as an exact quantity in its most readable unit: bytes in binary
 * ("5348011Ki") or decimal ("5476363k") units, whichever is shorter, never "5476363000" when
 * a unit divides them; the rest as fs_format_amount.  For patches (machines read them exactly,
 * people too).  Writes into BUF and returns it. */
char *fs_format_exact (const char *name, int64_t amount, char buf[32]);

G_END_DECLS
