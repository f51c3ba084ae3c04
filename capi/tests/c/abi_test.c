/* The C interface called from C: structs by pointer, 64-bit values both ways, a callback
 * from the library back into C, and bad input giving codes. Built twice from this file:
 * for the host (capi/tests/abi.rs, against the host libjom_c.a) and for the SH-2 with
 * sh-elf-gcc -m2 -mb (ci/capi-test.sh, run under qemu-sh4eb). Both print the same lines
 * when the SH-2 ABI agrees with the host's (ci/capi-test.sh compares them), then
 * "N passed, N failed" for the checks made here.
 *
 * model_data.c (written by the scripts) holds tests/fixtures/mesh_motion.jom,
 * texture_files.jom and levels.jom as 4-byte-aligned arrays. */
#include "jom.h"

extern const uint8_t mesh_motion_jom[];
extern const uint32_t mesh_motion_jom_size;
extern const uint8_t texture_files_jom[];
extern const uint32_t texture_files_jom_size;
extern const uint8_t levels_jom[];
extern const uint32_t levels_jom_size;

#ifdef __SH2__
long sys_write(int fd, const void *buffer, unsigned long length);
void sys_exit(int status) __attribute__((noreturn));
#define VRAM_SECTION __attribute__((section(".lwram.vram")))
#else
#include <unistd.h>
#include <stdlib.h>
static long sys_write(int fd, const void *buffer, unsigned long length) { return write(fd, buffer, length); }
static void sys_exit(int status) { exit(status); }
#define VRAM_SECTION
#endif

static unsigned passed, failed;

static unsigned length(const char *text) {
    unsigned n = 0;
    while (text[n]) n++;
    return n;
}

static void put(const char *text) { sys_write(1, text, length(text)); }

static void put_hex(uint32_t value) {
    char digits[9];
    for (int i = 0; i < 8; i++) digits[i] = "0123456789abcdef"[(value >> (28 - 4 * i)) & 15];
    digits[8] = 0;
    put(digits);
}

/* A line both builds print: `name` and a value. */
static void show(const char *name, uint32_t value) {
    put(name);
    put(" ");
    put_hex(value);
    put("\n");
}

static void check(int ok, const char *what) {
    if (ok) {
        passed++;
    } else {
        failed++;
        put("FAILED: ");
        put(what);
        put("\n");
    }
}

#define EXPECT(call, code) check((call) == (code), #call " == " #code)

/* FNV-1a over 32-bit values. */
static uint32_t fnv(uint32_t hash, uint32_t value) {
    for (int i = 0; i < 4; i++) {
        hash ^= (value >> (8 * i)) & 0xFF;
        hash *= 16777619u;
    }
    return hash;
}

static uint8_t vram[JOM_VDP1_VRAM_BYTES] VRAM_SECTION __attribute__((aligned(4)));
static jom_model model, files_model, never_loaded, levels_model, lower_model;
static jom_vram caches;
static jom_textures textures, file_textures, levels_textures, lower_textures;
static jom_player player;
static jom_pose pose;
static jom_cmdt tables[512];
static jom_gouraud_table gouraud[256];
static jom_frame frame;
static jom_draw_slot slots[2];
static jom_view_point points[512];
static jom_point screens[512];
static uint32_t keys[512];
static jom_placed_billboard placed[2];
static uint32_t billboard_keys[4];

/* The texture callback: records what it is asked for, gives 8x8 RGB pixels. */
struct files { uint32_t calls; uint32_t names; uint16_t pixels[64]; };

static jom_result texture_file(void *user, uint32_t index, const char *name,
                               jom_texture_source *source) {
    struct files *files = user;
    files->calls++;
    for (unsigned i = 0; name[i]; i++) files->names = fnv(files->names, (uint8_t)name[i] + index);
    source->width = 8;
    source->height = 8;
    source->format = 0;
    source->reserved = 0;
    source->data = files->pixels;
    source->size = sizeof files->pixels;
    return JOM_OK;
}

static jom_result refuse(void *user, uint32_t index, const char *name, jom_texture_source *source) {
    (void)user; (void)index; (void)name; (void)source;
    return 1234;
}

/* The command and gouraud tables of `list`, hashed. */
static uint32_t list_hash(const jom_list *list) {
    uint32_t hash = 2166136261u;
    for (uint32_t i = 0; i < list->count; i++) {
        const jom_cmdt *t = &list->tables[i];
        hash = fnv(hash, (uint32_t)t->ctrl << 16 | t->link);
        hash = fnv(hash, (uint32_t)t->pmod << 16 | t->colr);
        hash = fnv(hash, (uint32_t)t->srca << 16 | t->size);
        for (int v = 0; v < 8; v++) hash = fnv(hash, (uint32_t)(uint16_t)t->vertices[v]);
        hash = fnv(hash, t->grda);
    }
    for (uint32_t i = 0; i < list->gouraud_count; i++)
        for (int c = 0; c < 4; c++) hash = fnv(hash, list->gouraud[i].colors[c]);
    return hash;
}

/* A frame in fog with billboards of the model's texture and a model drawn by its level of
 * detail (levels.jom: level 1 below 40 pixels), and their bad input. */
static void world(const jom_camera *camera, const jom_light *light, const jom_matrix *place,
                  jom_list *list) {
    jom_model_info info;
    jom_draw_stats stats;
    uint32_t index = 99;
    jom_fog fog = {0x8000 | 18 << 10 | 18 << 5 | 18, 0, 5 * 0x10000, 9 * 0x10000};
    jom_billboard tree = {{0x10000, 0, 0x20000}, {0x10000, 0x20000}, &textures, 0,
                          JOM_ANCHOR_LOWER_CENTER, 0, 0, 0};
    jom_billboard puff = {{-0x10000, -0x8000, 0}, {0x8000, 0x8000}, &textures, 0, 0,
                          JOM_BILLBOARD_HALF_TRANSPARENT | JOM_BILLBOARD_NO_FOG,
                          0x8000 | 12 << 10 | 12 << 5 | 24, 0};
    jom_billboard behind = tree, bad = tree;
    behind.position[2] = -10 * 0x10000;
    EXPECT(jom_model_find_texture(&model, "nope", &index), JOM_ERROR_NOT_FOUND);
    EXPECT(jom_model_load(&levels_model, levels_jom, levels_jom_size), JOM_OK);
    EXPECT(jom_model_get_info(&levels_model, &info), JOM_OK);
    show("levels", info.levels);
    EXPECT(jom_model_load_level(&lower_model, &levels_model, 2), JOM_ERROR_ARGUMENT);
    EXPECT(jom_model_load_level(&lower_model, &levels_model, 1), JOM_OK);
    EXPECT(jom_textures_upload(&caches, &levels_model, &levels_textures, 0, 0, 0, 0), JOM_OK);
    EXPECT(jom_textures_upload(&caches, &lower_model, &lower_textures, 0, 0, 0, 0), JOM_OK);
    jom_lod_level levels[2] = {{&levels_model, &levels_textures}, {&lower_model, &lower_textures}};
    jom_lod near = {0}, far = {0};
    jom_matrix away = *place;
    away.m[2][3] = 30 * 0x10000;

    jom_work work = {points, screens, 512, keys, 512, slots, 2, placed, billboard_keys, 2};
    EXPECT(jom_frame_init(&frame, &work), JOM_OK);
    EXPECT(jom_list_begin(list, 320, 224), JOM_OK);
    EXPECT(jom_frame_set_fog(&frame, &fog), JOM_ERROR_NO_FRAME);
    EXPECT(jom_frame_draw_billboard(&frame, &tree), JOM_ERROR_NO_FRAME);
    EXPECT(jom_frame_begin(&frame, camera, light), JOM_OK);
    EXPECT(jom_frame_set_fog(&frame, &fog), JOM_OK);
    fog.far_z = fog.near_z - 1;
    EXPECT(jom_frame_set_fog(&frame, &fog), JOM_ERROR_ARGUMENT);
    EXPECT(jom_frame_draw_billboard(&frame, &tree), JOM_OK);
    EXPECT(jom_frame_draw_billboard(&frame, &behind), JOM_OK);
    EXPECT(jom_frame_draw_billboard(&frame, &puff), JOM_OK);
    EXPECT(jom_frame_draw_billboard(&frame, &tree), JOM_ERROR_BUFFER_TOO_SMALL);
    bad.texture = 5;
    EXPECT(jom_frame_draw_billboard(&frame, &bad), JOM_ERROR_ARGUMENT);
    bad = tree;
    bad.anchor = 4;
    EXPECT(jom_frame_draw_billboard(&frame, &bad), JOM_ERROR_ARGUMENT);
    bad = tree;
    bad.textures = &file_textures;   /* released */
    EXPECT(jom_frame_draw_billboard(&frame, &bad), JOM_ERROR_HANDLE);
    EXPECT(jom_frame_draw_billboard(&frame, 0), JOM_ERROR_NULL);
    EXPECT(jom_frame_draw_lod(&frame, levels, 2, &near, place), JOM_OK);
    EXPECT(jom_frame_draw_lod(&frame, levels, 0, &far, &away), JOM_ERROR_ARGUMENT);
    EXPECT(jom_frame_draw_lod(&frame, levels, 2, 0, &away), JOM_ERROR_NULL);
    EXPECT(jom_frame_draw_pose_lod(&frame, levels, 2, &far, &away, &pose), JOM_OK);
    EXPECT(jom_frame_finish(&frame, list, &stats), JOM_OK);
    EXPECT(jom_list_end(list), JOM_OK);
    show("lod levels", (uint32_t)near.level << 8 | far.level);
    show("world drawn", stats.drawn);
    show("billboards", stats.billboards << 8 | stats.billboards_culled);
    show("world commands", list->count);
    show("world gouraud tables", list->gouraud_count);
    show("world list hash", list_hash(list));
    EXPECT(jom_textures_release(&caches, &lower_model, &lower_textures), JOM_OK);
    EXPECT(jom_textures_release(&caches, &levels_model, &levels_textures), JOM_OK);
}

static void bad_input(void) {
    jom_model_info info;
    EXPECT(jom_model_load(0, mesh_motion_jom, mesh_motion_jom_size), JOM_ERROR_NULL);
    EXPECT(jom_model_load(&model, mesh_motion_jom + 1, mesh_motion_jom_size - 4), JOM_ERROR_ALIGNMENT);
    EXPECT(jom_model_load(&model, mesh_motion_jom, 20), JOM_ERROR_BAD_MODEL);
    EXPECT(jom_model_get_info(&never_loaded, &info), JOM_ERROR_HANDLE);
    EXPECT(jom_model_get_info(0, &info), JOM_ERROR_NULL);
    EXPECT(jom_player_init(&player, &never_loaded), JOM_ERROR_HANDLE);
    EXPECT(jom_vram_init(&caches, vram, 0, 12, 16, 32), JOM_ERROR_ARGUMENT);
    check(length(jom_error_message(JOM_ERROR_BAD_MODEL)) > 0, "a message");
    check(length(jom_error_message(-7)) > 0, "a message for any code");
}

int main(void) {
    jom_model_info info;
    jom_camera camera;
    jom_light light;
    jom_matrix place;
    jom_draw_stats stats;
    struct files files = {0, 2166136261u, {0}};
    uint32_t count, animation, hash;
    uint64_t time;

    bad_input();
    EXPECT(jom_model_load(&model, mesh_motion_jom, mesh_motion_jom_size), JOM_OK);
    EXPECT(jom_model_get_info(&model, &info), JOM_OK);
    show("points", info.points);
    show("polygons", info.polygons);
    show("bones", info.bones);
    show("radius", (uint32_t)info.radius);
    EXPECT(jom_model_find_animation(&model, "bend", &animation), JOM_OK);
    EXPECT(jom_model_find_animation(&model, "walk", &animation), JOM_ERROR_NOT_FOUND);

    /* VRAM: textures after 64 KiB of the caller's own, gouraud tables before them. */
    EXPECT(jom_vram_init(&caches, vram, 0x20000, 0x80000, 0x18000, 0x20000), JOM_OK);
    EXPECT(jom_textures_upload(&caches, &model, &textures, 0, 0, 0, 0), JOM_OK);
    /* Not over textures still uploaded: their VRAM would be lost. */
    EXPECT(jom_textures_upload(&caches, &model, &textures, 0, 0, 0, 0), JOM_ERROR_IN_USE);
    EXPECT(jom_model_load(&files_model, texture_files_jom, texture_files_jom_size), JOM_OK);
    EXPECT(jom_textures_upload(&caches, &files_model, &file_textures, 0, 0, 0, 0),
           JOM_ERROR_MISSING_TEXTURE);
    EXPECT(jom_textures_upload(&caches, &files_model, &file_textures, 0, 0, refuse, 0), 1234);
    for (int i = 0; i < 64; i++) files.pixels[i] = (uint16_t)(0x8000 | i);
    EXPECT(jom_textures_upload(&caches, &files_model, &file_textures, 0, 0, texture_file, &files),
           JOM_OK);
    show("callback calls", files.calls);
    show("callback names", files.names);
    EXPECT(jom_vram_texture_count(&caches, &count), JOM_OK);
    show("textures in vram", count);
    hash = 2166136261u;
    for (uint32_t i = 0x20000; i < 0x21000; i += 4)
        hash = fnv(hash, (uint32_t)vram[i] << 24 | (uint32_t)vram[i + 1] << 16 | vram[i + 2] << 8 | vram[i + 3]);
    show("vram hash", hash);
    EXPECT(jom_textures_release(&caches, &files_model, &file_textures), JOM_OK);
    EXPECT(jom_textures_release(&caches, &files_model, &file_textures), JOM_ERROR_HANDLE);

    /* The player: a 64-bit time in, a 64-bit time out. */
    EXPECT(jom_player_init(&player, &model), JOM_OK);
    EXPECT(jom_player_play(&player, 3), JOM_ERROR_ARGUMENT);
    EXPECT(jom_player_seek(&player, ((uint64_t)7 << 16) | 0x8000), JOM_OK);
    EXPECT(jom_player_set_speed(&player, 0x18000), JOM_OK);
    EXPECT(jom_player_advance(&player, 5), JOM_OK);
    EXPECT(jom_player_get_time(&player, &animation, &time), JOM_OK);
    show("time high", (uint32_t)(time >> 32));
    show("time low", (uint32_t)time);
    EXPECT(jom_player_cross_fade(&player, 0, 10), JOM_OK);
    EXPECT(jom_player_advance(&player, 4), JOM_OK);
    EXPECT(jom_player_get_pose(&player, &pose), JOM_OK);
    hash = 2166136261u;
    for (uint32_t b = 0; b < pose.bone_count; b++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++) hash = fnv(hash, (uint32_t)pose.bones[b].m[r][c]);
    show("pose hash", hash);

    /* Camera, light, visibility, and a frame into our own list. */
    EXPECT(jom_camera_init(&camera), JOM_OK);
    camera.position[2] = -6 * 0x10000;
    int32_t center[3] = {0, 0, 0}, behind[3] = {0, 0, -40 * 0x10000}, visible = -1;
    EXPECT(jom_is_sphere_visible(&camera, center, 0x10000, &visible), JOM_OK);
    show("visible", (uint32_t)visible);
    EXPECT(jom_is_sphere_visible(&camera, behind, 0x10000, &visible), JOM_OK);
    show("visible behind", (uint32_t)visible);
    int32_t direction[3] = {0x8000, 0x8000, 0xB333};
    EXPECT(jom_light_init(&light, direction, 0x5555), JOM_OK);
    show("light x", (uint32_t)light.direction[0]);
    int32_t position[3] = {0, 0x4000, 0};
    int16_t rotation[3] = {0x0800, -0x1800, 0};
    EXPECT(jom_matrix_place(&place, position, rotation), JOM_OK);
    int32_t apart[3] = {0x10000, -0x8000, 0x20000};
    jom_matrix moved;
    EXPECT(jom_matrix_place(&moved, apart, rotation), JOM_OK);
    jom_list list = {tables, 512, 0, gouraud, 256, 0, 0x10000};
    jom_work work = {points, screens, 512, keys, 512, slots, 2, 0, 0, 0};
    EXPECT(jom_frame_init(&frame, &work), JOM_OK);
    EXPECT(jom_frame_draw(&frame, &model, &textures, &place), JOM_ERROR_NO_FRAME);
    EXPECT(jom_list_begin(&list, 320, 224), JOM_OK);
    /* Frame gouraud tables whose addresses / 8 pass 16 bits (the frame stays under way),
     * and tables never emptied. */
    jom_list past_vram = list, never_emptied = list;
    past_vram.gouraud_vram = JOM_VDP1_VRAM_BYTES - 8 * 256 + 8;
    EXPECT(jom_frame_begin(&frame, &camera, &light), JOM_OK);
    EXPECT(jom_frame_draw(&frame, &model, &textures, &place), JOM_OK);
    EXPECT(jom_frame_finish(&frame, &past_vram, 0), JOM_ERROR_GOURAUD_VRAM);
    never_emptied.gouraud_count = 256;
    EXPECT(jom_frame_finish(&frame, &never_emptied, &stats), JOM_ERROR_GOURAUD_FULL);
    check(stats.dropped > 0, "the polygons left out are counted");
    EXPECT(jom_frame_finish(&frame, &list, &stats), JOM_ERROR_NO_FRAME);
    /* A frame of two draws, sorted together: posed and lit, then rigid; a third has no
     * slot. */
    EXPECT(jom_frame_begin(&frame, &camera, &light), JOM_OK);
    EXPECT(jom_frame_draw_pose(&frame, &model, &textures, &place, &pose), JOM_OK);
    EXPECT(jom_frame_draw(&frame, &model, &textures, &moved), JOM_OK);
    EXPECT(jom_frame_draw(&frame, &model, &textures, &place), JOM_ERROR_BUFFER_TOO_SMALL);
    EXPECT(jom_frame_finish(&frame, &list, &stats), JOM_OK);
    /* A work space too small for the model's points. */
    jom_work short_work = {points, screens, 3, keys, 512, slots, 2, 0, 0, 0};
    EXPECT(jom_frame_init(&frame, &short_work), JOM_OK);
    EXPECT(jom_frame_begin(&frame, &camera, 0), JOM_OK);
    EXPECT(jom_frame_draw(&frame, &model, &textures, &place), JOM_ERROR_BUFFER_TOO_SMALL);
    EXPECT(jom_list_jump(&list, 0x100), JOM_OK);
    EXPECT(jom_list_end(&list), JOM_OK);
    show("drawn", stats.drawn);
    show("culled", stats.culled);
    show("commands", list.count);
    show("gouraud tables", list.gouraud_count);
    show("list hash", list_hash(&list));
    EXPECT(jom_list_write(&list, &caches, 0), JOM_OK);
    show("vram command 0", (uint32_t)vram[0] << 8 | vram[1]);
    world(&camera, &light, &place, &list);
    EXPECT(jom_textures_release(&caches, &model, &textures), JOM_OK);

    put("abi: ");
    put_hex(passed);
    put(" checks passed, ");
    put_hex(failed);
    put(" failed\n");
    sys_exit(failed ? 1 : 0);
    return 0;
}
