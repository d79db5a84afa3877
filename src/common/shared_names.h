/* shared_names.h - the one spelling of every name two programs must agree on: the CLSIDs of
 * the profilers the command loads (hello, the sampler), the control endpoint names an SDK
 * profiler opens and the library finds (a socket on Linux, a pipe on Windows), and the
 * main-detached mark's place (its helpers are in main_detached_mark.h). The command
 * (src/cli), the library (src/clrattach), the SDK (src/clrprof) and the profilers include it;
 * unit.shared_names (tests/layers/check_shared_names.sh) fails when one of these is spelled
 * anywhere else in src/ or profilers/.
 *
 * Macros only: nothing here becomes code or data unless a program uses it.
 */
#ifndef CLRA_COMMON_SHARED_NAMES_H
#define CLRA_COMMON_SHARED_NAMES_H

/* A CLSID is written once, as its eleven groups of hex digits handed to an X macro: the
 * text form (what --clsid and the endpoints show) and the GUID initializer (what a profiler's
 * clrprof_def_t holds) are both made from that one list. */
#define CLSID_TEXT(a, b, c, d0, d1, d2, d3, d4, d5, d6, d7) \
    #a "-" #b "-" #c "-" #d0 #d1 "-" #d2 #d3 #d4 #d5 #d6 #d7
#define CLSID_GUID(a, b, c, d0, d1, d2, d3, d4, d5, d6, d7) \
    {0x##a, 0x##b, 0x##c, {0x##d0, 0x##d1, 0x##d2, 0x##d3, 0x##d4, 0x##d5, 0x##d6, 0x##d7}}

/* The hello profiler (profilers/hello): the default where a verb takes --clsid. */
#define CLSID_HELLO(X) X(5E3E0C65, 3E00, 442D, B0, AD, 7F, 2D, 7F, 89, 46, DF)
/* The sampler (profilers/sampler) as the main profiler: clrattach profile, stack and launch
 * --profile. */
#define CLSID_SAMPLER(X) X(8A3C5B1E, 6F0D, 4C2A, 9E, 57, 2D, 4F, 1B, 3A, 6C, 90)
/* The same sampler as a notification-only profiler, beside a main profiler that holds the
 * runtime's one main slot (an APM agent): the load kind is chosen by the CLSID sent. */
#define CLSID_SAMPLER_BESIDE(X) X(8A3C5B1E, 6F0D, 4C2A, 9E, 57, 2D, 4F, 1B, 3A, 6C, 91)

#define CLSID_HELLO_TEXT CLSID_HELLO(CLSID_TEXT)
#define CLSID_SAMPLER_TEXT CLSID_SAMPLER(CLSID_TEXT)
#define CLSID_SAMPLER_BESIDE_TEXT CLSID_SAMPLER_BESIDE(CLSID_TEXT)

/* Characters of a CLSID as the endpoints spell it: lowercase hex, dashes, no braces. */
#define CLSID_TEXT_LEN 36

/* Every control endpoint's name starts with this. On Linux an SDK profiler listens on
 * <TMPDIR>/clrprof-<pid>-<clsid>.sock (pid and TMPDIR as the target sees them), beside the
 * runtime's diagnostic socket; on Windows on \\.\pipe\clrprof-<pid>-<slot>, the first free of
 * CONTROL_SLOTS slots, since a pipe name cannot be listed there (wine). */
#define CONTROL_NAME_PREFIX "clrprof-"
#define CONTROL_SOCKET_SUFFIX ".sock"
#define CONTROL_SOCKET_FORMAT CONTROL_NAME_PREFIX "%d-%s" CONTROL_SOCKET_SUFFIX
#define CONTROL_PIPE_FORMAT "\\\\.\\pipe\\" CONTROL_NAME_PREFIX "%d-%d"
#define CONTROL_SLOTS 8

/* The main-detached mark: an empty file MARK__DIR/MARK__PREFIX<pidns>.<pid>.<start>.<random>
 * (main_detached_mark.h says why each part is there). */
#define MARK__DIR "/dev/shm"
#define MARK__PREFIX "clrprof-main-detached."

#endif
