// The one C header of the crypto layer: OpenSSL's high-level cipher interface
// (libcrypto, from Debian's libssl-dev). Only BuntingCrypto imports it.
#ifndef BUNTING_CCRYPTO_SHIM_H
#define BUNTING_CCRYPTO_SHIM_H

#include <openssl/evp.h>

#endif
