/* test_apps.h - for unit tests that read the .NET assemblies under tests/apps.
 *
 * Those assemblies are built by `dotnet build` (the test_apps target). A build configured
 * without the .NET SDK defines CLRA_TEST_APPS_MISSING (the reason) and empty paths; the tests
 * that need the files then call NEED_TEST_APPS() and are reported as skipped, never passed.
 */
#ifndef CLRA_TEST_APPS_H
#define CLRA_TEST_APPS_H

#include "test.h"

#ifdef CLRA_TEST_APPS_MISSING
#define NEED_TEST_APPS() SKIP("needs the .NET test assemblies (tests/apps): %s", CLRA_TEST_APPS_MISSING)
#else
#define NEED_TEST_APPS() ((void)0)
#endif

#endif
