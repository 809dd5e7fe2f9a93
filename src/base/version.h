/*
 * version.h: the versions of quench and of the libraries it runs on, for
 * `quench --version` and bug reports. Each third-party version comes from
 * the one module that wraps that library.
 */
#ifndef QN_VERSION_H
#define QN_VERSION_H

#include "quench/common.h"

const char *qn_version(void);         /* quench itself */
const char *qn_version_sqlite(void);  /* store_info.c */
const char *qn_version_yaml(void);    /* rules_yaml.c */
const char *qn_version_sodium(void);  /* rng.c */
const char *qn_version_jansson(void); /* json_alloc.c */
const char *qn_version_libpng(void);  /* export/raster.c */

#endif
