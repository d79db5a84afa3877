/* Unit tests of the bounded wire writer/reader and the UTF-8 <-> UTF-16 conversion. */
#include "test.h"
#include "proto/wire.h"

#include <stdlib.h>

TEST(wire_integers_are_little_endian)
{
    uint8_t buf[15];
    clra__writer_t w;
    clra__writer_init(&w, buf, sizeof buf);
    clra__put_u8(&w, 0xAB);
    clra__put_u16(&w, 0x1234);
    clra__put_u32(&w, 0x89ABCDEF);
    clra__put_u64(&w, 0x0102030405060708ULL);
    static const uint8_t want[15] = {0xAB, 0x34, 0x12, 0xEF, 0xCD, 0xAB, 0x89, 8, 7, 6, 5, 4, 3, 2, 1};
    ASSERT_EQ(w.err, 0);
    ASSERT_EQ(w.len, 15);
    ASSERT_MEMEQ(buf, want, 15);
}

TEST(wire_writer_overflow_is_sticky)
{
    uint8_t buf[5];
    clra__writer_t w;
    clra__writer_init(&w, buf, sizeof buf);
    clra__put_u32(&w, 1);
    clra__put_u16(&w, 2); /* does not fit */
    clra__put_u8(&w, 3);  /* would fit, but the error is sticky */
    ASSERT_EQ(w.err, CLRA_ETOOBIG);
    ASSERT_EQ(w.len, 4);
}

/* The spec's example CLSID and its bytes on the wire (docs/protocol.md 2.3). */
TEST(wire_guid_uses_windows_memory_order)
{
    clra_guid_t g;
    uint8_t buf[16];
    clra__writer_t w;
    static const uint8_t want[16] = {0x1C, 0x5F, 0x6F, 0x84, 0xAE, 0xF9, 0x07, 0x4B,
                                     0x96, 0x9E, 0x05, 0xC2, 0x6B, 0xC0, 0x60, 0xD8};
    ASSERT_EQ(clra_guid_parse("{846F5F1C-F9AE-4B07-969E-05C26BC060D8}", &g), 0);
    clra__writer_init(&w, buf, sizeof buf);
    clra__put_guid(&w, &g);
    ASSERT_MEMEQ(buf, want, 16);
    clra__reader_t r;
    clra_guid_t back;
    clra__reader_init(&r, buf, 16);
    clra__get_guid(&r, &back);
    ASSERT_MEMEQ(&back, &g, sizeof g);
}

TEST(wire_string_counts_units_including_terminator)
{
    uint8_t buf[64];
    clra__writer_t w;
    clra__writer_init(&w, buf, sizeof buf);
    clra__put_string(&w, "/p.so");
    static const uint8_t want[] = {6, 0, 0, 0, '/', 0, 'p', 0, '.', 0, 's', 0, 'o', 0, 0, 0};
    ASSERT_EQ(w.len, sizeof want);
    ASSERT_MEMEQ(buf, want, sizeof want);
}

TEST(wire_string_encodes_non_ascii_and_surrogate_pairs)
{
    /* "é" U+00E9, "€" U+20AC, "😀" U+1F600 (a surrogate pair), and a space. */
    uint8_t buf[64];
    clra__writer_t w;
    clra__writer_init(&w, buf, sizeof buf);
    clra__put_string(&w, "\xC3\xA9\xE2\x82\xAC \xF0\x9F\x98\x80");
    static const uint8_t want[] = {6, 0, 0, 0, 0xE9, 0x00, 0xAC, 0x20, ' ', 0,
                                   0x3D, 0xD8, 0x00, 0xDE, 0, 0};
    ASSERT_EQ(w.err, 0);
    ASSERT_EQ(w.len, sizeof want);
    ASSERT_MEMEQ(buf, want, sizeof want);
    clra__reader_t r;
    clra__reader_init(&r, buf, w.len);
    char *back = clra__get_string(&r);
    ASSERT_STREQ(back, "\xC3\xA9\xE2\x82\xAC \xF0\x9F\x98\x80");
    free(back);
}

TEST(wire_invalid_utf8_is_rejected)
{
    static const char *const bad[] = {
        "\xC0\x80",         /* overlong NUL */
        "\x80",             /* lone continuation byte */
        "\xED\xA0\x80",     /* an encoded surrogate */
        "\xF4\x90\x80\x80", /* above U+10FFFF */
        "ab\xE2\x82",       /* truncated sequence */
        "\xFF",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t buf[64];
        clra__writer_t w;
        clra__writer_init(&w, buf, sizeof buf);
        clra__put_string(&w, bad[i]);
        ASSERT_MSG(w.err == CLRA_EENCODING, "input %zu was accepted", i);
    }
}

TEST(wire_absent_string_is_count_zero)
{
    uint8_t buf[8];
    clra__writer_t w;
    clra__writer_init(&w, buf, sizeof buf);
    clra__put_string(&w, NULL);
    ASSERT_EQ(w.len, 4);
    clra__reader_t r;
    clra__reader_init(&r, buf, 4);
    ASSERT(clra__get_string(&r) == NULL);
    ASSERT_EQ(r.err, 0);
}

TEST(wire_reader_rejects_reads_past_the_end)
{
    static const uint8_t three[3] = {1, 2, 3};
    clra__reader_t r;
    clra__reader_init(&r, three, sizeof three);
    ASSERT_EQ(clra__get_u16(&r), 0x0201);
    ASSERT_EQ(clra__get_u32(&r), 0); /* only one byte left */
    ASSERT_EQ(r.err, CLRA_EPROTO);
    ASSERT_EQ(clra__get_u8(&r), 0); /* sticky: even a byte that exists is not read */
    ASSERT_EQ(clra__reader_left(&r), 0);
}

TEST(wire_reader_rejects_string_count_past_the_end)
{
    /* Announces 1000 units but carries two; the reader must not trust the count. */
    static const uint8_t lying[] = {0xE8, 0x03, 0, 0, 'a', 0, 0, 0};
    clra__reader_t r;
    clra__reader_init(&r, lying, sizeof lying);
    ASSERT(clra__get_string(&r) == NULL);
    ASSERT_EQ(r.err, CLRA_EPROTO);
}

TEST(wire_reader_rejects_string_without_terminator)
{
    static const uint8_t unterminated[] = {2, 0, 0, 0, 'a', 0, 'b', 0};
    clra__reader_t r;
    clra__reader_init(&r, unterminated, sizeof unterminated);
    ASSERT(clra__get_string(&r) == NULL);
    ASSERT_EQ(r.err, CLRA_EPROTO);
}

TEST(wire_reader_huge_string_count_does_not_overflow)
{
    static const uint8_t huge[] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0};
    clra__reader_t r;
    clra__reader_init(&r, huge, sizeof huge);
    ASSERT(clra__get_string(&r) == NULL);
    ASSERT_EQ(r.err, CLRA_EPROTO);
}

TEST(wire_strings_at_odd_offsets_are_read)
{
    static const uint8_t odd[] = {0x01, 3, 0, 0, 0, 'h', 0, 'i', 0, 0, 0};
    clra__reader_t r;
    clra__reader_init(&r, odd, sizeof odd);
    ASSERT_EQ(clra__get_u8(&r), 1);
    char *s = clra__get_string(&r);
    ASSERT_STREQ(s, "hi");
    free(s);
    ASSERT_EQ(clra__reader_left(&r), 0);
}

TEST(wire_lone_surrogate_from_the_wire_becomes_replacement_char)
{
    static const uint16_t lone[] = {'a', 0xD800, 'b'};
    char out[16];
    size_t n = clra__utf16_to_utf8(lone, 3, out, sizeof out);
    ASSERT_EQ(n, 5);
    ASSERT_STREQ(out, "a\xEF\xBF\xBD" "b");
}

TEST(wire_utf16_to_utf8_truncates_on_character_boundary)
{
    static const uint16_t text[] = {'a', 0x20AC, 'b'}; /* a€b: 1 + 3 + 1 bytes */
    char out[4];
    clra__utf16_to_utf8(text, 3, out, sizeof out);
    ASSERT_STREQ(out, "a"); /* € does not fit in the 2 bytes left before the NUL */
}
