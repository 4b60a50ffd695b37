/* fitscale — where the API server is and who we are to it, as kubectl decides.
 *
 * Resolves the connection flags every command takes against the kubeconfig files (client-go
 * tools/clientcmd loader.go: --kubeconfig alone, else KUBECONFIG's files merged in order
 * with the first definition of a key winning and entries taken whole, else
 * ~/.kube/config) or, when no kubeconfig is found and KUBERNETES_SERVICE_HOST/PORT are set,
 * the in-cluster service account (client-go rest/config.go InClusterConfig).  The result,
 * an FsRestConfig, owns copies of everything it holds; secrets in it are never printed. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The flags, as given (NULL or FALSE when absent). */
typedef struct {
  char *kubeconfig;
  char *context;
  char *cluster;
  char *user;
  char *server;
  char *token;
  char *certificate_authority;
  char *client_certificate;
  char *client_key;
  gboolean insecure_skip_tls_verify;
  char *tls_server_name;
  char *request_timeout;     /* "30s", "1m", "0" (none) */
  char *namespace;
} FsConnectionFlags;

void fs_connection_flags_clear (FsConnectionFlags *flags);

/* users[].user.exec */
typedef struct {
  char *command;             /* resolved against the kubeconfig's directory when it has a slash */
  char **args;
  char **env;                /* NAME=VALUE */
  char *api_version;         /* client.authentication.k8s.io/v1 or v1beta1 */
  char *install_hint;
  gboolean provide_cluster_info;
  char *interactive_mode;    /* Never, IfAvailable, Always */
} FsExecConfig;

typedef struct {
  char *source;              /* "kubeconfig /path (context NAME)", "in-cluster", "flags" */
  char *context;
  char *user;                /* the user entry's name, for messages */
  char *server;              /* https://host:port, no trailing slash */
  char *tls_server_name;
  gboolean insecure;
  GBytes *ca_pem;            /* certificate-authority(-data); NULL: the system's */
  char *ca_origin;           /* the file or "certificate-authority-data", for messages */
  GBytes *client_cert_pem;
  GBytes *client_key_pem;
  char *token;
  char *token_file;          /* re-read when it changes (bound service-account tokens) */
  char *proxy_url;
  gboolean disable_compression;
  FsExecConfig *exec;
  char *namespace;           /* -n, else the context's, else the service account's, else default */
  char *context_namespace;   /* the context's or the service account's namespace, NULL if none */
  gboolean namespace_explicit; /* -n was given */
  int64_t timeout_ms;        /* --request-timeout; 0 = none */
} FsRestConfig;

/* Resolves FLAGS (with the process environment: KUBECONFIG, HOME, KUBERNETES_SERVICE_*).
 * Errors name the kubeconfig file and the entry. */
FsRestConfig *fs_rest_config_load (const FsConnectionFlags *flags, GError **error);
void fs_rest_config_free (FsRestConfig *config);
/* A deep copy (a second client's: kube/client.h fs_kube_client_clone). */
FsRestConfig *fs_rest_config_copy (const FsRestConfig *config);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsRestConfig, fs_rest_config_free)

/* The directory holding the in-cluster service account files: FS_SERVICEACCOUNT_DIR when set
 * (tests), else /var/run/secrets/kubernetes.io/serviceaccount. */
const char *fs_service_account_dir (void);

/* "30s", "2m", "1h", "500ms" or a bare number of seconds: milliseconds.  FALSE on junk. */
gboolean fs_parse_request_timeout (const char *text, int64_t *ms);

/* Reads PATH whole, as g_file_get_contents does (NUL-terminated *CONTENTS, *LENGTH may be NULL),
 * but stops past MAX_BYTES: FS_ERROR_LIMIT naming WHAT and PATH, so that a kubeconfig, token or
 * certificate path pointing at /dev/zero or a huge file fails at once instead of filling
 * memory. */
gboolean fs_read_small_file (const char *path, const char *what, gsize max_bytes, char **contents,
                             gsize *length, GError **error);

G_END_DECLS
