/* How much of the caller's stack each jom_* call takes, measured as SH-2 code under
 * qemu-sh4eb (ci/capi-test.sh builds it with sh-elf-gcc -m2 -mb against libjom-qemu.a):
 * before each call the STACK_PROBE bytes below the stack pointer are painted with a
 * pattern, and after it the deepest word no longer holding the pattern gives the bytes
 * the call used (its arguments passed on the stack, its frames, the library's helpers
 * and, for jom_textures_upload, the texture callback of this file). Each function is
 * called on every fixture, on its deepest paths (a posed, lit draw of a model with
 * gouraud tables, an upload through the callback, a cross-fade), and the largest figure
 * is kept. Prints "function: bytes" for every measured function, then fails (exit 1) if
 * one took more than JOM_STACK_BYTES, the bound jom.h documents.
 *
 * Not measured here: jom_saturn_init_display, jom_saturn_wait_vblank, jom_saturn_report
 * and jom_cd_load_file drive the Saturn's hardware, which qemu's user mode does not have
 * (docs/c.md gives their frames from the library's code instead).
 *
 * model_data.c (written by ci/capi-test.sh) holds the fixtures as 4-byte-aligned arrays. */
#include "jom.h"

extern const uint8_t mesh_motion_jom[];
extern const uint32_t mesh_motion_jom_size;
extern const uint8_t texture_files_jom[];
extern const uint32_t texture_files_jom_size;
extern const uint8_t every_chunk_jom[];
extern const uint32_t every_chunk_jom_size;
extern const uint8_t levels_jom[];
extern const uint32_t levels_jom_size;

long sys_write(int fd, const void *buffer, unsigned long length);
void sys_exit(int status) __attribute__((noreturn));

/* Bytes painted below the stack pointer before each call (link.x gives the master 128
 * KiB, of which main's own frame takes little), and the pattern. */
#define STACK_PROBE 0x1C000
#define PAINT 0xA55AC33Cu

static unsigned length(const char *text) {
    unsigned n = 0;
    while (text[n]) n++;
    return n;
}

static void put(const char *text) { sys_write(1, text, length(text)); }

static void put_decimal(uint32_t value) {
    char digits[11];
    int i = 10;
    digits[i] = 0;
    do digits[--i] = (char)('0' + value % 10), value /= 10; while (value);
    put(digits + i);
}

/* The functions measured, in jom.h's order, with the most each took. */
static const char *const names[] = {
    "jom_error_message", "jom_model_load", "jom_model_get_info", "jom_model_find_animation",
    "jom_model_find_texture", "jom_model_load_level", "jom_vram_init", "jom_vram_texture_count", "jom_textures_upload", "jom_textures_release",
    "jom_player_init", "jom_player_play", "jom_player_cross_fade", "jom_player_advance",
    "jom_player_set_speed", "jom_player_seek", "jom_player_get_time", "jom_player_get_pose",
    "jom_pose_rest", "jom_camera_init", "jom_light_init", "jom_is_sphere_visible",
    "jom_matrix_place", "jom_list_begin", "jom_frame_init", "jom_frame_begin",
    "jom_frame_draw", "jom_frame_draw_pose", "jom_frame_finish", "jom_frame_set_fog",
    "jom_frame_draw_billboard", "jom_frame_draw_lod", "jom_frame_draw_pose_lod", "jom_list_end",
    "jom_list_jump", "jom_list_write",
};
#define FUNCTIONS (sizeof names / sizeof names[0])
static uint32_t most[FUNCTIONS];
static unsigned calls, errors;

static uint32_t index_of(const char *name) {
    for (uint32_t i = 0; i < FUNCTIONS; i++) {
        const char *a = names[i], *b = name;
        while (*a && *a == *b) a++, b++;
        if (*a == *b) return i;
    }
    put("stack_test: unknown function ");
    put(name);
    put("\n");
    sys_exit(2);
}

static void note(const char *name, uint32_t bytes, jom_result result, jom_result expected) {
    uint32_t i = index_of(name);
    if (bytes > most[i]) most[i] = bytes;
    calls++;
    if (result != expected) {
        errors++;
        put("FAILED: ");
        put(name);
        put(" returned ");
        put_decimal((uint32_t)result);
        put("\n");
    }
}

/* MEASURE(expected result, function, arguments...): paints the probe below the stack
 * pointer, calls, finds the deepest word changed. All inline in the measuring function,
 * whose own frame is above the stack pointer (the SH-2 ABI keeps nothing below it), so
 * that nothing but the call writes the painted bytes. */
#define MEASURE(expected, function, ...)                                                   \
    do {                                                                                   \
        uint32_t *sp_;                                                                     \
        __asm__ volatile("mov r15, %0" : "=r"(sp_));                                       \
        for (uint32_t i_ = 1; i_ <= STACK_PROBE / 4; i_++) sp_[-(int32_t)i_] = PAINT;     \
        __asm__ volatile("" ::: "memory");                                                 \
        jom_result r_ = (jom_result)(uintptr_t)function(__VA_ARGS__);                      \
        __asm__ volatile("" ::: "memory");                                                 \
        uint32_t w_ = STACK_PROBE / 4;                                                     \
        while (w_ > 0 && sp_[-(int32_t)w_] == PAINT) w_--;                                 \
        note(#function, w_ * 4, r_, (jom_result)(expected));                               \
    } while (0)

static uint8_t vram[JOM_VDP1_VRAM_BYTES] __attribute__((section(".lwram.vram"), aligned(4)));
static jom_model model, lower;
static jom_vram caches;
static jom_textures textures, lower_textures;
static jom_player player;
static jom_pose pose;
static uint16_t gouraud_per_polygon[512];
static jom_cmdt tables[512];
static jom_gouraud_table gouraud[256];
static jom_view_point points[512];
static jom_point screens[512];
static uint32_t keys[1024];
static jom_frame frame;
static jom_draw_slot slots[2];
static jom_placed_billboard placed[4];
static uint32_t billboard_keys[8];
static uint16_t pixels[64];

/* The texture callback: 8x8 RGB pixels for any texture the model does not embed. */
static jom_result texture_file(void *user, uint32_t index, const char *name,
                               jom_texture_source *source) {
    (void)user, (void)index, (void)name;
    source->width = 8;
    source->height = 8;
    source->format = 0;
    source->reserved = 0;
    source->data = pixels;
    source->size = sizeof pixels;
    return JOM_OK;
}

/* Fog, billboards (of the model's first texture, if it has one) and the model by its
 * levels of detail (its lower level 1, if it has one), near and far, posed and not: lit,
 * in a fog that covers the model (each path of the emission in fog). */
static void world(const jom_model_info *info, const jom_camera *camera, const jom_light *light,
                  const jom_matrix *place, jom_list *list) {
    jom_draw_stats stats;
    jom_fog fog = {0x8000 | 18 << 10 | 18 << 5 | 18, 0, camera->near_z, 3 * info->radius};
    jom_billboard board = {{info->center[0], info->center[1], info->center[2]},
                           {info->radius, info->radius}, &textures, 0, JOM_ANCHOR_LOWER_CENTER,
                           0, 0x8000 | 12 << 10 | 12 << 5 | 24, 0};
    jom_lod_level levels[2] = {{&model, &textures}, {&lower, &lower_textures}};
    uint32_t count = 1, index;
    jom_lod lod = {0};
    jom_matrix away = *place;
    away.m[2][3] = 64 * info->radius;
    if (info->textures > 0)
        MEASURE(JOM_ERROR_NOT_FOUND, jom_model_find_texture, &model, "no such texture", &index);
    if (info->levels > 0) {
        MEASURE(JOM_OK, jom_model_load_level, &lower, &model, 1);
        /* Its GOUR tables, if it had any, would need an array of their own. */
        MEASURE(JOM_OK, jom_textures_upload, &caches, &lower, &lower_textures, 0, 0,
                texture_file, 0);
        count = 2;
    }
    MEASURE(JOM_OK, jom_list_begin, list, 320, 224);
    MEASURE(JOM_OK, jom_frame_begin, &frame, camera, light);
    MEASURE(JOM_OK, jom_frame_set_fog, &frame, &fog);
    if (info->textures > 0) {
        MEASURE(JOM_OK, jom_frame_draw_billboard, &frame, &board);
        board.flags = JOM_BILLBOARD_HALF_TRANSPARENT | JOM_BILLBOARD_NO_FOG;
        board.gouraud = 0;
        MEASURE(JOM_OK, jom_frame_draw_billboard, &frame, &board);
    }
    MEASURE(JOM_OK, jom_frame_draw_lod, &frame, levels, count, &lod, place);
    MEASURE(JOM_OK, jom_frame_draw_pose_lod, &frame, levels, count, &lod, &away, &pose);
    MEASURE(JOM_OK, jom_frame_finish, &frame, list, &stats);
    MEASURE(JOM_ERROR_NO_FRAME, jom_frame_set_fog, &frame, 0);
    if (info->levels > 0) MEASURE(JOM_OK, jom_textures_release, &caches, &lower, &lower_textures);
}

/* Every function on one model: load, upload, play, pose, draw, release. */
static void one_model(const uint8_t *bytes, uint32_t size) {
    jom_model_info info;
    jom_camera camera;
    jom_light light;
    jom_matrix place;
    jom_draw_stats stats;
    uint32_t count, animation;
    uint64_t time;

    MEASURE(JOM_ERROR_BAD_MODEL, jom_model_load, &model, bytes, 20);
    MEASURE(JOM_OK, jom_model_load, &model, bytes, size);
    MEASURE(JOM_OK, jom_model_get_info, &model, &info);
    MEASURE(JOM_ERROR_NOT_FOUND, jom_model_find_animation, &model, "no such animation",
            &animation);
    MEASURE(JOM_OK, jom_vram_init, &caches, vram, 0x20000, 0x80000, 0x18000, 0x20000);
    MEASURE(JOM_OK, jom_textures_upload, &caches, &model, &textures, gouraud_per_polygon,
            sizeof gouraud_per_polygon / 2, texture_file, 0);
    MEASURE(JOM_OK, jom_vram_texture_count, &caches, &count);

    MEASURE(JOM_OK, jom_player_init, &player, &model);
    int animated = info.animations > 0;
    MEASURE(animated ? JOM_OK : JOM_ERROR_ARGUMENT, jom_player_play, &player, 0);
    if (animated) {
        uint32_t last = info.animations - 1;
        MEASURE(JOM_OK, jom_player_seek, &player, ((uint64_t)3 << 16) | 0x8000);
        MEASURE(JOM_OK, jom_player_set_speed, &player, 0x18000);
        MEASURE(JOM_OK, jom_player_advance, &player, 5);
        MEASURE(JOM_OK, jom_player_cross_fade, &player, last, 10);
        MEASURE(JOM_OK, jom_player_advance, &player, 4);
    }
    MEASURE(JOM_OK, jom_player_get_time, &player, &animation, &time);
    MEASURE(JOM_OK, jom_player_get_pose, &player, &pose);
    MEASURE(JOM_OK, jom_pose_rest, &model, &pose);
    MEASURE(JOM_OK, jom_player_get_pose, &player, &pose);

    MEASURE(JOM_OK, jom_camera_init, &camera);
    camera.position[0] = info.center[0];
    camera.position[1] = info.center[1];
    camera.position[2] = info.center[2] - 4 * info.radius;
    int32_t direction[3] = {0x8000, 0x8000, 0xB333};
    MEASURE(JOM_OK, jom_light_init, &light, direction, 0x5555);
    int32_t visible;
    MEASURE(JOM_OK, jom_is_sphere_visible, &camera, info.center, info.radius, &visible);
    int32_t position[3] = {0, 0, 0};
    int16_t rotation[3] = {0x0400, -0x1000, 0x0200};
    MEASURE(JOM_OK, jom_matrix_place, &place, position, rotation);

    jom_list list = {tables, 512, 0, gouraud, 256, 0, 0x10000};
    jom_work work = {points, screens, 512, keys, 1024, slots, 2, placed, billboard_keys, 4};
    MEASURE(JOM_OK, jom_list_begin, &list, 320, 224);
    MEASURE(JOM_OK, jom_frame_init, &frame, &work);
    MEASURE(JOM_OK, jom_frame_begin, &frame, &camera, &light);
    MEASURE(JOM_OK, jom_frame_draw_pose, &frame, &model, &textures, &place, &pose);
    MEASURE(JOM_OK, jom_frame_draw, &frame, &model, &textures, &place);
    MEASURE(JOM_OK, jom_frame_finish, &frame, &list, &stats);
    MEASURE(JOM_OK, jom_frame_begin, &frame, &camera, 0);
    MEASURE(JOM_OK, jom_frame_draw, &frame, &model, &textures, &place);
    MEASURE(JOM_OK, jom_frame_finish, &frame, &list, 0);
    world(&info, &camera, &light, &place, &list);
    MEASURE(JOM_OK, jom_list_jump, &list, 0x100);
    MEASURE(JOM_OK, jom_list_end, &list);
    MEASURE(JOM_OK, jom_list_write, &list, &caches, 0);
    MEASURE(JOM_OK, jom_textures_release, &caches, &model, &textures);
}

int main(void) {
    /* Its result is a pointer: the expected "result" is the message's address. */
    MEASURE((uintptr_t)jom_error_message(JOM_ERROR_BAD_MODEL), jom_error_message,
            JOM_ERROR_BAD_MODEL);
    one_model(mesh_motion_jom, mesh_motion_jom_size);
    one_model(every_chunk_jom, every_chunk_jom_size);
    one_model(texture_files_jom, texture_files_jom_size);
    one_model(levels_jom, levels_jom_size);

    uint32_t largest = 0, over = 0;
    for (uint32_t i = 0; i < FUNCTIONS; i++) {
        put(names[i]);
        put(": ");
        put_decimal(most[i]);
        put("\n");
        if (most[i] > largest) largest = most[i];
        if (most[i] > JOM_STACK_BYTES) {
            over++;
            put("FAILED: ");
            put(names[i]);
            put(" takes more than JOM_STACK_BYTES\n");
        }
        if (most[i] >= STACK_PROBE) {
            over++;
            put("FAILED: ");
            put(names[i]);
            put(" reached the end of the probe (STACK_PROBE)\n");
        }
    }
    put("stack: ");
    put_decimal(calls);
    put(" calls, the most ");
    put_decimal(largest);
    put(" bytes (JOM_STACK_BYTES ");
    put_decimal(JOM_STACK_BYTES);
    put(")\n");
    sys_exit(over || errors ? 1 : 0);
}
