/* process_info.h - the ProcessInfo family's reply parser (internal, unit-tested). */
#ifndef CLRA_PROCESS_INFO_H
#define CLRA_PROCESS_INFO_H

#include "ipc/request.h"

/* Parses the payload of an OK reply to ProcessInfo (command 1), ProcessInfo2 (2) or
 * ProcessInfo3 (3) into out, whose strings are allocated. Returns 0, CLRA_ENOMEM, or
 * CLRA_EPROTO with st->detail naming the field and offset that was wrong; out then holds
 * nothing to free. */
int clra__parse_process_info(int command, const uint8_t *payload, size_t len,
                             clra_process_info_t *out, clra_status_t *st);
/* "ProcessInfo", "ProcessInfo2" or "ProcessInfo3". */
const char *clra__process_info_name(int command);

#endif
