/* fitscale — the FS_ERROR domain (see include/fitscale/error.h). */
#include "fitscale/model/error.h"

G_DEFINE_QUARK (fitscale-error-quark, fs_error)
