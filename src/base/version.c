/*
 * version.c: quench's own version, set by the Makefile (QN_VERSION).
 */
#include "base/version.h"

const char *qn_version(void)
{
    return QN_VERSION;
}
