/* A C program that links libjom.a as a libyaul or Jo Engine program does: its own start
 * (here `main` is the entry) and linker script (the toolchain's default), and none of our
 * rt/ but memcpy & co (rt/mem.c, for a C library). ci/capi.sh builds it without
 * --gc-sections, so that every reference of the library must resolve, with
 * `every_function`: the address of each function jom.h declares, which ci/capi.sh lists
 * from the header. */
#include "jom.h"

typedef void (*jom_function)(void);
extern const jom_function every_function[];

int main(void) {
    return every_function[0] != 0 && jom_error_message(JOM_OK)[0] != 0;
}
