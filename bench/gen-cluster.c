/* gen-cluster: a synthetic but plausible Kubernetes cluster, as `kubectl get -o json` prints it.
 *
 *   gcc -std=c11 -O2 -Wall -Wextra -Werror bench/gen-cluster.c \
 *       $(pkg-config --cflags --libs glib-2.0) -o gen-cluster
 *   ./gen-cluster --nodes 5000 --pods 150000 --seed 1 \
 *       --out-nodes /tmp/bench/nodes.json --out-pods /tmp/bench/pods.json
 *
 * Writes a NodeList and a PodList: every item carries kind and apiVersion as kubectl prints
 * them and every object's keys are sorted.  By default the text is compact, as the API
 * server sends a LIST (about 6.9 KB per pod with managedFields); --indent 4 gives kubectl's
 * layout byte for byte (about 3x larger), --no-managed-fields drops managedFields as
 * kubectl get does by default.  The same seed and options give the same bytes.  See
 * bench/README.md for the shape of the output.
 *
 * How the cluster is built, in two passes:
 *   1. plan: nodes of six shapes in node groups over three zones, a few cordoned or
 *      NotReady; DaemonSet pods on every node; then Deployments, StatefulSets and Jobs in
 *      team namespaces until --pods is reached.  Every Running pod is bound to a node that
 *      can hold it: taints tolerated, nodeSelector / required node affinity matched, and
 *      cpu, memory, ephemeral-storage, nvidia.com/gpu and the pod count within allocatable
 *      (the effective request counts native sidecars and init containers the way the
 *      scheduler does).  A pod that fits nowhere stays Pending, and its PodScheduled
 *      condition carries the message the scheduler would write for the final cluster.
 *      About 2% of pods are Pending (asking for more than any node has, for a node group
 *      that does not exist, for 2 GPUs, or overflowing a small pinned node group, as the
 *      rag-api example does); about 1% are Succeeded Job pods.
 *   2. write: nodes, then pods sorted by namespace and name as the API server lists them.
 *      Every pod's text comes from its own seeded generator, so the order of writing does
 *      not change the output.
 *
 * Only libc and glib (option parsing).  Output goes through one large buffer; the plan is
 * a few flat arrays allocated once.
 */
#define _POSIX_C_SOURCE 200809L
#include <glib.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ random numbers */

typedef struct { uint64_t s[4]; } Rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rng_seed(Rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed * 0x2545f4914f6cdd1dULL ^ (stream + 0x632be59bd9b4e019ULL);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(Rng *r) /* xoshiro256** */
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return result;
}

static inline uint32_t rng_below(Rng *r, uint32_t n) { return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32); }
static inline int rng_range(Rng *r, int lo, int hi) { return lo + (int)rng_below(r, (uint32_t)(hi - lo + 1)); }
static inline bool rng_pct(Rng *r, double pct) { return (double)(rng_next(r) >> 11) * 0x1.0p-53 * 100.0 < pct; }

static int rng_weighted(Rng *r, const int *weights, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++)
        total += weights[i];
    int x = (int)rng_below(r, (uint32_t)total);
    for (int i = 0; i < n; i++) {
        if (x < weights[i])
            return i;
        x -= weights[i];
    }
    return n - 1;
}

static const char HEX[] = "0123456789abcdef";
static const char ALNUM[] = "bcdfghjklmnpqrstvwxz2456789"; /* k8s rand.SafeEncodeString alphabet */

static void rng_hex(Rng *r, char *out, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) {
        if ((i & 15) == 0)
            v = rng_next(r);
        out[i] = HEX[v & 15];
        v >>= 4;
    }
    out[n] = 0;
}

static void rng_alnum(Rng *r, char *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = ALNUM[rng_below(r, 27)];
    out[n] = 0;
}

static void rng_uuid(Rng *r, char out[37])
{
    char h[33];
    rng_hex(r, h, 32);
    h[12] = '4';
    h[16] = "89ab"[rng_below(r, 4)];
    snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", h, h + 8, h + 12, h + 16, h + 20);
}

/* ------------------------------------------------------------------ time */

static const int64_t NOW = 1791554400; /* 2026-10-09T14:00:00Z */

static void fmt_time(char out[21], int64_t t) /* RFC 3339, UTC, days-from-civil inverse */
{
    int64_t days = t / 86400, secs = t % 86400;
    int64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
    int v[6] = {(int)y, (int)m, (int)d, (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60)};
    char *p = out;
    p[0] = (char)('0' + v[0] / 1000); p[1] = (char)('0' + v[0] / 100 % 10);
    p[2] = (char)('0' + v[0] / 10 % 10); p[3] = (char)('0' + v[0] % 10);
    p += 4;
    for (int i = 1; i < 6; i++) {
        *p++ = "--T::"[i - 1];
        *p++ = (char)('0' + v[i] / 10);
        *p++ = (char)('0' + v[i] % 10);
    }
    *p++ = 'Z';
    *p = 0;
}

/* ------------------------------------------------------------------ JSON writer
 * Go's json.MarshalIndent layout: "key": value, one per line, {} and [] when empty.
 * Keys are written in sorted order by the callers, as kubectl prints unstructured objects. */

#define OUT_CAP (8u << 20)
#define MAX_DEPTH 64

typedef struct {
    FILE *f;
    const char *path;
    char *buf;
    size_t len;
    int depth, indent;
    bool first[MAX_DEPTH];
    bool failed;
    uint64_t total;
} Out;

static void out_flush(Out *o)
{
    if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len)
        o->failed = true;
    o->total += o->len;
    o->len = 0;
}

static inline void out_raw(Out *o, const char *s, size_t n)
{
    if (o->len + n > OUT_CAP) {
        out_flush(o);
        if (n > OUT_CAP) { /* never happens with our strings, but stay correct */
            if (!o->failed && fwrite(s, 1, n, o->f) != n)
                o->failed = true;
            o->total += n;
            return;
        }
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static inline void out_c(Out *o, char c)
{
    if (o->len + 1 > OUT_CAP)
        out_flush(o);
    o->buf[o->len++] = c;
}

static inline void out_s(Out *o, const char *s) { out_raw(o, s, strlen(s)); }

static const char SPACES[] = "                                                                "
                             "                                                                "
                             "                                                                "
                             "                                                                ";

static inline void out_nl(Out *o)
{
    if (!o->indent)
        return;
    out_c(o, '\n');
    size_t n = (size_t)o->depth * (size_t)o->indent;
    while (n) {
        size_t k = n < sizeof SPACES - 1 ? n : sizeof SPACES - 1;
        out_raw(o, SPACES, k);
        n -= k;
    }
}

static void out_escaped(Out *o, const char *s)
{
    out_c(o, '"');
    const char *start = s;
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') {
            out_raw(o, start, (size_t)(s - start));
            out_c(o, '\\');
            start = s;
        }
    }
    out_raw(o, start, (size_t)(s - start));
    out_c(o, '"');
}

static inline void out_sep(Out *o)
{
    if (o->depth == 0)
        return;
    if (!o->first[o->depth])
        out_c(o, ',');
    o->first[o->depth] = false;
    out_nl(o);
}

static inline void out_key(Out *o, const char *key)
{
    out_sep(o);
    if (key) {
        out_escaped(o, key);
        if (o->indent)
            out_raw(o, ": ", 2);
        else
            out_c(o, ':');
    }
}

static void ob(Out *o, const char *key)
{
    out_key(o, key);
    out_c(o, '{');
    o->depth++;
    g_assert(o->depth < MAX_DEPTH);
    o->first[o->depth] = true;
}

static void oe(Out *o)
{
    bool empty = o->first[o->depth];
    o->depth--;
    if (!empty)
        out_nl(o);
    out_c(o, '}');
}

static void ab(Out *o, const char *key)
{
    out_key(o, key);
    out_c(o, '[');
    o->depth++;
    g_assert(o->depth < MAX_DEPTH);
    o->first[o->depth] = true;
}

static void ae(Out *o)
{
    bool empty = o->first[o->depth];
    o->depth--;
    if (!empty)
        out_nl(o);
    out_c(o, ']');
}

static void os(Out *o, const char *key, const char *v)
{
    out_key(o, key);
    out_escaped(o, v);
}

static void osf(Out *o, const char *key, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void osf(Out *o, const char *key, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    os(o, key, buf);
}

static void oi(Out *o, const char *key, int64_t v)
{
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%" PRId64, v);
    out_key(o, key);
    out_raw(o, buf, (size_t)n);
}

static void obool(Out *o, const char *key, bool v)
{
    out_key(o, key);
    out_s(o, v ? "true" : "false");
}

static void onull(Out *o, const char *key)
{
    out_key(o, key);
    out_s(o, "null");
}

static void oempty(Out *o, const char *key) { ob(o, key); oe(o); }

static void ots(Out *o, const char *key, int64_t t)
{
    char b[21];
    fmt_time(b, t);
    os(o, key, b);
}

/* fieldsV1 helpers: "f:name": {} */
static void ff(Out *o, const char *name)
{
    char k[160];
    snprintf(k, sizeof k, "f:%s", name);
    oempty(o, k);
}

static void fo(Out *o, const char *name) /* open "f:name": { ".": {} */
{
    char k[160];
    snprintf(k, sizeof k, "f:%s", name);
    ob(o, k);
    oempty(o, ".");
}

static void fo_nodot(Out *o, const char *name)
{
    char k[160];
    snprintf(k, sizeof k, "f:%s", name);
    ob(o, k);
}

static void ko(Out *o, const char *field, const char *value) /* open "k:{\"field\":\"value\"}": { ".": {} */
{
    char k[200];
    snprintf(k, sizeof k, "k:{\"%s\":\"%s\"}", field, value);
    ob(o, k);
    oempty(o, ".");
}

/* ------------------------------------------------------------------ quantities */

typedef struct { const char *s, *twice; int64_t v; int w; } Qty; /* v: millicores or bytes */

#define KI INT64_C(1024)
#define MI (KI * 1024)
#define GI (MI * 1024)

static const Qty CPU[] = {
    {"10m", "20m", 10, 4},     {"50m", "100m", 50, 14},    {"100m", "200m", 100, 25},
    {"200m", "400m", 200, 15}, {"250m", "500m", 250, 20},  {"500m", "1", 500, 9},
    {"0.5", "1", 500, 2},      {"1", "2", 1000, 5},        {"1500m", "3", 1500, 2},
    {"2", "4", 2000, 1},
};
static const Qty MEM[] = {
    {"64Mi", "128Mi", 64 * MI, 10},      {"128Mi", "256Mi", 128 * MI, 20},
    {"256Mi", "512Mi", 256 * MI, 25},    {"512Mi", "1Gi", 512 * MI, 15},
    {"1Gi", "2Gi", GI, 11},              {"1073741824", "2147483648", GI, 3},
    {"2Gi", "4Gi", 2 * GI, 6},           {"1.5Gi", "3Gi", 3 * GI / 2, 2},
    {"500M", "1G", 500000000, 3},        {"4Gi", "8Gi", 4 * GI, 2},
    {"6Gi", "12Gi", 6 * GI, 1},          {"8Gi", "16Gi", 8 * GI, 1},
};
#define NCPU ((int)G_N_ELEMENTS(CPU))
#define NMEM ((int)G_N_ELEMENTS(MEM))

/* ------------------------------------------------------------------ nodes */

typedef struct {
    const char *type, *ng;
    int vcpu, pods, gpu, weight;
    int64_t cpu_alloc;               /* millicores */
    int64_t mem_cap_ki, mem_alloc_ki;
    const char *hp2m;                /* hugepages-2Mi */
    int64_t hp2m_bytes;
} Shape;

/* EKS reservations: cpu 6%/1%/0.5%/0.5%/0.25%.. of cores, memory 255Mi + 11Mi x max pods
 * + 100Mi eviction threshold (minus pre-allocated huge pages). */
static const Shape SHAPES[] = {
    {"m5.large", "general-small", 2, 29, 0, 15, 1930, 7941216, 7251040, "0", 0},
    {"m5.2xlarge", "general", 8, 58, 0, 40, 7910, 32408980, 31392148, "0", 0},
    {"c5.4xlarge", "compute", 16, 110, 0, 20, 15890, 32391032, 30788472, "0", 0},
    {"r5.8xlarge", "memory", 32, 110, 0, 15, 31850, 259970736, 256271280, "2Gi", 2 * GI},
    {"g4dn.xlarge", "gpu", 4, 29, 1, 10, 3920, 15896988, 15206812, "0", 0},
    {"m5.xlarge", "pinned", 4, 58, 0, 0, 3920, 16221184, 15204352, "0", 0}, /* pinned groups only */
};
enum { SHAPE_PINNED = 5, SHAPE_GPU = 4 };

static const char *ZONES[] = {"us-east-1a", "us-east-1b", "us-east-1c"};
static const char *ZONE_IDS[] = {"use1-az4", "use1-az6", "use1-az1"};

typedef struct {
    char name[48];
    char ip[20];
    uint8_t shape, zone, pinned_group; /* pinned_group: 0 none, else k */
    bool cordoned, notready;
    int64_t created;
    int64_t alloc_cpu, alloc_mem, alloc_eph;
    int alloc_pods, alloc_gpu;
    int64_t used_cpu, used_mem, used_eph;
    int used_pods, used_gpu;
    uint32_t idx; /* position before sorting: its text stream */
} Node;

static const int64_t EPH_ALLOC = 76224326324LL;

/* ------------------------------------------------------------------ workloads and pods */

enum { K_DEPLOY, K_STS, K_JOB, K_DS_PROXY, K_DS_CNI };
enum { SEL_NONE, SEL_NG, SEL_ZONE_AFFINITY, SEL_GPU, SEL_MISSING_NG, SEL_PINNED };
enum { PEND_NONE, PEND_HUGE_MEM, PEND_HUGE_CPU, PEND_TWO_GPU, PEND_MISSING_NG };

typedef struct {
    uint32_t ns;          /* namespace index; 0 = kube-system */
    uint32_t app;
    uint8_t kind, sel, sel_arg, pend, nctr, sidecar, init, qos_mode;
    uint8_t cpu[2], mem[2], cpu_lim_mode, mem_lim_mode, eph;
    int replicas;
    int64_t created;
    char hash[11];
    /* effective request of one pod */
    int64_t req_cpu, req_mem, req_eph;
    int req_gpu;
} Workload;

typedef struct {
    char name[64];
    uint32_t ns, wl, ordinal, ns_rank;
    int32_t node; /* -1: Pending */
    uint8_t phase;
    uint32_t stream;
} Pod;

enum { PH_RUNNING, PH_PENDING, PH_SUCCEEDED };

typedef struct {
    int nnodes, npods;
    uint64_t seed;
    int indent;
    bool managed_fields;
    Node *nodes;
    Workload *wl;
    int nwl, capwl;
    Pod *pods;
    int npod;
    int nns;
    char (*ns_names)[24];
    uint32_t *ns_rank;
    int **ng_nodes; /* per shape: node indices */
    int *ng_count;
    int npinned;
    int *pinned_nodes; /* 2 per pinned group */
} Cluster;

static const char *ns_name(const Cluster *c, uint32_t ns) { return c->ns_names[ns]; }

/* Effective pod request: max(sum(app containers) + sum(sidecars),
 * max over ordinary init containers of (init + sidecars started before it)).
 * Sidecar (restartPolicy Always) comes first in initContainers, then the ordinary init. */
static const int64_t SIDECAR_CPU = 50, SIDECAR_MEM = 64 * MI, INIT_CPU = 10, INIT_MEM = 16 * MI;

static void workload_requests(Workload *w)
{
    int64_t cpu = 0, mem = 0;
    if (w->qos_mode != 2) {
        for (int i = 0; i < w->nctr; i++) {
            cpu += CPU[w->cpu[i]].v;
            mem += MEM[w->mem[i]].v;
        }
    }
    int64_t sc_cpu = w->sidecar ? SIDECAR_CPU : 0, sc_mem = w->sidecar ? SIDECAR_MEM : 0;
    cpu += sc_cpu;
    mem += sc_mem;
    if (w->init) {
        if (INIT_CPU + sc_cpu > cpu) cpu = INIT_CPU + sc_cpu;
        if (INIT_MEM + sc_mem > mem) mem = INIT_MEM + sc_mem;
    }
    w->req_cpu = cpu;
    w->req_mem = mem;
    w->req_eph = w->eph ? (int64_t)w->eph * GI : 0;
    w->req_gpu = w->sel == SEL_GPU ? 1 : 0;
    switch (w->pend) {
    case PEND_HUGE_MEM: w->req_mem = 384 * GI; break;
    case PEND_HUGE_CPU: w->req_cpu = 48000; break;
    case PEND_TWO_GPU: w->req_gpu = 2; break;
    default: break;
    }
}

/* ------------------------------------------------------------------ fit checks */

typedef enum {
    FIT_OK = 0,
    FIT_UNSCHEDULABLE = 1 << 0,
    FIT_TAINT_GPU = 1 << 1,
    FIT_TAINT_UNREACHABLE = 1 << 2,
    FIT_AFFINITY = 1 << 3,
    FIT_CPU = 1 << 4,
    FIT_MEM = 1 << 5,
    FIT_GPU = 1 << 6,
    FIT_PODS = 1 << 7,
    FIT_EPH = 1 << 8,
} Fail;

static bool tolerates_gpu(const Workload *w) { return w->sel == SEL_GPU || w->pend == PEND_TWO_GPU; }

/* scheduler filter order: NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit;
 * the first failing plugin decides, NodeResourcesFit reports all its reasons. */
static unsigned node_filter(const Cluster *c, const Node *n, const Workload *w, bool for_new_pod)
{
    if (for_new_pod && n->cordoned)
        return FIT_UNSCHEDULABLE;
    /* TaintToleration reports the first untolerated taint in the node's list, and the
     * node lists dedicated=gpu before node.kubernetes.io/unreachable */
    if (n->shape == SHAPE_GPU && !tolerates_gpu(w))
        return FIT_TAINT_GPU;
    if (n->notready && for_new_pod)
        return FIT_TAINT_UNREACHABLE;
    switch (w->sel) {
    case SEL_NG: if (n->shape != w->sel_arg) return FIT_AFFINITY; break;
    case SEL_ZONE_AFFINITY: if (n->zone == w->sel_arg) return FIT_AFFINITY; break; /* "not in zone X" */
    case SEL_GPU: if (n->shape != SHAPE_GPU) return FIT_AFFINITY; break;
    case SEL_MISSING_NG: return FIT_AFFINITY;
    case SEL_PINNED: if (n->pinned_group != w->sel_arg) return FIT_AFFINITY; break;
    default: break;
    }
    (void)c;
    unsigned f = 0;
    if (n->used_pods + 1 > n->alloc_pods) f |= FIT_PODS;
    if (n->used_cpu + w->req_cpu > n->alloc_cpu) f |= FIT_CPU;
    if (n->used_mem + w->req_mem > n->alloc_mem) f |= FIT_MEM;
    if (n->used_eph + w->req_eph > n->alloc_eph) f |= FIT_EPH;
    if (n->used_gpu + w->req_gpu > n->alloc_gpu) f |= FIT_GPU;
    return f;
}

static void node_take(Node *n, const Workload *w)
{
    n->used_pods++;
    n->used_cpu += w->req_cpu;
    n->used_mem += w->req_mem;
    n->used_eph += w->req_eph;
    n->used_gpu += w->req_gpu;
}

static int place(Cluster *c, const Workload *w, Rng *r)
{
    const int *cand = NULL;
    int ncand = c->nnodes;
    if (w->sel == SEL_NG || w->sel == SEL_GPU) {
        int s = w->sel == SEL_GPU ? SHAPE_GPU : w->sel_arg;
        cand = c->ng_nodes[s];
        ncand = c->ng_count[s];
    } else if (w->sel == SEL_PINNED) {
        cand = c->pinned_nodes + 2 * (w->sel_arg - 1);
        ncand = 2;
    }
    if (ncand == 0)
        return -1;
    /* Existing pods may sit on nodes cordoned or lost since: allow them there (for_new_pod false). */
    for (int t = 0; t < 12; t++) {
        int i = (int)rng_below(r, (uint32_t)ncand);
        int ni = cand ? cand[i] : i;
        if (node_filter(c, &c->nodes[ni], w, false) == FIT_OK)
            return ni;
    }
    int start = (int)rng_below(r, (uint32_t)ncand);
    for (int k = 0; k < ncand; k++) {
        int i = (start + k) % ncand;
        int ni = cand ? cand[i] : i;
        if (node_filter(c, &c->nodes[ni], w, false) == FIT_OK)
            return ni;
    }
    return -1;
}

/* The scheduler's FitError message for the final cluster. */
static void unschedulable_message(const Cluster *c, const Workload *w, char *out, size_t outsz)
{
    int cnt[9] = {0};
    int not_helpful = 0, no_victims = 0;
    for (int i = 0; i < c->nnodes; i++) {
        unsigned f = node_filter(c, &c->nodes[i], w, true);
        if (f == FIT_OK) { /* cannot happen for a pod we left Pending; count as no victims */
            no_victims++;
            continue;
        }
        for (int b = 0; b < 9; b++)
            if (f & (1u << b))
                cnt[b]++;
        if (f & (FIT_UNSCHEDULABLE | FIT_TAINT_GPU | FIT_TAINT_UNREACHABLE | FIT_AFFINITY))
            not_helpful++;
        else
            no_victims++;
    }
    static const char *reason[9] = {
        "node(s) were unschedulable", "node(s) had untolerated taint {dedicated: gpu}",
        "node(s) had untolerated taint {node.kubernetes.io/unreachable: }",
        "node(s) didn't match Pod's node affinity/selector", "Insufficient cpu", "Insufficient memory",
        "Insufficient nvidia.com/gpu", "Too many pods", "Insufficient ephemeral-storage",
    };
    char items[9][96];
    int n = 0;
    for (int b = 0; b < 9; b++)
        if (cnt[b])
            snprintf(items[n++], sizeof items[0], "%d %s", cnt[b], reason[b]);
    /* sortReasonsHistogram: plain string sort of "count reason" */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(items[j - 1], items[j]) > 0; j--) {
            char t[96];
            memcpy(t, items[j], sizeof t);
            memcpy(items[j], items[j - 1], sizeof t);
            memcpy(items[j - 1], t, sizeof t);
        }
    size_t len = (size_t)snprintf(out, outsz, "0/%d nodes are available: ", c->nnodes);
    for (int i = 0; i < n && len < outsz; i++)
        len += (size_t)snprintf(out + len, outsz - len, "%s%s", i ? ", " : "", items[i]);
    char p1[96] = "", p2[96] = "";
    if (not_helpful)
        snprintf(p1, sizeof p1, "%d Preemption is not helpful for scheduling", not_helpful);
    if (no_victims)
        snprintf(p2, sizeof p2, "%d No preemption victims found for incoming pod", no_victims);
    const char *a = p1, *b = p2;
    if (*a && *b && strcmp(a, b) > 0) { const char *t = a; a = b; b = t; }
    if (len < outsz)
        snprintf(out + len, outsz - len, ". preemption: 0/%d nodes are available: %s%s%s.", c->nnodes,
                 *a ? a : b, (*a && *b) ? ", " : "", (*a && *b) ? b : "");
}

/* ------------------------------------------------------------------ planning */

static void add_workload(Cluster *c, const Workload *w)
{
    if (c->nwl == c->capwl) {
        c->capwl = c->capwl ? 2 * c->capwl : 1024;
        c->wl = g_renew(Workload, c->wl, c->capwl);
    }
    c->wl[c->nwl++] = *w;
}

static int cmp_node(const void *a, const void *b) { return strcmp(((const Node *)a)->name, ((const Node *)b)->name); }

static void plan_nodes(Cluster *c, Rng *r)
{
    c->nodes = g_new0(Node, c->nnodes);
    int weights[6];
    for (int i = 0; i < 6; i++)
        weights[i] = SHAPES[i].weight;
    /* one pinned group of 2 m5.xlarge per 500 nodes, like the rag-api example's node group */
    c->npinned = c->nnodes >= 20 ? (c->nnodes + 499) / 500 : 0;
    if (c->npinned > 64)
        c->npinned = 64;
    int pinned_left = 2 * c->npinned;
    for (int i = 0; i < c->nnodes; i++) {
        Node *n = &c->nodes[i];
        n->idx = (uint32_t)i;
        if (pinned_left > 0 && i % (c->nnodes / (2 * c->npinned)) == 0) {
            n->shape = SHAPE_PINNED;
            n->pinned_group = (uint8_t)(c->npinned - (pinned_left - 1) / 2);
            pinned_left--;
        } else {
            n->shape = (uint8_t)rng_weighted(r, weights, 6);
        }
        n->zone = (uint8_t)(i % 3);
        const Shape *s = &SHAPES[n->shape];
        n->alloc_cpu = s->cpu_alloc;
        n->alloc_mem = s->mem_alloc_ki * KI;
        n->alloc_eph = EPH_ALLOC;
        n->alloc_pods = s->pods;
        n->alloc_gpu = s->gpu;
        n->created = NOW - 86400 * (int64_t)rng_range(r, 1, 90) - rng_range(r, 0, 86399);
        n->cordoned = n->shape != SHAPE_PINNED && rng_pct(r, 0.2);
        n->notready = !n->cordoned && n->shape != SHAPE_PINNED && rng_pct(r, 0.1);
        unsigned a = 16u * n->zone + (unsigned)(i / 65024) % 16, b = (unsigned)(i / 254) % 256, d = (unsigned)(i % 254) + 1;
        snprintf(n->ip, sizeof n->ip, "10.%u.%u.%u", a % 256, b, d % 256);
        snprintf(n->name, sizeof n->name, "ip-10-%u-%u-%u.ec2.internal", a % 256, b, d % 256);
    }
    qsort(c->nodes, (size_t)c->nnodes, sizeof(Node), cmp_node);
    c->ng_nodes = g_new0(int *, 6);
    c->ng_count = g_new0(int, 6);
    for (int s = 0; s < 6; s++)
        c->ng_nodes[s] = g_new(int, c->nnodes);
    c->pinned_nodes = g_new0(int, 2 * (c->npinned + 1));
    int pinned_seen[65] = {0};
    for (int i = 0; i < c->nnodes; i++) {
        Node *n = &c->nodes[i];
        c->ng_nodes[n->shape][c->ng_count[n->shape]++] = i;
        if (n->pinned_group) {
            int g = n->pinned_group - 1;
            if (pinned_seen[g] < 2)
                c->pinned_nodes[2 * g + pinned_seen[g]++] = i;
        }
    }
}

static void gen_hash(Rng *r, char *out)
{
    int n = rng_range(r, 9, 10);
    for (int i = 0; i < n; i++)
        out[i] = ALNUM[rng_below(r, 27)];
    out[n] = 0;
}

typedef struct { const char *name; uint32_t idx; } NsSort;

static int cmp_ns(const void *a, const void *b) { return strcmp(((const NsSort *)a)->name, ((const NsSort *)b)->name); }

/* pod names are unique per namespace: a random suffix that is taken is drawn again,
 * as the API server's generateName retry does */
static guint pod_key_hash(gconstpointer p) { return g_str_hash(((const Pod *)p)->name) * 31u + ((const Pod *)p)->ns; }

static gboolean pod_key_equal(gconstpointer a, gconstpointer b)
{
    const Pod *x = a, *y = b;
    return x->ns == y->ns && strcmp(x->name, y->name) == 0;
}

static void name_pod(GHashTable *names, Rng *r, Pod *p, const char *prefix, bool random_suffix)
{
    for (;;) {
        if (random_suffix) {
            char sfx[6];
            rng_alnum(r, sfx, 5);
            snprintf(p->name, sizeof p->name, "%s%s", prefix, sfx);
        } else {
            snprintf(p->name, sizeof p->name, "%s", prefix);
        }
        if (!random_suffix)
            return;
        if (!g_hash_table_contains(names, p)) { /* (g_hash_table_add would replace the old key) */
            g_hash_table_add(names, p);
            return;
        }
    }
}

static void plan(Cluster *c)
{
    Rng r;
    rng_seed(&r, c->seed, 0);
    plan_nodes(c, &r);

    /* namespaces: kube-system, then team-N */
    c->nns = 1 + (c->npods / 1000 > 4 ? c->npods / 1000 : 4);
    c->ns_names = g_malloc0(sizeof(char[24]) * (size_t)c->nns);
    snprintf(c->ns_names[0], 24, "kube-system");
    for (int i = 1; i < c->nns; i++)
        snprintf(c->ns_names[i], 24, "team-%d", i - 1);
    {
        NsSort *order = g_new(NsSort, c->nns);
        for (int i = 0; i < c->nns; i++)
            order[i] = (NsSort){c->ns_names[i], (uint32_t)i};
        qsort(order, (size_t)c->nns, sizeof *order, cmp_ns);
        c->ns_rank = g_new(uint32_t, c->nns);
        for (int i = 0; i < c->nns; i++)
            c->ns_rank[order[i].idx] = (uint32_t)i;
        g_free(order);
    }

    c->pods = g_new0(Pod, c->npods);
    GHashTable *names = g_hash_table_new(pod_key_hash, pod_key_equal);
    int budget = c->npods;

    /* DaemonSets on every node when there is room for them in --pods */
    bool with_ds = c->npods >= 10 * c->nnodes;
    if (with_ds) {
        for (int k = K_DS_PROXY; k <= K_DS_CNI; k++) {
            Workload w = {0};
            w.ns = 0;
            w.kind = (uint8_t)k;
            w.nctr = k == K_DS_CNI ? 2 : 1;
            w.created = NOW - 200 * 86400;
            w.req_cpu = k == K_DS_CNI ? 50 : 100;
            snprintf(w.hash, sizeof w.hash, "%s", k == K_DS_CNI ? "6d5b9f8c74" : "5c7b8d9f6b");
            w.replicas = c->nnodes;
            add_workload(c, &w);
            for (int i = 0; i < c->nnodes; i++) {
                Pod *p = &c->pods[c->npod];
                p->wl = (uint32_t)(c->nwl - 1);
                p->ordinal = (uint32_t)i;
                p->node = i;
                p->phase = PH_RUNNING;
                p->stream = (uint32_t)c->npod;
                p->ns = 0;
                name_pod(names, &r, p, k == K_DS_CNI ? "aws-node-" : "kube-proxy-", true);
                node_take(&c->nodes[i], &c->wl[p->wl]);
                c->npod++;
            }
        }
        budget -= 2 * c->nnodes;
    }

    int64_t pend_target = (int64_t)c->npods * 2 / 100, pend_designated = 0;
    int64_t job_target = (int64_t)c->npods / 100, job_pods = 0;
    uint32_t *apps_in_ns = g_new0(uint32_t, c->nns);
    int pinned_done = 0;
    int64_t gpu_total = 0, gpu_planned = 0;
    for (int i = 0; i < c->nnodes; i++)
        gpu_total += c->nodes[i].alloc_gpu;
    static const int replica_w[] = {20, 25, 15, 12, 8, 6, 4, 3, 3, 2, 2};
    static const int replica_v[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 20, 30};
    int ng_w[4];
    for (int i = 0; i < 4; i++)
        ng_w[i] = SHAPES[i].weight * (int)(SHAPES[i].cpu_alloc / 10);
    int cpu_w[NCPU], mem_w[NMEM];
    for (int i = 0; i < NCPU; i++) cpu_w[i] = CPU[i].w;
    for (int i = 0; i < NMEM; i++) mem_w[i] = MEM[i].w;

    while (budget > 0) {
        Workload w = {0};
        w.ns = 1 + rng_below(&r, (uint32_t)(c->nns - 1));
        w.app = apps_in_ns[w.ns]++;
        w.created = NOW - rng_range(&r, 600, 120 * 86400);
        gen_hash(&r, w.hash);
        w.nctr = rng_pct(&r, 10) ? 2 : 1;
        for (int i = 0; i < w.nctr; i++) {
            w.cpu[i] = (uint8_t)rng_weighted(&r, cpu_w, NCPU);
            w.mem[i] = (uint8_t)rng_weighted(&r, mem_w, NMEM);
        }
        w.cpu_lim_mode = (uint8_t)rng_weighted(&r, (const int[]){40, 30, 20, 10}, 4); /* none, 2x, "2", = */
        w.mem_lim_mode = (uint8_t)rng_weighted(&r, (const int[]){50, 40, 10}, 3);     /* =, 2x, none */
        w.qos_mode = rng_pct(&r, 2) ? 2 : (rng_pct(&r, 6) ? 1 : 0); /* 2 BestEffort, 1 Guaranteed */
        if (w.qos_mode == 1) { w.cpu_lim_mode = 3; w.mem_lim_mode = 0; }
        w.sidecar = rng_pct(&r, 12);
        w.init = rng_pct(&r, 10);
        if (w.qos_mode == 2) w.sidecar = w.init = 0;
        w.eph = rng_pct(&r, 10) ? (uint8_t)rng_range(&r, 1, 2) : 0;
        w.replicas = replica_v[rng_weighted(&r, replica_w, (int)G_N_ELEMENTS(replica_w))];
        w.kind = rng_pct(&r, 8) ? K_STS : K_DEPLOY;
        int sel = rng_weighted(&r, (const int[]){70, 12, 10, 8}, 4);
        w.sel = (uint8_t)(sel == 0 ? SEL_NONE : sel == 1 ? SEL_NG : sel == 2 ? SEL_ZONE_AFFINITY : SEL_GPU);
        if (w.sel == SEL_NG) /* a node group, in proportion to its cpu */
            w.sel_arg = (uint8_t)rng_weighted(&r, ng_w, 4);
        if (w.sel == SEL_ZONE_AFFINITY) w.sel_arg = (uint8_t)rng_below(&r, 3);
        if (w.sel == SEL_GPU) {
            w.nctr = 1;
            w.replicas = w.replicas > 4 ? 4 : w.replicas;
            if (gpu_planned + w.replicas > gpu_total * 85 / 100)
                w.sel = SEL_NONE; /* keep the GPU fleet about 85% allocated */
            else
                gpu_planned += w.replicas;
        }

        if (job_pods < job_target && rng_pct(&r, 4)) {
            w.kind = K_JOB;
            w.sel = SEL_NONE;
            w.replicas = rng_range(&r, 1, 6);
            w.created = NOW - rng_range(&r, 300, 86400);
        } else if (pinned_done < c->npinned) {
            /* the rag-api pattern: 6 replicas of 500m/6Gi on a 2-node group, 2 per node fit at most */
            pinned_done++;
            w.sel = SEL_PINNED;
            w.sel_arg = (uint8_t)pinned_done;
            w.kind = K_DEPLOY;
            w.nctr = 1; w.sidecar = 0; w.init = 0; w.eph = 0; w.qos_mode = 0;
            w.cpu[0] = 5; w.mem[0] = 10; w.cpu_lim_mode = 2; w.mem_lim_mode = 1;
            w.replicas = 6;
        } else if (pend_designated < pend_target - 8 * c->npinned && rng_pct(&r, 3)) {
            w.pend = (uint8_t)(1 + rng_below(&r, 4));
            if (w.pend == PEND_TWO_GPU) { w.sel = SEL_GPU; w.nctr = 1; }
            if (w.pend == PEND_MISSING_NG) w.sel = SEL_MISSING_NG;
            if (w.pend == PEND_HUGE_MEM || w.pend == PEND_HUGE_CPU) w.qos_mode = 0;
            w.replicas = rng_range(&r, 1, 4);
            w.kind = K_DEPLOY;
            w.created = NOW - rng_range(&r, 120, 7200);
            pend_designated += w.replicas;
        }
        if (w.replicas > budget)
            w.replicas = budget;
        if (w.qos_mode == 2 && (w.sel == SEL_GPU || w.pend))
            w.qos_mode = 0; /* these must print their requests */
        workload_requests(&w);
        add_workload(c, &w);
        const Workload *wp = &c->wl[c->nwl - 1];
        for (int k = 0; k < wp->replicas; k++) {
            Pod *p = &c->pods[c->npod];
            p->wl = (uint32_t)(c->nwl - 1);
            p->ordinal = (uint32_t)k;
            p->stream = (uint32_t)c->npod;
            p->ns = wp->ns;
            char prefix[48];
            if (wp->kind == K_STS)
                snprintf(prefix, sizeof prefix, "app-%u-%d", wp->app, k);
            else if (wp->kind == K_JOB)
                snprintf(prefix, sizeof prefix, "job-%u-%u-", wp->app, 29000000u + (uint32_t)(wp->created / 60 % 1000000));
            else
                snprintf(prefix, sizeof prefix, "app-%u-%s-", wp->app, wp->hash);
            name_pod(names, &r, p, prefix, wp->kind != K_STS);
            if (wp->kind == K_JOB) {
                p->phase = PH_SUCCEEDED;
                p->node = (int32_t)rng_below(&r, (uint32_t)c->nnodes);
                for (int step = 0; step < c->nnodes && c->nodes[p->node].shape == SHAPE_GPU; step++)
                    p->node = (p->node + 1) % c->nnodes; /* Jobs do not tolerate dedicated=gpu */
                job_pods++;
            } else if (wp->pend) {
                p->phase = PH_PENDING;
                p->node = -1;
            } else {
                p->node = place(c, wp, &r);
                p->phase = p->node < 0 ? PH_PENDING : PH_RUNNING;
                if (p->node >= 0)
                    node_take(&c->nodes[p->node], wp);
            }
            c->npod++;
        }
        budget -= wp->replicas;
    }
    g_free(apps_in_ns);
    g_hash_table_destroy(names);
    for (int i = 0; i < c->npod; i++)
        c->pods[i].ns_rank = c->ns_rank[c->wl[c->pods[i].wl].ns];
}

static int cmp_pod(const void *a, const void *b)
{
    const Pod *x = a, *y = b;
    if (x->ns_rank != y->ns_rank)
        return x->ns_rank < y->ns_rank ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* ------------------------------------------------------------------ node text */

static void write_node(Out *o, const Cluster *c, const Node *n)
{
    Rng r;
    rng_seed(&r, c->seed, 0x100000000ULL + n->idx);
    const Shape *s = &SHAPES[n->shape];
    char uid[37], buf[64];
    rng_uuid(&r, uid);
    const char *ng = n->pinned_group ? NULL : s->ng;
    char ngname[32];
    if (ng)
        snprintf(ngname, sizeof ngname, "%s", ng);
    else
        snprintf(ngname, sizeof ngname, "pinned-%d", n->pinned_group);
    char iid[20];
    rng_hex(&r, iid, 17);
    int64_t ready_t = n->created + rng_range(&r, 25, 70);
    int64_t hb = NOW - rng_range(&r, 5, 55);

    ob(o, NULL);
    os(o, "apiVersion", "v1");
    os(o, "kind", "Node");
    ob(o, "metadata");
    ob(o, "annotations");
    os(o, "alpha.kubernetes.io/provided-node-ip", n->ip);
    os(o, "node.alpha.kubernetes.io/ttl", "0");
    if (s->gpu)
        os(o, "nvidia.com/gpu-driver-upgrade-enabled", "true");
    os(o, "volumes.kubernetes.io/controller-managed-attach-detach", "true");
    oe(o);
    ots(o, "creationTimestamp", n->created);
    ob(o, "labels");
    os(o, "beta.kubernetes.io/arch", "amd64");
    os(o, "beta.kubernetes.io/instance-type", s->type);
    os(o, "beta.kubernetes.io/os", "linux");
    os(o, "eks.amazonaws.com/capacityType", n->shape == 1 && (n->idx % 5 == 0) ? "SPOT" : "ON_DEMAND");
    os(o, "eks.amazonaws.com/nodegroup", ngname);
    os(o, "eks.amazonaws.com/nodegroup-image", s->gpu ? "ami-0e8c4a1b2d3f56789" : "ami-0c9d3b6a1e5f2a7b4");
    os(o, "failure-domain.beta.kubernetes.io/region", "us-east-1");
    os(o, "failure-domain.beta.kubernetes.io/zone", ZONES[n->zone]);
    if (s->gpu)
        os(o, "k8s.amazonaws.com/accelerator", "nvidia-tesla-t4");
    os(o, "kubernetes.io/arch", "amd64");
    os(o, "kubernetes.io/hostname", n->name);
    os(o, "kubernetes.io/os", "linux");
    os(o, "node.kubernetes.io/instance-type", s->type);
    if (s->gpu)
        os(o, "nvidia.com/gpu.present", "true");
    os(o, "topology.ebs.csi.aws.com/zone", ZONES[n->zone]);
    os(o, "topology.k8s.aws/zone-id", ZONE_IDS[n->zone]);
    os(o, "topology.kubernetes.io/region", "us-east-1");
    os(o, "topology.kubernetes.io/zone", ZONES[n->zone]);
    oe(o);
    if (c->managed_fields) {
        ab(o, "managedFields");
        ob(o, NULL);
        os(o, "apiVersion", "v1");
        os(o, "fieldsType", "FieldsV1");
        ob(o, "fieldsV1");
        fo_nodot(o, "metadata");
        fo(o, "annotations");
        ff(o, "alpha.kubernetes.io/provided-node-ip");
        ff(o, "volumes.kubernetes.io/controller-managed-attach-detach");
        oe(o);
        fo(o, "labels");
        static const char *lk[] = {"beta.kubernetes.io/arch", "beta.kubernetes.io/instance-type", "beta.kubernetes.io/os",
                                   "eks.amazonaws.com/capacityType", "eks.amazonaws.com/nodegroup",
                                   "eks.amazonaws.com/nodegroup-image", "failure-domain.beta.kubernetes.io/region",
                                   "failure-domain.beta.kubernetes.io/zone", "kubernetes.io/arch", "kubernetes.io/hostname",
                                   "kubernetes.io/os", "node.kubernetes.io/instance-type", "topology.kubernetes.io/region",
                                   "topology.kubernetes.io/zone"};
        for (size_t i = 0; i < G_N_ELEMENTS(lk); i++)
            ff(o, lk[i]);
        oe(o);
        oe(o);
        oe(o);
        os(o, "manager", "kubelet");
        os(o, "operation", "Update");
        ots(o, "time", n->created);
        oe(o);
        ob(o, NULL);
        os(o, "apiVersion", "v1");
        os(o, "fieldsType", "FieldsV1");
        ob(o, "fieldsV1");
        fo_nodot(o, "metadata");
        fo_nodot(o, "annotations");
        ff(o, "node.alpha.kubernetes.io/ttl");
        oe(o);
        oe(o);
        if (n->cordoned || n->notready || s->gpu) {
            fo_nodot(o, "spec");
            if (n->cordoned || n->notready || s->gpu)
                ff(o, "taints");
            if (n->cordoned)
                ff(o, "unschedulable");
            oe(o);
        }
        oe(o);
        os(o, "manager", "kube-controller-manager");
        os(o, "operation", "Update");
        ots(o, "time", n->created + 3);
        oe(o);
        ob(o, NULL);
        os(o, "apiVersion", "v1");
        os(o, "fieldsType", "FieldsV1");
        ob(o, "fieldsV1");
        fo_nodot(o, "status");
        fo_nodot(o, "allocatable");
        ff(o, "cpu"); ff(o, "ephemeral-storage"); ff(o, "memory");
        if (s->gpu) ff(o, "nvidia.com/gpu");
        ff(o, "pods");
        oe(o);
        fo_nodot(o, "conditions");
        static const char *ct[] = {"DiskPressure", "MemoryPressure", "PIDPressure", "Ready"};
        for (int i = 0; i < 4; i++) {
            ko(o, "type", ct[i]);
            ff(o, "lastHeartbeatTime"); ff(o, "lastTransitionTime"); ff(o, "message"); ff(o, "reason"); ff(o, "status");
            oe(o);
        }
        oe(o);
        ff(o, "images");
        ff(o, "nodeInfo");
        oe(o);
        oe(o);
        os(o, "manager", "kubelet");
        os(o, "operation", "Update");
        os(o, "subresource", "status");
        ots(o, "time", hb);
        oe(o);
        ae(o);
    }
    os(o, "name", n->name);
    osf(o, "resourceVersion", "%" PRIu64, UINT64_C(480000000) + rng_next(&r) % UINT64_C(90000000));
    os(o, "uid", uid);
    oe(o);

    ob(o, "spec");
    osf(o, "providerID", "aws:///%s/i-0%s", ZONES[n->zone], iid);
    if (n->cordoned || n->notready || s->gpu) {
        ab(o, "taints");
        if (s->gpu) {
            ob(o, NULL); os(o, "effect", "NoSchedule"); os(o, "key", "dedicated"); os(o, "value", "gpu"); oe(o);
        }
        if (n->notready) {
            ob(o, NULL); os(o, "effect", "NoSchedule"); os(o, "key", "node.kubernetes.io/unreachable");
            ots(o, "timeAdded", hb - 3600); oe(o);
            ob(o, NULL); os(o, "effect", "NoExecute"); os(o, "key", "node.kubernetes.io/unreachable");
            ots(o, "timeAdded", hb - 3595); oe(o);
        }
        if (n->cordoned) {
            ob(o, NULL); os(o, "effect", "NoSchedule"); os(o, "key", "node.kubernetes.io/unschedulable");
            ots(o, "timeAdded", NOW - 7200); oe(o);
        }
        ae(o);
    }
    if (n->cordoned)
        obool(o, "unschedulable", true);
    oe(o);

    ob(o, "status");
    ab(o, "addresses");
    ob(o, NULL); os(o, "address", n->ip); os(o, "type", "InternalIP"); oe(o);
    ob(o, NULL); os(o, "address", n->name); os(o, "type", "InternalDNS"); oe(o);
    ob(o, NULL); os(o, "address", n->name); os(o, "type", "Hostname"); oe(o);
    ae(o);
    for (int pass = 0; pass < 2; pass++) {
        ob(o, pass ? "capacity" : "allocatable");
        if (pass) osf(o, "cpu", "%d", s->vcpu);
        else if (s->cpu_alloc % 1000) osf(o, "cpu", "%" PRId64 "m", s->cpu_alloc);
        else osf(o, "cpu", "%" PRId64, s->cpu_alloc / 1000);
        os(o, "ephemeral-storage", pass ? "83873772Ki" : "76224326324");
        os(o, "hugepages-1Gi", "0");
        os(o, "hugepages-2Mi", s->hp2m);
        osf(o, "memory", "%" PRId64 "Ki", pass ? s->mem_cap_ki : s->mem_alloc_ki);
        if (s->gpu) osf(o, "nvidia.com/gpu", "%d", s->gpu);
        osf(o, "pods", "%d", s->pods);
        oe(o);
    }
    ab(o, "conditions");
    static const char *cn[4][4] = {
        {"MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available", "False"},
        {"DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", "False"},
        {"PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available", "False"},
        {"Ready", "KubeletReady", "kubelet is posting ready status", "True"},
    };
    for (int i = 0; i < 4; i++) {
        ob(o, NULL);
        ots(o, "lastHeartbeatTime", n->notready ? hb - 3600 : hb);
        ots(o, "lastTransitionTime", n->notready ? hb - 3560 : ready_t);
        os(o, "message", n->notready ? "Kubelet stopped posting node status." : cn[i][2]);
        os(o, "reason", n->notready ? "NodeStatusUnknown" : cn[i][1]);
        os(o, "status", n->notready ? "Unknown" : cn[i][3]);
        os(o, "type", cn[i][0]);
        oe(o);
    }
    ae(o);
    ob(o, "daemonEndpoints");
    ob(o, "kubeletEndpoint");
    oi(o, "Port", 10250);
    oe(o);
    oe(o);
    ab(o, "images");
    int nimg = rng_range(&r, 6, 14);
    for (int i = 0; i < nimg; i++) {
        char h[65];
        rng_hex(&r, h, 64);
        ob(o, NULL);
        ab(o, "names");
        uint32_t team = rng_below(&r, (uint32_t)(c->nns > 1 ? c->nns - 1 : 1)), app = rng_below(&r, 40);
        if (i == 0) {
            osf(o, NULL, "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni@sha256:%s", h);
            os(o, NULL, "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni:v1.18.5-eksbuild.1");
        } else if (i == 1) {
            osf(o, NULL, "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/kube-proxy@sha256:%s", h);
            os(o, NULL, "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/kube-proxy:v1.30.3-minimal-eksbuild.5");
        } else {
            osf(o, NULL, "123456789012.dkr.ecr.us-east-1.amazonaws.com/team-%u/app-%u@sha256:%s", team, app, h);
            osf(o, NULL, "123456789012.dkr.ecr.us-east-1.amazonaws.com/team-%u/app-%u:1.%u.%u", team, app,
                rng_below(&r, 20), rng_below(&r, 10));
        }
        ae(o);
        oi(o, "sizeBytes", 20000000 + (int64_t)rng_below(&r, 900000000));
        oe(o);
    }
    ae(o);
    ob(o, "nodeInfo");
    os(o, "architecture", "amd64");
    rng_uuid(&r, uid);
    os(o, "bootID", uid);
    os(o, "containerRuntimeVersion", "containerd://1.7.22");
    os(o, "kernelVersion", "5.10.226-214.880.amzn2.x86_64");
    os(o, "kubeProxyVersion", "v1.30.4-eks-a737599");
    os(o, "kubeletVersion", "v1.30.4-eks-a737599");
    rng_hex(&r, buf, 32);
    os(o, "machineID", buf);
    os(o, "operatingSystem", "linux");
    os(o, "osImage", "Amazon Linux 2");
    rng_uuid(&r, uid);
    memcpy(uid, "ec2", 3);
    os(o, "systemUUID", uid);
    oe(o);
    oe(o);
    oe(o);
}

/* ------------------------------------------------------------------ pod text */

typedef struct { const char *name, *value; int from; } EnvT; /* from: 0 value, 1 fieldRef, 2 secretKeyRef, 3 resourceFieldRef */

static const EnvT ENV[] = {
    {"LOG_LEVEL", "info", 0},
    {"PORT", "8080", 0},
    {"ENVIRONMENT", "production", 0},
    {"AWS_REGION", "us-east-1", 0},
    {"DB_HOST", "postgres.%s.svc.cluster.local", 0},
    {"REDIS_URL", "redis://redis-master.%s.svc.cluster.local:6379/0", 0},
    {"JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=75.0 -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError", 0},
    {"OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel-collector.observability.svc.cluster.local:4317", 0},
    {"OTEL_SERVICE_NAME", "%a", 0},
    {"FEATURE_FLAGS", "search-v2,fast-checkout,async-export", 0},
    {"POD_NAME", "metadata.name", 1},
    {"POD_NAMESPACE", "metadata.namespace", 1},
    {"POD_IP", "status.podIP", 1},
    {"NODE_NAME", "spec.nodeName", 1},
    {"DB_PASSWORD", "password", 2},
    {"API_TOKEN", "token", 2},
    {"GOMAXPROCS", "limits.cpu", 3},
    {"GOMEMLIMIT", "limits.memory", 3},
};
#define NENV ((int)G_N_ELEMENTS(ENV))

typedef struct {
    const Cluster *c;
    const Workload *w;
    const Pod *p;
    const Node *node;
    const char *ns;
    char app[24];
    char owner_name[64], owner_uid[37], owner_kind[16];
    char image[2][160];
    char image_sha[2][65];
    int env_idx[2][NENV], nenv[2];
    int probe; /* 0 http, 1 tcp, 2 none */
    bool metrics_port, config_vol, tmp_vol, anti_affinity, sec_ctx, own_sa, prom, restarted_at;
    int grace;
    char sa_vol[32];
    char pod_ip[20];
    char uid[37];
    int64_t created, started, ready;
    int restarts[2];
    bool oom[2];
} PodCtx;

static void fmt_limit_cpu(const Workload *w, int i, char *out, size_t n, bool *has)
{
    *has = true;
    switch (w->cpu_lim_mode) {
    case 1: snprintf(out, n, "%s", CPU[w->cpu[i]].twice); break;
    case 2: snprintf(out, n, "%s", CPU[w->cpu[i]].v > 2000 ? CPU[w->cpu[i]].s : "2"); break;
    case 3: snprintf(out, n, "%s", CPU[w->cpu[i]].s); break;
    default: *has = false; break;
    }
}

static void fmt_limit_mem(const Workload *w, int i, char *out, size_t n, bool *has)
{
    *has = true;
    switch (w->mem_lim_mode) {
    case 0: snprintf(out, n, "%s", MEM[w->mem[i]].s); break;
    case 1: snprintf(out, n, "%s", MEM[w->mem[i]].twice); break;
    default: *has = false; break;
    }
}

/* the QoS class of what w_container prints (v1 qos.GetPodQOS) */
static const char *pod_qos(const Workload *w)
{
    if (w->qos_mode == 2)
        return "BestEffort";
    if ((w->sidecar || w->init) && w->qos_mode != 1)
        return "Burstable";
    if (w->pend == PEND_HUGE_CPU)
        return "Burstable";
    for (int i = 0; i < w->nctr; i++) {
        char cl[24], ml[24];
        bool hc, hm;
        fmt_limit_cpu(w, i, cl, sizeof cl, &hc);
        fmt_limit_mem(w, i, ml, sizeof ml, &hm);
        if (i == 0 && w->pend == PEND_HUGE_MEM)
            hm = true; /* w_container prints limits.memory "384Gi" = requests.memory */
        if (!hc || !hm || strcmp(cl, CPU[w->cpu[i]].s) != 0)
            return "Burstable";
        if (!(i == 0 && w->pend == PEND_HUGE_MEM) && strcmp(ml, MEM[w->mem[i]].s) != 0)
            return "Burstable";
    }
    return "Guaranteed";
}

static void w_env_value(Out *o, const PodCtx *x, const EnvT *e)
{
    ob(o, NULL);
    os(o, "name", e->name);
    if (e->from == 0) {
        const char *pct = strstr(e->value, "%s"); /* "%s": the namespace, "%a": the app */
        if (pct) {
            char buf[160];
            snprintf(buf, sizeof buf, "%.*s%s%s", (int)(pct - e->value), e->value, x->ns, pct + 2);
            os(o, "value", buf);
        } else if (strcmp(e->value, "%a") == 0) {
            os(o, "value", x->app);
        } else {
            os(o, "value", e->value);
        }
    } else {
        ob(o, "valueFrom");
        if (e->from == 1) {
            ob(o, "fieldRef"); os(o, "apiVersion", "v1"); os(o, "fieldPath", e->value); oe(o);
        } else if (e->from == 2) {
            ob(o, "secretKeyRef"); os(o, "key", e->value); osf(o, "name", "%s-secrets", x->app); oe(o);
        } else {
            ob(o, "resourceFieldRef"); osf(o, "containerName", "%s", x->app); os(o, "divisor", "0");
            os(o, "resource", e->value); oe(o);
        }
        oe(o);
    }
    oe(o);
}

static void w_probe(Out *o, const char *key, int kind, bool live)
{
    ob(o, key);
    oi(o, "failureThreshold", 3);
    if (kind == 0) {
        ob(o, "httpGet"); os(o, "path", live ? "/healthz" : "/ready"); os(o, "port", "http"); os(o, "scheme", "HTTP"); oe(o);
    }
    oi(o, "initialDelaySeconds", live ? 15 : 5);
    oi(o, "periodSeconds", live ? 20 : 10);
    oi(o, "successThreshold", 1);
    if (kind == 1) {
        ob(o, "tcpSocket"); oi(o, "port", 8080); oe(o);
    }
    oi(o, "timeoutSeconds", live ? 5 : 3);
    oe(o);
}

static void w_mount(Out *o, const char *path, const char *name, bool ro)
{
    ob(o, NULL);
    os(o, "mountPath", path);
    os(o, "name", name);
    if (ro) obool(o, "readOnly", true);
    oe(o);
}

static bool is_ds(const Workload *w) { return w->kind == K_DS_PROXY || w->kind == K_DS_CNI; }

/* container i of the app; i < 0: sidecar (-1) or init (-2) */
static void w_container(Out *o, const PodCtx *x, int i)
{
    const Workload *w = x->w;
    bool guaranteed = w->qos_mode == 1;
    ob(o, NULL);
    if (i == -1) {
        ab(o, "args"); os(o, NULL, "--config=/fluent-bit/etc/fluent-bit.conf"); ae(o);
        os(o, "image", "public.ecr.aws/aws-observability/aws-for-fluent-bit:2.32.2.20241008");
        os(o, "imagePullPolicy", "IfNotPresent");
        os(o, "name", "log-shipper");
        ob(o, "resources");
        ob(o, "limits"); os(o, "cpu", guaranteed ? "50m" : "200m"); os(o, "memory", guaranteed ? "64Mi" : "128Mi"); oe(o);
        ob(o, "requests"); os(o, "cpu", "50m"); os(o, "memory", "64Mi"); oe(o);
        oe(o);
        os(o, "restartPolicy", "Always");
    } else if (i == -2) {
        ab(o, "command"); os(o, NULL, "sh"); os(o, NULL, "-c");
        osf(o, NULL, "until nc -z postgres.%s.svc.cluster.local 5432; do echo waiting for db; sleep 2; done", x->ns);
        ae(o);
        os(o, "image", "docker.io/library/busybox:1.36");
        os(o, "imagePullPolicy", "IfNotPresent");
        os(o, "name", "wait-for-db");
        ob(o, "resources");
        ob(o, "limits"); os(o, "cpu", guaranteed ? "10m" : "100m"); os(o, "memory", guaranteed ? "16Mi" : "64Mi"); oe(o);
        ob(o, "requests"); os(o, "cpu", "10m"); os(o, "memory", "16Mi"); oe(o);
        oe(o);
    } else {
        if (x->nenv[i]) {
            ab(o, "env");
            for (int k = 0; k < x->nenv[i]; k++)
                w_env_value(o, x, &ENV[x->env_idx[i][k]]);
            ae(o);
        }
        os(o, "image", x->image[i]);
        os(o, "imagePullPolicy", "IfNotPresent");
        if (i == 0 && x->probe != 2)
            w_probe(o, "livenessProbe", x->probe, true);
        if (i == 0)
            os(o, "name", x->app);
        else
            os(o, "name", "worker");
        if (i == 0) {
            ab(o, "ports");
            ob(o, NULL); oi(o, "containerPort", 8080); os(o, "name", "http"); os(o, "protocol", "TCP"); oe(o);
            if (x->metrics_port) {
                ob(o, NULL); oi(o, "containerPort", 9090); os(o, "name", "metrics"); os(o, "protocol", "TCP"); oe(o);
            }
            ae(o);
        }
        if (i == 0 && x->probe != 2)
            w_probe(o, "readinessProbe", x->probe, false);
        ob(o, "resources");
        if (w->qos_mode != 2) {
            char cl[24], ml[24];
            bool hc, hm;
            fmt_limit_cpu(w, i, cl, sizeof cl, &hc);
            fmt_limit_mem(w, i, ml, sizeof ml, &hm);
            const char *cpu_req = CPU[w->cpu[i]].s, *mem_req = MEM[w->mem[i]].s;
            if (i == 0 && w->pend == PEND_HUGE_MEM) { mem_req = "384Gi"; snprintf(ml, sizeof ml, "384Gi"); hm = true; }
            if (i == 0 && w->pend == PEND_HUGE_CPU) { cpu_req = "48"; hc = false; }
            int gpu = i == 0 ? w->req_gpu : 0;
            bool eph = i == 0 && w->eph;
            if (hc || hm || gpu || eph) {
                ob(o, "limits");
                if (hc) os(o, "cpu", cl);
                if (eph) osf(o, "ephemeral-storage", "%dGi", 2 * w->eph);
                if (hm) os(o, "memory", ml);
                if (gpu) osf(o, "nvidia.com/gpu", "%d", gpu);
                oe(o);
            }
            ob(o, "requests");
            os(o, "cpu", cpu_req);
            if (eph) osf(o, "ephemeral-storage", "%dGi", w->eph);
            os(o, "memory", mem_req);
            if (gpu) osf(o, "nvidia.com/gpu", "%d", gpu);
            oe(o);
        }
        oe(o);
    }
    if (i >= 0 && x->sec_ctx) {
        ob(o, "securityContext");
        obool(o, "allowPrivilegeEscalation", false);
        ob(o, "capabilities"); ab(o, "drop"); os(o, NULL, "ALL"); ae(o); oe(o);
        obool(o, "readOnlyRootFilesystem", true);
        oe(o);
    }
    os(o, "terminationMessagePath", "/dev/termination-log");
    os(o, "terminationMessagePolicy", i >= 0 ? "FallbackToLogsOnError" : "File");
    ab(o, "volumeMounts");
    if (i >= 0 && x->config_vol) w_mount(o, "/etc/app", "config", true);
    if (i >= 0 && w->kind == K_STS) w_mount(o, "/var/lib/data", "data", false);
    if (i >= 0 && x->tmp_vol) w_mount(o, "/tmp", "tmp", false);
    if (i == -1) w_mount(o, "/var/log/app", "tmp", false);
    w_mount(o, "/var/run/secrets/kubernetes.io/serviceaccount", x->sa_vol, true);
    ae(o);
    oe(o);
}

static void w_ds_container(Out *o, const PodCtx *x, int i)
{
    bool cni = x->w->kind == K_DS_CNI;
    ob(o, NULL);
    if (!cni) {
        ab(o, "command");
        os(o, NULL, "kube-proxy"); os(o, NULL, "--v=2"); os(o, NULL, "--config=/var/lib/kube-proxy-config/config");
        os(o, NULL, "--hostname-override=$(NODE_NAME)");
        ae(o);
        ab(o, "env");
        ob(o, NULL); os(o, "name", "NODE_NAME"); ob(o, "valueFrom"); ob(o, "fieldRef"); os(o, "apiVersion", "v1");
        os(o, "fieldPath", "spec.nodeName"); oe(o); oe(o); oe(o);
        ae(o);
        os(o, "image", "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/kube-proxy:v1.30.3-minimal-eksbuild.5");
        os(o, "imagePullPolicy", "IfNotPresent");
        os(o, "name", "kube-proxy");
    } else if (i == 0) {
        ab(o, "env");
        static const char *kv[][2] = {{"ADDITIONAL_ENI_TAGS", "{}"}, {"AWS_VPC_K8S_CNI_LOGLEVEL", "DEBUG"},
                                      {"ENABLE_PREFIX_DELEGATION", "false"}, {"WARM_ENI_TARGET", "1"}};
        for (size_t k = 0; k < G_N_ELEMENTS(kv); k++) {
            ob(o, NULL); os(o, "name", kv[k][0]); os(o, "value", kv[k][1]); oe(o);
        }
        ob(o, NULL); os(o, "name", "MY_NODE_NAME"); ob(o, "valueFrom"); ob(o, "fieldRef"); os(o, "apiVersion", "v1");
        os(o, "fieldPath", "spec.nodeName"); oe(o); oe(o); oe(o);
        ae(o);
        os(o, "image", "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni:v1.18.5-eksbuild.1");
        os(o, "imagePullPolicy", "IfNotPresent");
        os(o, "name", "aws-node");
        ab(o, "ports");
        ob(o, NULL); oi(o, "containerPort", 61678); oi(o, "hostPort", 61678); os(o, "name", "metrics");
        os(o, "protocol", "TCP"); oe(o);
        ae(o);
    } else {
        ab(o, "args"); os(o, NULL, "--enable-network-policy=false"); os(o, NULL, "--metrics-bind-addr=:8162"); ae(o);
        os(o, "image", "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon/aws-network-policy-agent:v1.1.3-eksbuild.1");
        os(o, "imagePullPolicy", "IfNotPresent");
        os(o, "name", "aws-eks-nodeagent");
    }
    ob(o, "resources"); ob(o, "requests"); os(o, "cpu", cni ? "25m" : "100m"); oe(o); oe(o);
    ob(o, "securityContext"); obool(o, "privileged", true); oe(o);
    os(o, "terminationMessagePath", "/dev/termination-log");
    os(o, "terminationMessagePolicy", "File");
    ab(o, "volumeMounts");
    w_mount(o, "/var/run/secrets/kubernetes.io/serviceaccount", x->sa_vol, true);
    ae(o);
    oe(o);
}

static void w_condition(Out *o, const char *type, const char *status, int64_t t, const char *reason, const char *msg)
{
    ob(o, NULL);
    onull(o, "lastProbeTime");
    ots(o, "lastTransitionTime", t);
    if (msg) os(o, "message", msg);
    if (reason) os(o, "reason", reason);
    os(o, "status", status);
    os(o, "type", type);
    oe(o);
}

static void w_cstatus(Out *o, const PodCtx *x, Rng *r, const char *name, const char *image, int ci, int kind)
{
    /* kind: 0 app running, 1 init terminated, 2 sidecar running, 3 app completed (Job) */
    char h[65];
    ob(o, NULL);
    rng_hex(r, h, 64);
    osf(o, "containerID", "containerd://%s", h);
    os(o, "image", image);
    {
        char base[160];
        snprintf(base, sizeof base, "%s", image);
        char *colon = strrchr(base, ':');
        char *slash = strrchr(base, '/');
        if (colon && (!slash || colon > slash)) *colon = 0;
        rng_hex(r, h, 64);
        osf(o, "imageID", "%s@sha256:%s", base, h);
    }
    int restarts = ci >= 0 && kind == 0 ? x->restarts[ci] : 0;
    ob(o, "lastState");
    if (restarts) {
        ob(o, "terminated");
        rng_hex(r, h, 64);
        osf(o, "containerID", "containerd://%s", h);
        oi(o, "exitCode", x->oom[ci] ? 137 : 1);
        ots(o, "finishedAt", x->ready + (NOW - x->ready) / 2);
        os(o, "reason", x->oom[ci] ? "OOMKilled" : "Error");
        ots(o, "startedAt", x->started);
        oe(o);
    }
    oe(o);
    os(o, "name", name);
    obool(o, "ready", kind == 0 || kind == 2);
    oi(o, "restartCount", restarts);
    obool(o, "started", kind == 0 || kind == 2);
    ob(o, "state");
    if (kind == 1 || kind == 3) {
        ob(o, "terminated");
        rng_hex(r, h, 64);
        osf(o, "containerID", "containerd://%s", h);
        oi(o, "exitCode", 0);
        ots(o, "finishedAt", kind == 1 ? x->started + 2 : x->ready + 40);
        os(o, "reason", "Completed");
        ots(o, "startedAt", kind == 1 ? x->started + 1 : x->started + 3);
        oe(o);
    } else {
        ob(o, "running");
        ots(o, "startedAt", restarts ? x->ready + (NOW - x->ready) / 2 + 1 : x->started + (kind == 2 ? 1 : 3));
        oe(o);
    }
    oe(o);
    oe(o);
}

/* managedFields of kube-controller-manager: what the ReplicaSet/StatefulSet/Job controller wrote */
static void w_mf_spec_container(Out *o, const PodCtx *x, int i)
{
    const Workload *w = x->w;
    char k[96];
    snprintf(k, sizeof k, "k:{\"name\":\"%s\"}", i == 0 ? x->app : i == 1 ? "worker" : i == -1 ? "log-shipper" : "wait-for-db");
    ob(o, k);
    oempty(o, ".");
    if (i == -1) ff(o, "args");
    if (i == -2) ff(o, "command");
    if (i >= 0 && x->nenv[i]) {
        /* fieldsV1 is a map: its keys print sorted */
        int sorted[NENV], n = x->nenv[i];
        memcpy(sorted, x->env_idx[i], sizeof(int) * (size_t)n);
        for (int a = 1; a < n; a++)
            for (int b = a; b > 0 && strcmp(ENV[sorted[b - 1]].name, ENV[sorted[b]].name) > 0; b--) {
                int t = sorted[b]; sorted[b] = sorted[b - 1]; sorted[b - 1] = t;
            }
        fo(o, "env");
        for (int e = 0; e < n; e++) {
            const EnvT *ev = &ENV[sorted[e]];
            ko(o, "name", ev->name);
            ff(o, "name");
            if (ev->from == 0)
                ff(o, "value");
            else {
                fo(o, "valueFrom");
                ff(o, ev->from == 1 ? "fieldRef" : ev->from == 2 ? "secretKeyRef" : "resourceFieldRef");
                oe(o);
            }
            oe(o);
        }
        oe(o);
    }
    ff(o, "image");
    ff(o, "imagePullPolicy");
    if (i == 0 && x->probe != 2) {
        fo(o, "livenessProbe");
        ff(o, "failureThreshold");
        if (x->probe == 0) { fo(o, "httpGet"); ff(o, "path"); ff(o, "port"); ff(o, "scheme"); oe(o); }
        ff(o, "initialDelaySeconds"); ff(o, "periodSeconds"); ff(o, "successThreshold");
        if (x->probe == 1) { fo(o, "tcpSocket"); ff(o, "port"); oe(o); }
        ff(o, "timeoutSeconds");
        oe(o);
    }
    ff(o, "name");
    if (i == 0) {
        fo(o, "ports");
        ob(o, "k:{\"containerPort\":8080,\"protocol\":\"TCP\"}");
        oempty(o, "."); ff(o, "containerPort"); ff(o, "name"); ff(o, "protocol");
        oe(o);
        if (x->metrics_port) {
            ob(o, "k:{\"containerPort\":9090,\"protocol\":\"TCP\"}");
            oempty(o, "."); ff(o, "containerPort"); ff(o, "name"); ff(o, "protocol");
            oe(o);
        }
        oe(o);
    }
    if (i == 0 && x->probe != 2) {
        fo(o, "readinessProbe");
        ff(o, "failureThreshold");
        if (x->probe == 0) { fo(o, "httpGet"); ff(o, "path"); ff(o, "port"); ff(o, "scheme"); oe(o); }
        ff(o, "initialDelaySeconds"); ff(o, "periodSeconds"); ff(o, "successThreshold");
        if (x->probe == 1) { fo(o, "tcpSocket"); ff(o, "port"); oe(o); }
        ff(o, "timeoutSeconds");
        oe(o);
    }
    if (w->qos_mode == 2 && i >= 0) {
        ff(o, "resources");
    } else {
        fo(o, "resources");
        fo(o, "limits"); ff(o, "cpu"); ff(o, "memory"); oe(o);
        fo(o, "requests"); ff(o, "cpu"); ff(o, "memory"); oe(o);
        oe(o);
    }
    if (i == -1) ff(o, "restartPolicy");
    if (i >= 0 && x->sec_ctx) {
        fo(o, "securityContext"); ff(o, "allowPrivilegeEscalation"); fo(o, "capabilities"); ff(o, "drop"); oe(o);
        ff(o, "readOnlyRootFilesystem"); oe(o);
    }
    ff(o, "terminationMessagePath");
    ff(o, "terminationMessagePolicy");
    bool any = (i >= 0 && (x->config_vol || x->tmp_vol || w->kind == K_STS)) || i == -1;
    if (any) {
        fo(o, "volumeMounts");
        if (i >= 0 && x->config_vol) { ko(o, "mountPath", "/etc/app"); ff(o, "mountPath"); ff(o, "name"); ff(o, "readOnly"); oe(o); }
        if (i >= 0 && x->tmp_vol) { ko(o, "mountPath", "/tmp"); ff(o, "mountPath"); ff(o, "name"); oe(o); }
        if (i >= 0 && w->kind == K_STS) { ko(o, "mountPath", "/var/lib/data"); ff(o, "mountPath"); ff(o, "name"); oe(o); }
        if (i == -1) { ko(o, "mountPath", "/var/log/app"); ff(o, "mountPath"); ff(o, "name"); oe(o); }
        oe(o);
    }
    oe(o);
}

static void w_mf_ds_container(Out *o, const char *name, bool cni_main)
{
    char k[64];
    snprintf(k, sizeof k, "k:{\"name\":\"%s\"}", name);
    ob(o, k);
    oempty(o, ".");
    if (strcmp(name, "aws-eks-nodeagent") == 0) ff(o, "args");
    if (strcmp(name, "kube-proxy") == 0) ff(o, "command");
    if (strcmp(name, "aws-eks-nodeagent") != 0) {
        fo(o, "env");
        ko(o, "name", cni_main ? "MY_NODE_NAME" : "NODE_NAME");
        ff(o, "name"); fo(o, "valueFrom"); ff(o, "fieldRef"); oe(o);
        oe(o);
        oe(o);
    }
    ff(o, "image");
    ff(o, "imagePullPolicy");
    ff(o, "name");
    if (cni_main) {
        fo(o, "ports");
        ob(o, "k:{\"containerPort\":61678,\"protocol\":\"TCP\"}");
        oempty(o, "."); ff(o, "containerPort"); ff(o, "hostPort"); ff(o, "name"); ff(o, "protocol");
        oe(o);
        oe(o);
    }
    fo(o, "resources"); fo(o, "requests"); ff(o, "cpu"); oe(o); oe(o);
    fo(o, "securityContext"); ff(o, "privileged"); oe(o);
    ff(o, "terminationMessagePath");
    ff(o, "terminationMessagePolicy");
    oe(o);
}

static void w_managed_fields(Out *o, const PodCtx *x)
{
    const Workload *w = x->w;
    const Pod *p = x->p;
    ab(o, "managedFields");
    ob(o, NULL);
    os(o, "apiVersion", "v1");
    os(o, "fieldsType", "FieldsV1");
    ob(o, "fieldsV1");
    fo_nodot(o, "metadata");
    if (x->prom || x->restarted_at) {
        fo(o, "annotations");
        if (x->restarted_at) ff(o, "kubectl.kubernetes.io/restartedAt");
        if (x->prom) { ff(o, "prometheus.io/port"); ff(o, "prometheus.io/scrape"); }
        oe(o);
    }
    ff(o, "generateName");
    fo(o, "labels");
    if (w->kind == K_JOB) {
        ff(o, "app"); ff(o, "batch.kubernetes.io/controller-uid"); ff(o, "batch.kubernetes.io/job-name");
        ff(o, "controller-uid"); ff(o, "job-name");
    } else if (is_ds(w)) {
        ff(o, "controller-revision-hash"); ff(o, "k8s-app"); ff(o, "pod-template-generation");
    } else {
        ff(o, "app");
        ff(o, "app.kubernetes.io/name"); ff(o, "app.kubernetes.io/part-of");
        if (w->kind == K_STS) ff(o, "apps.kubernetes.io/pod-index");
        if (w->kind == K_STS) ff(o, "controller-revision-hash");
        if (w->kind == K_DEPLOY) ff(o, "pod-template-hash");
        if (w->kind == K_STS) ff(o, "statefulset.kubernetes.io/pod-name");
        ff(o, "version");
    }
    oe(o);
    fo(o, "ownerReferences");
    {
        char k[80];
        snprintf(k, sizeof k, "k:{\"uid\":\"%s\"}", x->owner_uid);
        oempty(o, k);
    }
    oe(o);
    oe(o);
    fo_nodot(o, "spec");
    if (is_ds(w)) {
        fo(o, "affinity"); fo(o, "nodeAffinity"); fo(o, "requiredDuringSchedulingIgnoredDuringExecution");
        ff(o, "nodeSelectorTerms"); oe(o); oe(o); oe(o);
        fo_nodot(o, "containers");
        if (w->kind == K_DS_CNI) {
            w_mf_ds_container(o, "aws-eks-nodeagent", false);
            w_mf_ds_container(o, "aws-node", true);
        } else {
            w_mf_ds_container(o, "kube-proxy", false);
        }
        oe(o);
        ff(o, "dnsPolicy"); ff(o, "enableServiceLinks"); ff(o, "hostNetwork"); ff(o, "priorityClassName"); ff(o, "restartPolicy");
        ff(o, "schedulerName"); ff(o, "securityContext"); ff(o, "serviceAccount"); ff(o, "serviceAccountName");
        ff(o, "terminationGracePeriodSeconds"); ff(o, "tolerations"); ff(o, "volumes");
    } else {
        if (x->anti_affinity || w->sel == SEL_ZONE_AFFINITY) {
            fo(o, "affinity");
            if (w->sel == SEL_ZONE_AFFINITY) {
                fo(o, "nodeAffinity"); fo(o, "requiredDuringSchedulingIgnoredDuringExecution"); ff(o, "nodeSelectorTerms");
                oe(o); oe(o);
            }
            if (x->anti_affinity) {
                fo(o, "podAntiAffinity"); ff(o, "preferredDuringSchedulingIgnoredDuringExecution"); oe(o);
            }
            oe(o);
        }
        fo_nodot(o, "containers");
        for (int i = 0; i < w->nctr; i++)
            w_mf_spec_container(o, x, i);
        oe(o);
        ff(o, "dnsPolicy");
        ff(o, "enableServiceLinks");
        if (w->kind == K_STS) ff(o, "hostname");
        if (w->sidecar || w->init) {
            fo_nodot(o, "initContainers");
            if (w->sidecar) w_mf_spec_container(o, x, -1); /* "log-shipper" < "wait-for-db" */
            if (w->init) w_mf_spec_container(o, x, -2);
            oe(o);
        }
        if (w->sel == SEL_NG || w->sel == SEL_GPU || w->sel == SEL_MISSING_NG || w->sel == SEL_PINNED) {
            fo(o, "nodeSelector");
            ff(o, w->sel == SEL_GPU ? "nvidia.com/gpu.present" : "eks.amazonaws.com/nodegroup");
            oe(o);
        }
        ff(o, "restartPolicy");
        ff(o, "schedulerName");
        if (x->sec_ctx) { fo(o, "securityContext"); ff(o, "fsGroup"); ff(o, "runAsNonRoot"); ff(o, "runAsUser"); oe(o); }
        else ff(o, "securityContext");
        if (x->own_sa) { ff(o, "serviceAccount"); ff(o, "serviceAccountName"); }
        if (w->kind == K_STS) ff(o, "subdomain");
        ff(o, "terminationGracePeriodSeconds");
        if (w->sel == SEL_GPU || w->pend == PEND_TWO_GPU) {
            fo_nodot(o, "tolerations");
            ob(o, "k:{\"effect\":\"NoSchedule\",\"key\":\"dedicated\",\"operator\":\"Equal\",\"value\":\"gpu\"}");
            oempty(o, "."); ff(o, "effect"); ff(o, "key"); ff(o, "operator"); ff(o, "value");
            oe(o);
            oe(o);
        }
        if (x->config_vol || x->tmp_vol || w->kind == K_STS || w->sidecar) {
            fo_nodot(o, "volumes");
            if (x->config_vol) {
                ko(o, "name", "config"); fo(o, "configMap"); ff(o, "defaultMode"); ff(o, "name"); oe(o); ff(o, "name"); oe(o);
            }
            if (w->kind == K_STS) {
                ko(o, "name", "data"); ff(o, "name"); fo(o, "persistentVolumeClaim"); ff(o, "claimName"); oe(o); oe(o);
            }
            if (x->tmp_vol || w->sidecar) {
                ko(o, "name", "tmp"); fo(o, "emptyDir"); ff(o, "sizeLimit"); oe(o); ff(o, "name"); oe(o);
            }
            oe(o);
        }
    }
    oe(o);
    oe(o);
    os(o, "manager", "kube-controller-manager");
    os(o, "operation", "Update");
    ots(o, "time", x->created);
    oe(o);

    /* the status writer: kubelet once bound, kube-scheduler while Pending */
    ob(o, NULL);
    os(o, "apiVersion", "v1");
    os(o, "fieldsType", "FieldsV1");
    ob(o, "fieldsV1");
    fo_nodot(o, "status");
    if (p->phase == PH_PENDING) {
        fo_nodot(o, "conditions");
        oempty(o, ".");
        ko(o, "type", "PodScheduled");
        ff(o, "lastProbeTime"); ff(o, "lastTransitionTime"); ff(o, "message"); ff(o, "reason"); ff(o, "status"); ff(o, "type");
        oe(o);
        oe(o);
    } else {
        fo_nodot(o, "conditions");
        static const char *ct[] = {"ContainersReady", "Initialized", "PodReadyToStartContainers", "Ready"};
        for (int i = 0; i < 4; i++) {
            ko(o, "type", ct[i]);
            ff(o, "lastProbeTime"); ff(o, "lastTransitionTime");
            if (p->phase == PH_SUCCEEDED && i != 2) ff(o, "reason");
            ff(o, "status"); ff(o, "type");
            oe(o);
        }
        oe(o);
        ff(o, "containerStatuses");
        ff(o, "hostIP");
        fo(o, "hostIPs");
        ko(o, "ip", x->node->ip); ff(o, "ip"); oe(o);
        oe(o);
        if (w->sidecar || w->init || w->kind == K_DS_CNI) ff(o, "initContainerStatuses");
        ff(o, "phase");
        ff(o, "podIP");
        fo(o, "podIPs");
        ko(o, "ip", x->pod_ip); ff(o, "ip"); oe(o);
        oe(o);
        ff(o, "startTime");
    }
    oe(o);
    oe(o);
    os(o, "manager", p->phase == PH_PENDING ? "kube-scheduler" : "kubelet");
    os(o, "operation", "Update");
    os(o, "subresource", "status");
    ots(o, "time", p->phase == PH_PENDING ? x->created : x->ready);
    oe(o);
    ae(o);
}

static void w_default_tolerations(Out *o)
{
    ob(o, NULL); os(o, "effect", "NoExecute"); os(o, "key", "node.kubernetes.io/not-ready");
    os(o, "operator", "Exists"); oi(o, "tolerationSeconds", 300); oe(o);
    ob(o, NULL); os(o, "effect", "NoExecute"); os(o, "key", "node.kubernetes.io/unreachable");
    os(o, "operator", "Exists"); oi(o, "tolerationSeconds", 300); oe(o);
}

static void write_pod(Out *o, const Cluster *c, const Pod *p, char *msgbuf, size_t msgsz)
{
    PodCtx x = {0};
    x.c = c;
    x.p = p;
    x.w = &c->wl[p->wl];
    const Workload *w = x.w;
    x.ns = ns_name(c, w->ns);
    x.node = p->node >= 0 ? &c->nodes[p->node] : NULL;

    /* workload-level choices: the same for every pod of the workload */
    Rng wr;
    rng_seed(&wr, c->seed, 0x200000000ULL + p->wl);
    rng_uuid(&wr, x.owner_uid);
    snprintf(x.app, sizeof x.app, "app-%u", w->app);
    for (int i = 0; i < w->nctr; i++) {
        snprintf(x.image[i], sizeof x.image[i], "123456789012.dkr.ecr.us-east-1.amazonaws.com/%s/%s%s:%u.%u.%u",
                 x.ns, x.app, i ? "-worker" : "", 1 + rng_below(&wr, 3), rng_below(&wr, 30), rng_below(&wr, 12));
        int perm[NENV];
        for (int k = 0; k < NENV; k++) perm[k] = k;
        for (int k = NENV - 1; k > 0; k--) { int j = (int)rng_below(&wr, (uint32_t)k + 1); int t = perm[k]; perm[k] = perm[j]; perm[j] = t; }
        x.nenv[i] = w->sel == SEL_GPU ? 2 : rng_range(&wr, 1, i ? 3 : 6);
        for (int k = 0; k < x.nenv[i]; k++) {
            x.env_idx[i][k] = perm[k];
            if (ENV[perm[k]].from == 3 && w->qos_mode == 2) x.env_idx[i][k] = 0; /* no limits to refer to */
        }
    }
    x.probe = w->sel == SEL_GPU ? 2 : rng_weighted(&wr, (const int[]){70, 10, 20}, 3);
    x.metrics_port = rng_pct(&wr, 40);
    x.config_vol = rng_pct(&wr, 50);
    x.tmp_vol = rng_pct(&wr, 30);
    x.anti_affinity = w->replicas > 2 && rng_pct(&wr, 20);
    x.sec_ctx = rng_pct(&wr, 35);
    x.own_sa = rng_pct(&wr, 50);
    x.prom = x.metrics_port;
    x.restarted_at = rng_pct(&wr, 15);
    x.grace = rng_pct(&wr, 20) ? 60 : 30;
    if (rng_pct(&wr, 40) && w->kind != K_STS) {
        /* a plain workload: a command-line configured image, no probes, no extra volumes */
        for (int i = 0; i < w->nctr; i++)
            x.nenv[i] = x.nenv[i] > 2 ? 2 : x.nenv[i];
        x.probe = 2;
        x.metrics_port = x.prom = x.config_vol = x.tmp_vol = x.sec_ctx = x.restarted_at = false;
    }
    if (is_ds(w)) {
        snprintf(x.app, sizeof x.app, "%s", w->kind == K_DS_CNI ? "aws-node" : "kube-proxy");
        x.nenv[0] = x.nenv[1] = 0;
        x.probe = 2;
        x.metrics_port = x.config_vol = x.tmp_vol = x.anti_affinity = x.sec_ctx = x.own_sa = false;
        x.prom = x.restarted_at = false;
    }
    int64_t restarted_t = w->created + (NOW - w->created) / 3;
    if (w->kind == K_DEPLOY) {
        snprintf(x.owner_name, sizeof x.owner_name, "%s-%s", x.app, w->hash);
        snprintf(x.owner_kind, sizeof x.owner_kind, "ReplicaSet");
    } else if (w->kind == K_STS) {
        snprintf(x.owner_name, sizeof x.owner_name, "%s", x.app);
        snprintf(x.owner_kind, sizeof x.owner_kind, "StatefulSet");
    } else if (w->kind == K_JOB) {
        snprintf(x.owner_name, sizeof x.owner_name, "%.*s", (int)(strrchr(p->name, '-') - p->name), p->name);
        snprintf(x.owner_kind, sizeof x.owner_kind, "Job");
    } else {
        snprintf(x.owner_name, sizeof x.owner_name, "%s", w->kind == K_DS_CNI ? "aws-node" : "kube-proxy");
        snprintf(x.owner_kind, sizeof x.owner_kind, "DaemonSet");
    }

    /* pod-level choices */
    Rng r;
    rng_seed(&r, c->seed, 0x300000000ULL + p->stream);
    rng_uuid(&r, x.uid);
    char sfx[6];
    rng_alnum(&r, sfx, 5);
    snprintf(x.sa_vol, sizeof x.sa_vol, "kube-api-access-%s", sfx);
    if (p->phase == PH_PENDING)
        x.created = w->pend ? w->created + rng_range(&r, 0, 60) : NOW - rng_range(&r, 60, 3 * 3600);
    else if (is_ds(w))
        x.created = x.node->created + rng_range(&r, 5, 40);
    else if (w->kind == K_JOB)
        x.created = w->created;
    else
        x.created = w->created + (int64_t)rng_below(&r, (uint32_t)(NOW - w->created));
    x.started = x.created + 1;
    x.ready = x.started + rng_range(&r, 8, 60);
    for (int i = 0; i < 2; i++) {
        x.restarts[i] = rng_pct(&r, 5) ? rng_range(&r, 1, 7) : 0;
        x.oom[i] = rng_pct(&r, 30);
    }
    if (x.node) {
        if (is_ds(w))
            snprintf(x.pod_ip, sizeof x.pod_ip, "%s", x.node->ip);
        else
            snprintf(x.pod_ip, sizeof x.pod_ip, "10.%u.%u.%u", (16u * x.node->zone + 8 + rng_below(&r, 8)) % 256,
                     rng_below(&r, 256), 1 + rng_below(&r, 254));
    }

    ob(o, NULL);
    os(o, "apiVersion", "v1");
    os(o, "kind", "Pod");

    /* ---- metadata */
    ob(o, "metadata");
    if (!is_ds(w) && (x.prom || x.restarted_at)) {
        ob(o, "annotations");
        if (x.restarted_at) ots(o, "kubectl.kubernetes.io/restartedAt", restarted_t);
        if (x.prom) { os(o, "prometheus.io/port", "9090"); os(o, "prometheus.io/scrape", "true"); }
        oe(o);
    }
    ots(o, "creationTimestamp", x.created);
    if (w->kind != K_STS)
        osf(o, "generateName", "%.*s", (int)(strrchr(p->name, '-') - p->name + 1), p->name);
    else
        osf(o, "generateName", "%s-", x.app);
    ob(o, "labels");
    if (w->kind == K_JOB) {
        os(o, "app", x.app);
        os(o, "batch.kubernetes.io/controller-uid", x.owner_uid);
        os(o, "batch.kubernetes.io/job-name", x.owner_name);
        os(o, "controller-uid", x.owner_uid);
        os(o, "job-name", x.owner_name);
    } else if (is_ds(w)) {
        os(o, "controller-revision-hash", w->hash);
        os(o, "k8s-app", x.owner_name);
        os(o, "pod-template-generation", "1");
    } else {
        os(o, "app", x.app);
        os(o, "app.kubernetes.io/name", x.app);
        os(o, "app.kubernetes.io/part-of", x.ns);
        if (w->kind == K_STS) osf(o, "apps.kubernetes.io/pod-index", "%u", p->ordinal);
        if (w->kind == K_STS) osf(o, "controller-revision-hash", "%s-%s", x.app, w->hash);
        if (w->kind == K_DEPLOY) os(o, "pod-template-hash", w->hash);
        if (w->kind == K_STS) os(o, "statefulset.kubernetes.io/pod-name", p->name);
        osf(o, "version", "v%u", 1 + (w->app % 3));
    }
    oe(o);
    if (c->managed_fields)
        w_managed_fields(o, &x);
    os(o, "name", p->name);
    os(o, "namespace", x.ns);
    ab(o, "ownerReferences");
    ob(o, NULL);
    os(o, "apiVersion", w->kind == K_JOB ? "batch/v1" : "apps/v1");
    obool(o, "blockOwnerDeletion", true);
    obool(o, "controller", true);
    os(o, "kind", x.owner_kind);
    os(o, "name", x.owner_name);
    os(o, "uid", x.owner_uid);
    oe(o);
    ae(o);
    osf(o, "resourceVersion", "%" PRIu64, UINT64_C(400000000) + rng_next(&r) % UINT64_C(170000000));
    os(o, "uid", x.uid);
    oe(o);

    /* ---- spec */
    ob(o, "spec");
    if (is_ds(w)) {
        ob(o, "affinity"); ob(o, "nodeAffinity"); ob(o, "requiredDuringSchedulingIgnoredDuringExecution");
        ab(o, "nodeSelectorTerms"); ob(o, NULL); ab(o, "matchFields"); ob(o, NULL);
        os(o, "key", "metadata.name"); os(o, "operator", "In"); ab(o, "values"); os(o, NULL, x.node->name); ae(o);
        oe(o); ae(o); oe(o); ae(o); oe(o); oe(o); oe(o);
        ab(o, "containers");
        w_ds_container(o, &x, 0);
        if (w->kind == K_DS_CNI) w_ds_container(o, &x, 1);
        ae(o);
        os(o, "dnsPolicy", "ClusterFirst");
        obool(o, "enableServiceLinks", true);
        obool(o, "hostNetwork", true);
        os(o, "nodeName", x.node->name);
        os(o, "preemptionPolicy", "PreemptLowerPriority");
        oi(o, "priority", 2000001000);
        os(o, "priorityClassName", "system-node-critical");
        os(o, "restartPolicy", "Always");
        os(o, "schedulerName", "default-scheduler");
        oempty(o, "securityContext");
        os(o, "serviceAccount", x.owner_name);
        os(o, "serviceAccountName", x.owner_name);
        oi(o, "terminationGracePeriodSeconds", 1);
        ab(o, "tolerations");
        ob(o, NULL); os(o, "operator", "Exists"); oe(o);
        static const char *dst[][2] = {{"NoExecute", "node.kubernetes.io/not-ready"}, {"NoExecute", "node.kubernetes.io/unreachable"},
                                       {"NoSchedule", "node.kubernetes.io/disk-pressure"}, {"NoSchedule", "node.kubernetes.io/memory-pressure"},
                                       {"NoSchedule", "node.kubernetes.io/pid-pressure"}, {"NoSchedule", "node.kubernetes.io/unschedulable"},
                                       {"NoSchedule", "node.kubernetes.io/network-unavailable"}};
        for (size_t i = 0; i < G_N_ELEMENTS(dst); i++) {
            ob(o, NULL); os(o, "effect", dst[i][0]); os(o, "key", dst[i][1]); os(o, "operator", "Exists"); oe(o);
        }
        ae(o);
    } else {
        if (x.anti_affinity || w->sel == SEL_ZONE_AFFINITY) {
            ob(o, "affinity");
            if (w->sel == SEL_ZONE_AFFINITY) {
                ob(o, "nodeAffinity"); ob(o, "requiredDuringSchedulingIgnoredDuringExecution");
                ab(o, "nodeSelectorTerms"); ob(o, NULL); ab(o, "matchExpressions"); ob(o, NULL);
                os(o, "key", "topology.kubernetes.io/zone"); os(o, "operator", "NotIn");
                ab(o, "values"); os(o, NULL, ZONES[w->sel_arg]); ae(o);
                oe(o); ae(o); oe(o); ae(o); oe(o); oe(o);
            }
            if (x.anti_affinity) {
                ob(o, "podAntiAffinity"); ab(o, "preferredDuringSchedulingIgnoredDuringExecution"); ob(o, NULL);
                ob(o, "podAffinityTerm"); ob(o, "labelSelector"); ob(o, "matchLabels"); os(o, "app", x.app); oe(o); oe(o);
                os(o, "topologyKey", "kubernetes.io/hostname"); oe(o);
                oi(o, "weight", 100);
                oe(o); ae(o); oe(o);
            }
            oe(o);
        }
        ab(o, "containers");
        for (int i = 0; i < w->nctr; i++)
            w_container(o, &x, i);
        ae(o);
        os(o, "dnsPolicy", "ClusterFirst");
        obool(o, "enableServiceLinks", true);
        if (w->kind == K_STS) os(o, "hostname", p->name);
        if (w->sidecar || w->init) {
            ab(o, "initContainers");
            if (w->sidecar) w_container(o, &x, -1);
            if (w->init) w_container(o, &x, -2);
            ae(o);
        }
        if (x.node) os(o, "nodeName", x.node->name);
        if (w->sel == SEL_NG || w->sel == SEL_GPU || w->sel == SEL_MISSING_NG || w->sel == SEL_PINNED) {
            ob(o, "nodeSelector");
            if (w->sel == SEL_GPU) os(o, "nvidia.com/gpu.present", "true");
            else if (w->sel == SEL_NG) os(o, "eks.amazonaws.com/nodegroup", SHAPES[w->sel_arg].ng);
            else if (w->sel == SEL_PINNED) osf(o, "eks.amazonaws.com/nodegroup", "pinned-%d", w->sel_arg);
            else os(o, "eks.amazonaws.com/nodegroup", "arm64-spot");
            oe(o);
        }
        os(o, "preemptionPolicy", "PreemptLowerPriority");
        oi(o, "priority", 0);
        os(o, "restartPolicy", w->kind == K_JOB ? "Never" : "Always");
        os(o, "schedulerName", "default-scheduler");
        ob(o, "securityContext");
        if (x.sec_ctx) { oi(o, "fsGroup", 1000); obool(o, "runAsNonRoot", true); oi(o, "runAsUser", 1000); }
        oe(o);
        os(o, "serviceAccount", x.own_sa ? x.app : "default");
        os(o, "serviceAccountName", x.own_sa ? x.app : "default");
        if (w->kind == K_STS) osf(o, "subdomain", "%s-headless", x.app);
        oi(o, "terminationGracePeriodSeconds", x.grace);
        ab(o, "tolerations");
        if (w->sel == SEL_GPU || w->pend == PEND_TWO_GPU) {
            ob(o, NULL); os(o, "effect", "NoSchedule"); os(o, "key", "dedicated"); os(o, "operator", "Equal");
            os(o, "value", "gpu"); oe(o);
        }
        w_default_tolerations(o);
        ae(o);
    }
    ab(o, "volumes");
    if (x.config_vol && !is_ds(w)) {
        ob(o, NULL); ob(o, "configMap"); oi(o, "defaultMode", 420); osf(o, "name", "%s-config", x.app); oe(o);
        os(o, "name", "config"); oe(o);
    }
    if (w->kind == K_STS) {
        ob(o, NULL); os(o, "name", "data"); ob(o, "persistentVolumeClaim"); osf(o, "claimName", "data-%s", p->name); oe(o); oe(o);
    }
    if ((x.tmp_vol || w->sidecar) && !is_ds(w)) {
        ob(o, NULL); ob(o, "emptyDir"); os(o, "sizeLimit", "1Gi"); oe(o); os(o, "name", "tmp"); oe(o);
    }
    ob(o, NULL);
    os(o, "name", x.sa_vol);
    ob(o, "projected");
    oi(o, "defaultMode", 420);
    ab(o, "sources");
    ob(o, NULL); ob(o, "serviceAccountToken"); oi(o, "expirationSeconds", 3607); os(o, "path", "token"); oe(o); oe(o);
    ob(o, NULL); ob(o, "configMap"); ab(o, "items"); ob(o, NULL); os(o, "key", "ca.crt"); os(o, "path", "ca.crt"); oe(o); ae(o);
    os(o, "name", "kube-root-ca.crt"); oe(o); oe(o);
    ob(o, NULL); ob(o, "downwardAPI"); ab(o, "items"); ob(o, NULL); ob(o, "fieldRef"); os(o, "apiVersion", "v1");
    os(o, "fieldPath", "metadata.namespace"); oe(o); os(o, "path", "namespace"); oe(o); ae(o); oe(o); oe(o);
    ae(o);
    oe(o);
    oe(o);
    ae(o);
    oe(o);

    /* ---- status */
    const char *qos = is_ds(w) ? "Burstable" : pod_qos(w);
    ob(o, "status");
    if (p->phase == PH_PENDING) {
        ab(o, "conditions");
        unschedulable_message(c, w, msgbuf, msgsz);
        w_condition(o, "PodScheduled", "False", x.created, "Unschedulable", msgbuf);
        ae(o);
        os(o, "phase", "Pending");
        os(o, "qosClass", qos);
    } else {
        bool done = p->phase == PH_SUCCEEDED;
        bool has_init = w->sidecar || w->init || w->kind == K_DS_CNI;
        int64_t init_done = x.started + (has_init ? 3 : 0);
        ab(o, "conditions");
        if (done) {
            w_condition(o, "PodReadyToStartContainers", "False", x.ready + 41, NULL, NULL);
            w_condition(o, "Initialized", "True", x.started, "PodCompleted", NULL);
            w_condition(o, "Ready", "False", x.ready + 40, "PodCompleted", NULL);
            w_condition(o, "ContainersReady", "False", x.ready + 40, "PodCompleted", NULL);
        } else {
            w_condition(o, "PodReadyToStartContainers", "True", x.started + 1, NULL, NULL);
            w_condition(o, "Initialized", "True", init_done, NULL, NULL);
            w_condition(o, "Ready", "True", x.ready, NULL, NULL);
            w_condition(o, "ContainersReady", "True", x.ready, NULL, NULL);
        }
        w_condition(o, "PodScheduled", "True", x.created, NULL, NULL);
        ae(o);
        ab(o, "containerStatuses");
        if (is_ds(w)) {
            if (w->kind == K_DS_CNI) {
                w_cstatus(o, &x, &r, "aws-eks-nodeagent", "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon/aws-network-policy-agent:v1.1.3-eksbuild.1", -1, 0);
                w_cstatus(o, &x, &r, "aws-node", "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni:v1.18.5-eksbuild.1", -1, 0);
            } else {
                w_cstatus(o, &x, &r, "kube-proxy", "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/kube-proxy:v1.30.3-minimal-eksbuild.5", -1, 0);
            }
        } else {
            /* kubelet lists container statuses sorted by name */
            int order[2] = {0, 1};
            if (w->nctr == 2 && strcmp(x.app, "worker") > 0) { order[0] = 1; order[1] = 0; }
            for (int k = 0; k < w->nctr; k++) {
                int i = order[k];
                w_cstatus(o, &x, &r, i ? "worker" : x.app, x.image[i], i, done ? 3 : 0);
            }
        }
        ae(o);
        os(o, "hostIP", x.node->ip);
        ab(o, "hostIPs"); ob(o, NULL); os(o, "ip", x.node->ip); oe(o); ae(o);
        if (has_init && !is_ds(w)) {
            ab(o, "initContainerStatuses");
            if (w->sidecar)
                w_cstatus(o, &x, &r, "log-shipper", "public.ecr.aws/aws-observability/aws-for-fluent-bit:2.32.2.20241008", -1, done ? 1 : 2);
            if (w->init)
                w_cstatus(o, &x, &r, "wait-for-db", "docker.io/library/busybox:1.36", -1, 1);
            ae(o);
        }
        os(o, "phase", done ? "Succeeded" : "Running");
        os(o, "podIP", x.pod_ip);
        ab(o, "podIPs"); ob(o, NULL); os(o, "ip", x.pod_ip); oe(o); ae(o);
        os(o, "qosClass", qos);
        ots(o, "startTime", x.started);
    }
    oe(o);
    oe(o);
}

/* ------------------------------------------------------------------ files */

static bool out_open(Out *o, const char *path, int indent)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->indent = indent;
    o->f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    if (!o->f) {
        fprintf(stderr, "gen-cluster: %s: cannot open for writing\n", path);
        return false;
    }
    o->buf = g_malloc(OUT_CAP);
    return true;
}

static bool out_close(Out *o)
{
    out_c(o, '\n');
    out_flush(o);
    bool ok = !o->failed;
    if (o->f != stdout) {
        if (fclose(o->f) != 0)
            ok = false;
    } else if (fflush(o->f) != 0) {
        ok = false;
    }
    if (!ok)
        fprintf(stderr, "gen-cluster: %s: write error\n", o->path);
    g_free(o->buf);
    o->buf = NULL;
    return ok;
}

static void list_begin(Out *o)
{
    ob(o, NULL);
    os(o, "apiVersion", "v1");
    ab(o, "items");
}

static void list_end(Out *o, const char *kind, uint64_t rv)
{
    ae(o);
    os(o, "kind", kind);
    ob(o, "metadata");
    osf(o, "resourceVersion", "%" PRIu64, rv);
    oe(o);
    oe(o);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    gint nodes = 5000, pods = 150000, indent = 0;
    gint64 seed = 1;
    gchar *out_nodes = NULL, *out_pods = NULL;
    gboolean no_mf = FALSE, quiet = FALSE;
    GOptionEntry entries[] = {
        {"nodes", 'n', 0, G_OPTION_ARG_INT, &nodes, "number of nodes (default 5000)", "N"},
        {"pods", 'p', 0, G_OPTION_ARG_INT, &pods, "number of pods, DaemonSet pods included (default 150000)", "N"},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &seed, "seed; the same seed and options give the same bytes (default 1)", "S"},
        {"out-nodes", 0, 0, G_OPTION_ARG_FILENAME, &out_nodes, "write the NodeList here ('-' for stdout)", "FILE"},
        {"out-pods", 0, 0, G_OPTION_ARG_FILENAME, &out_pods, "write the PodList here ('-' for stdout)", "FILE"},
        {"indent", 0, 0, G_OPTION_ARG_INT, &indent, "spaces per level: 0 compact as the API server sends (default), 4 as kubectl prints", "N"},
        {"no-managed-fields", 0, 0, G_OPTION_ARG_NONE, &no_mf, "omit metadata.managedFields (kubectl get hides them by default)", NULL},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no summary on stderr", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GError *err = NULL;
    GOptionContext *ctx = g_option_context_new("- write a synthetic cluster as kubectl get -o json output");
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        fprintf(stderr, "gen-cluster: %s\n", err->message);
        g_error_free(err);
        g_option_context_free(ctx);
        return 2;
    }
    g_option_context_free(ctx);
    if (nodes < 1 || nodes > 1000000 || pods < 0 || pods > 20000000 || indent < 0 || indent > 16 ||
        (!out_nodes && !out_pods)) {
        fprintf(stderr, "gen-cluster: need 1 <= --nodes <= 1000000, 0 <= --pods <= 20000000, 0 <= --indent <= 16, "
                        "and --out-nodes and/or --out-pods\n");
        g_free(out_nodes);
        g_free(out_pods);
        return 2;
    }

    double t0 = now_s();
    Cluster c = {0};
    c.nnodes = nodes;
    c.npods = pods;
    c.seed = (uint64_t)seed;
    c.indent = indent;
    c.managed_fields = !no_mf;
    plan(&c);
    if (c.npod > 1)
        qsort(c.pods, (size_t)c.npod, sizeof(Pod), cmp_pod);
    double t1 = now_s();

    int rc = 0;
    uint64_t node_bytes = 0, pod_bytes = 0;
    if (out_nodes) {
        Out o;
        if (!out_open(&o, out_nodes, indent)) {
            rc = 1;
        } else {
            list_begin(&o);
            for (int i = 0; i < c.nnodes; i++)
                write_node(&o, &c, &c.nodes[i]);
            list_end(&o, "NodeList", 571234567ULL + (uint64_t)seed);
            node_bytes = o.total + o.len;
            if (!out_close(&o))
                rc = 1;
        }
    }
    double t2 = now_s();
    int counts[3] = {0};
    if (out_pods && rc == 0) {
        Out o;
        if (!out_open(&o, out_pods, indent)) {
            rc = 1;
        } else {
            char *msg = g_malloc(4096);
            list_begin(&o);
            for (int i = 0; i < c.npod; i++) {
                write_pod(&o, &c, &c.pods[i], msg, 4096);
                counts[c.pods[i].phase]++;
            }
            list_end(&o, "PodList", 571234567ULL + (uint64_t)seed);
            pod_bytes = o.total + o.len;
            g_free(msg);
            if (!out_close(&o))
                rc = 1;
        }
    }
    double t3 = now_s();

    if (!quiet && rc == 0) {
        int cordoned = 0, notready = 0, gpu = 0;
        for (int i = 0; i < c.nnodes; i++) {
            cordoned += c.nodes[i].cordoned;
            notready += c.nodes[i].notready;
            gpu += c.nodes[i].shape == SHAPE_GPU;
        }
        fprintf(stderr, "gen-cluster: %d nodes (%d GPU, %d cordoned, %d NotReady, %d pinned groups), "
                        "%d workloads, %d namespaces\n",
                c.nnodes, gpu, cordoned, notready, c.npinned, c.nwl, c.nns);
        if (out_pods)
            fprintf(stderr, "gen-cluster: %d pods: %d Running, %d Pending (%.2f%%), %d Succeeded (%.2f%%)\n", c.npod,
                    counts[PH_RUNNING], counts[PH_PENDING], c.npod ? 100.0 * counts[PH_PENDING] / c.npod : 0.0,
                    counts[PH_SUCCEEDED], c.npod ? 100.0 * counts[PH_SUCCEEDED] / c.npod : 0.0);
        if (out_nodes)
            fprintf(stderr, "gen-cluster: nodes %" PRIu64 " bytes (%.0f per node)\n", node_bytes,
                    (double)node_bytes / c.nnodes);
        if (out_pods && c.npod)
            fprintf(stderr, "gen-cluster: pods %" PRIu64 " bytes (%.0f per pod)\n", pod_bytes, (double)pod_bytes / c.npod);
        int64_t ac = 0, am = 0, uc = 0, um = 0;
        for (int i = 0; i < c.nnodes; i++) {
            ac += c.nodes[i].alloc_cpu; am += c.nodes[i].alloc_mem;
            uc += c.nodes[i].used_cpu; um += c.nodes[i].used_mem;
        }
        fprintf(stderr, "gen-cluster: requested by bound pods: cpu %.1f%% of %" PRId64 " cores, memory %.1f%% of %" PRId64 " GiB\n",
                100.0 * (double)uc / (double)ac, ac / 1000, 100.0 * (double)um / (double)am, am / GI);
        fprintf(stderr, "gen-cluster: plan %.2f s, nodes %.2f s, pods %.2f s\n", t1 - t0, t2 - t1, t3 - t2);
    }

    for (int s = 0; s < 6; s++)
        g_free(c.ng_nodes[s]);
    g_free(c.ng_nodes);
    g_free(c.ng_count);
    g_free(c.pinned_nodes);
    g_free(c.nodes);
    g_free(c.wl);
    g_free(c.pods);
    g_free(c.ns_names);
    g_free(c.ns_rank);
    g_free(out_nodes);
    g_free(out_pods);
    return rc;
}
