/*
 * store_info.c: what the SQLite layer says about itself. The rest of the
 * store arrives with the pack database; this file keeps <sqlite3.h> inside
 * the store module from the start.
 */
#include <sqlite3.h>

#include "base/version.h"

const char *qn_version_sqlite(void)
{
    return sqlite3_libversion();
}
