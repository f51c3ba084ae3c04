/* The C functions that Rust's `core` calls on a bare-metal target. compiler_builtins has
 * them too, but its copies are not linked (see ci/sh2-ld), so the SH-2 build takes these.
 * Built with -fno-builtin and -fno-tree-loop-distribute-patterns so that GCC does not turn
 * the loops back into calls to the functions themselves. Word-sized copies when both
 * pointers allow it: the SH-2 faults on misaligned 32-bit accesses. */
typedef __SIZE_TYPE__ size_t;
typedef unsigned long word;

static int both_aligned(const void *a, const void *b)
{
    return (((unsigned long)a | (unsigned long)b) & (sizeof(word) - 1)) == 0;
}

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (both_aligned(d, s)) {
        for (; n >= sizeof(word); n -= sizeof(word), d += sizeof(word), s += sizeof(word))
            *(word *)d = *(const word *)s;
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d <= s || d >= s + n)
        return memcpy(dst, src, n);
    while (n--)
        d[n] = s[n];
    return dst;
}

/* Words from the first aligned byte: the arrays Rust zeroes (a sort's counts, 2 KiB) took
 * some 7 cycles a byte one byte at a time. */
void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    word fill = (unsigned char)c;
    fill |= fill << 8;
    fill |= fill << 16;
    for (; n && ((unsigned long)d & (sizeof(word) - 1)); n--)
        *d++ = (unsigned char)c;
    for (; n >= sizeof(word); n -= sizeof(word), d += sizeof(word))
        *(word *)d = fill;
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

/* Called by `core` where it cannot unwind. A program may define its own (the SH-2 test
 * runner exits with an error); this one stops the CPU in a loop. */
__attribute__((weak)) void abort(void)
{
    for (;;)
        ;
}
