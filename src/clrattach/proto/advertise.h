/* advertise.h - the advertise message runtimes send to a reverse server (internal). */
#ifndef CLRA_PROTO_ADVERTISE_H
#define CLRA_PROTO_ADVERTISE_H

#include "proto/wire.h"

#define CLRA__ADVERTISE_SIZE 34

/* Validates "ADVR_V1\0" and reads cookie and pid. 0 or CLRA_EPROTO. */
int clra__parse_advertise(const uint8_t bytes[CLRA__ADVERTISE_SIZE], clra_advertise_t *ad);

#endif
