// The one C header of the crypto layer. libcrypto is not linked but loaded
// on first use (see crypto_loader.c): linked, it was mapped into every
// process and 1.4 MB of it resident (smaps), though only a GrowthBook
// payload with encrypted sections uses it. These functions stand in for
// OpenSSL's high-level cipher interface and call it through the loaded
// symbols; openssl/evp.h (Debian's libssl-dev) gives the types.
#ifndef BUNTING_CCRYPTO_SHIM_H
#define BUNTING_CCRYPTO_SHIM_H

#include <openssl/evp.h>

/// Loads libcrypto, once per process (thread-safe). Returns NULL when it is
/// usable, or why it is not. Every other function here must only be called
/// after it returned NULL.
const char *bunting_crypto_load(void);

/// AES in CBC mode for a key of 16, 24 or 32 bytes; NULL for another length.
const EVP_CIPHER *bunting_crypto_aes_cbc(int key_length);

EVP_CIPHER_CTX *bunting_crypto_context_new(void);
void bunting_crypto_context_free(EVP_CIPHER_CTX *context);

/// EVP_EncryptInit_ex or EVP_DecryptInit_ex, by `encrypting`.
int bunting_crypto_init(EVP_CIPHER_CTX *context, const EVP_CIPHER *cipher, const unsigned char *key,
                        const unsigned char *iv, int encrypting);
/// EVP_EncryptUpdate or EVP_DecryptUpdate, by `encrypting`.
int bunting_crypto_update(EVP_CIPHER_CTX *context, unsigned char *output, int *written, const unsigned char *input,
                          int length, int encrypting);
/// EVP_EncryptFinal_ex or EVP_DecryptFinal_ex, by `encrypting`.
int bunting_crypto_final(EVP_CIPHER_CTX *context, unsigned char *output, int *written, int encrypting);

#endif
