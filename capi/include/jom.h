/* jom.h: the jom engine for C programs on the Sega Saturn (libjom.a; docs/c.md).
 *
 * Written by hand beside capi/src/ (the Rust side); capi/tests/header.rs checks that every
 * constant here is the Rust one and compiles C against this file, and the SH-2 tests call
 * every function.
 *
 * - Every function returns a jom_result: JOM_OK (0) or a JOM_ERROR_* code;
 *   jom_error_message(code) names it. Bad input (null pointers, states never initialised,
 *   short buffers, bad models, values out of range) gives a code, never a crash.
 * - Nothing is allocated: the caller gives every state's memory. jom_model, jom_vram,
 *   jom_textures, jom_player, jom_frame, jom_draw_slot and jom_placed_billboard are
 *   opaque, of the sizes below (a static of the type is enough); the other structs are
 *   plain.
 * - Fixed point: Q16.16 (0x10000 = 1.0) for positions and matrices; angles 0x10000 a turn.
 * - Build: sh-elf-gcc -m2 -mb (big endian SH-2, GCC's default SH ABI).
 * - The SH-2's division unit (DIVU, 0xFFFFFF00): the engine keeps a division in it from
 *   one point to the next while it transforms. While any jom_* function runs, an
 *   interrupt handler must not use the DIVU (libyaul's cpu_divu_*, SGL's hardware
 *   divisions): its division would replace the one the engine reads next, and the DIVU's
 *   registers cannot be put back (writing the dividend starts a new division). C's own /
 *   and % (libgcc's software division) are safe. */
#ifndef JOM_H
#define JOM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Results. */
typedef int32_t jom_result;
#define JOM_OK 0
#define JOM_ERROR_NULL 1              /* a pointer argument is null */
#define JOM_ERROR_HANDLE 2            /* a state never initialised, or released */
#define JOM_ERROR_ALIGNMENT 3         /* a pointer or buffer is not 4-byte aligned */
#define JOM_ERROR_BAD_MODEL 4         /* the bytes are not a valid JOM model */
#define JOM_ERROR_ARGUMENT 5          /* an index, size, camera or light value out of range */
#define JOM_ERROR_BUFFER_TOO_SMALL 6  /* work buffers, per-polygon tables */
#define JOM_ERROR_VRAM_FULL 7         /* the VRAM range given is full */
#define JOM_ERROR_TABLE_FULL 8        /* JOM_MAX_TEXTURES, JOM_MAX_GOURAUD, JOM_MAX_MODEL_TEXTURES */
#define JOM_ERROR_MISSING_TEXTURE 9   /* not embedded and not given by the callback */
#define JOM_ERROR_BAD_TEXTURE 10      /* a size, format or pixels the VDP1 does not draw */
#define JOM_ERROR_LIST_FULL 11        /* the command list or its gouraud tables are full */
#define JOM_ERROR_NOT_FOUND 12        /* an animation or file name */
#define JOM_ERROR_HARDWARE 13         /* a VBlank or the CD drive did not answer */
#define JOM_ERROR_GOURAUD_VRAM 14     /* jom_list.gouraud_vram: not a multiple of 8, or its
                                         gouraud_capacity tables pass VRAM's end */
#define JOM_ERROR_GOURAUD_FULL 15     /* a draw's lit polygons left out: the frame gouraud
                                         tables are full (gouraud_count not reset?) */
#define JOM_ERROR_IN_USE 16           /* jom_textures_upload over textures not released */
#define JOM_ERROR_NO_FRAME 17         /* jom_frame_draw or _finish without jom_frame_begin */

/* A static zero-ended message for any code ("unknown error" for other values). */
const char *jom_error_message(jom_result code);

/* Capacities and the sizes of the opaque states (bytes). */
#define JOM_MAX_BONES 32
#define JOM_MAX_TEXTURES 128          /* textures in VRAM at once (a jom_vram) */
#define JOM_MAX_GOURAUD 256           /* distinct model gouraud tables in VRAM at once */
#define JOM_MAX_MODEL_TEXTURES 32     /* TEXT names of one model */
#define JOM_MAX_DRAWS 64              /* models drawn in one frame */
#define JOM_MAX_LEVELS 8              /* levels of one jom_frame_draw_lod (the model's own too) */
#if UINTPTR_MAX == 0xFFFFFFFFu   /* the SH-2 */
#define JOM_MODEL_SIZE 256
#define JOM_VRAM_SIZE 36864
#define JOM_TEXTURES_SIZE 8192
#define JOM_PLAYER_SIZE 128
#define JOM_FRAME_SIZE 22528
#define JOM_DRAW_SLOT_SIZE 5824
#define JOM_PLACED_BILLBOARD_SIZE 40
#else                            /* 64-bit hosts: the library's host tests */
#define JOM_MODEL_SIZE 512
#define JOM_VRAM_SIZE 36864
#define JOM_TEXTURES_SIZE 8192
#define JOM_PLAYER_SIZE 192
#define JOM_FRAME_SIZE 28672
#define JOM_DRAW_SLOT_SIZE 5864
#define JOM_PLACED_BILLBOARD_SIZE 40
#endif
#define JOM_VDP1_VRAM ((void *)0x25C00000)
#define JOM_VDP1_VRAM_BYTES 0x80000

/* The most of the caller's stack any call takes (bytes): its frames and the library's
 * helpers, measured as SH-2 code (ci/capi-test.sh fails if a call passes this bound, and
 * ci/capi.sh if the library's code could; docs/c.md has each function's figure). Within
 * the 8 KiB a libyaul program has by default, but for the texture callback's own frames
 * (on top, in jom_textures_upload) and an interrupt taken during a call (its handler's
 * stack on top): docs/c.md says how to give it more. */
#define JOM_STACK_BYTES 8192

/* 8-byte aligned on 64-bit hosts (their states hold pointers); 4 on the SH-2. */
#define JOM_STATE_ALIGN __attribute__((aligned(sizeof(void *))))
typedef struct JOM_STATE_ALIGN jom_model { uint32_t opaque[JOM_MODEL_SIZE / 4]; } jom_model;
typedef struct JOM_STATE_ALIGN jom_vram { uint32_t opaque[JOM_VRAM_SIZE / 4]; } jom_vram;
typedef struct JOM_STATE_ALIGN jom_textures { uint32_t opaque[JOM_TEXTURES_SIZE / 4]; } jom_textures;
typedef struct JOM_STATE_ALIGN jom_player { uint32_t opaque[JOM_PLAYER_SIZE / 4]; } jom_player;
typedef struct JOM_STATE_ALIGN jom_frame { uint32_t opaque[JOM_FRAME_SIZE / 4]; } jom_frame;
/* One model drawn in a frame (its matrices, what emission keeps of it): an array of them
 * is the frame's; jom_frame_init makes them empty. */
typedef struct JOM_STATE_ALIGN jom_draw_slot {
    uint32_t opaque[JOM_DRAW_SLOT_SIZE / 4];
} jom_draw_slot;
/* One billboard drawn in a frame, kept until its finish: an array of them is the frame's
 * (jom_work); jom_frame_init makes them empty. */
typedef struct jom_placed_billboard {
    uint32_t opaque[JOM_PLACED_BILLBOARD_SIZE / 4];
} jom_placed_billboard;

/* ---- Models (jo_3d_load_model): validated once, used in place. ---- */

typedef struct jom_model_info {
    uint32_t points;             /* a jom_view_point and a jom_point each in a frame */
    uint32_t polygons;           /* 2 sort keys each in a frame; a uint16_t each for GOUR */
    uint32_t bones;
    uint32_t animations;
    uint32_t textures;           /* TEXT names */
    uint32_t embedded_textures;  /* 1: in the file (TIMG); 0: files, given by a callback */
    int32_t center[3];           /* bounding sphere, Q16.16 model units */
    int32_t radius;
    uint32_t levels;             /* lower levels of detail (LODS): jom_model_load_level */
    uint32_t regions;            /* regions (REGN), culled by any draw on their own */
} jom_model_info;

/* Validates `size` bytes at `bytes` (4-byte aligned; kept, unchanged, while the model is
 * used) as a JOM file. */
jom_result jom_model_load(jom_model *model, const void *bytes, uint32_t size);
jom_result jom_model_get_info(const jom_model *model, jom_model_info *info);
/* The first animation named `name` (jo_3d_model_is_animation). */
jom_result jom_model_find_animation(const jom_model *model, const char *name, uint32_t *index);
/* The TEXT index of the texture named `name` (a billboard's `texture`). */
jom_result jom_model_find_texture(const jom_model *model, const char *name, uint32_t *index);
/* Lower level of detail `level` (1 to info.levels) of `model` into `lower`: its JOM file
 * inside the model's bytes, validated, used in place (upload its textures as a model's).
 * `lower` may be `model` itself. */
jom_result jom_model_load_level(jom_model *lower, const jom_model *model, uint32_t level);

/* ---- VDP1 VRAM: textures once per name, in the ranges the caller gives. ---- */

/* Byte addresses from VRAM's start, multiples of 8, not overlapping; `vram_base` is where
 * VRAM is written: JOM_VDP1_VRAM, or a buffer of JOM_VDP1_VRAM_BYTES in a test. Textures
 * are placed in blocks of 32 bytes from the first 32-byte boundary at or after
 * textures_start (a 16-colour texture's lookup table starts its block, and the VDP1 reads
 * lookup tables from 32-byte boundaries). */
jom_result jom_vram_init(jom_vram *vram, void *vram_base, uint32_t textures_start,
                         uint32_t textures_end, uint32_t gouraud_start, uint32_t gouraud_end);
jom_result jom_vram_texture_count(const jom_vram *vram, uint32_t *count);

/* A texture file's pixels (a jo engine .BIN): what the callback gives for a texture the
 * model does not embed. */
typedef struct jom_texture_source {
    uint16_t width;     /* multiple of 8, 8 to 504 */
    uint16_t height;    /* 1 to 255 */
    uint16_t format;    /* 0: RGB555; 1: 16 colours, their lookup table first */
    uint16_t reserved;
    const void *data;   /* big endian; read during the upload only */
    uint32_t size;
} jom_texture_source;

/* Fills `source` for texture `index` (TEXT name `name`) and returns JOM_OK, or returns an
 * error code, which jom_textures_upload returns. */
typedef jom_result (*jom_texture_file_fn)(void *user, uint32_t index, const char *name,
                                          jom_texture_source *source);

/* Uploads the model's textures (embedded, or from `files`, which may be NULL for a model
 * that embeds them) and its GOUR tables. `gouraud`: a uint16_t per polygon, kept while the
 * textures are used (NULL and 0 for a model without GOUR). On an error nothing stays.
 * `textures` must not hold an upload (JOM_ERROR_IN_USE): release it first. */
jom_result jom_textures_upload(jom_vram *vram, const jom_model *model, jom_textures *textures,
                               uint16_t *gouraud, uint32_t gouraud_count,
                               jom_texture_file_fn files, void *user);
/* Gives the VRAM back (textures another model uses stay). `model`: the jom_model uploaded
 * for, even if another model was loaded into it since (what the upload took is released). */
jom_result jom_textures_release(jom_vram *vram, const jom_model *model, jom_textures *textures);

/* ---- Animation (jo_3d_model_get_pose). ---- */

typedef struct jom_matrix { int32_t m[3][4]; } jom_matrix;  /* rows; column 3: translation */

typedef struct jom_pose {
    jom_matrix root;                  /* the points of no bone (the root offset) */
    jom_matrix bones[JOM_MAX_BONES];  /* each bone's group, model space */
    uint32_t bone_count;
} jom_pose;

/* Animation 0 from its start at speed 1.0; the model stays loaded while it is used. */
jom_result jom_player_init(jom_player *player, const jom_model *model);
jom_result jom_player_play(jom_player *player, uint32_t animation);
jom_result jom_player_cross_fade(jom_player *player, uint32_t animation, uint32_t ticks);
jom_result jom_player_advance(jom_player *player, uint32_t ticks);   /* 1/60 s each */
jom_result jom_player_set_speed(jom_player *player, int32_t speed);  /* Q16.16, < 0: back */
jom_result jom_player_seek(jom_player *player, uint64_t time);       /* ticks, Q16.16 */
/* Either out pointer may be NULL. */
jom_result jom_player_get_time(jom_player *player, uint32_t *animation, uint64_t *time);
jom_result jom_player_get_pose(jom_player *player, jom_pose *pose);
jom_result jom_pose_rest(const jom_model *model, jom_pose *pose);

/* ---- Camera, light, visibility. ---- */

typedef struct jom_camera {
    int32_t position[3];   /* Q16.16; X right, Y down, Z forward */
    int16_t rotation[3];   /* around X, Y then Z */
    uint16_t reserved;
    int32_t focal_length;  /* pixels, 1 to 4096 (192 on 320 pixels: about 80 degrees) */
    uint16_t width;        /* 1 to 1024 */
    uint16_t height;       /* 1 to 512 */
    int32_t near_z;        /* 0 < near_z < far_z, Q16.16 */
    int32_t far_z;
} jom_camera;

typedef struct jom_light {
    int32_t direction[3];  /* where it travels, unit length, Q16.16 */
    int32_t ambient;       /* 0 to 0x10000 */
} jom_light;

/* At the origin looking along +Z, 320x224. */
jom_result jom_camera_init(jom_camera *camera);
/* jo_3d_light: `direction` of any length but 0 (made unit length). */
jom_result jom_light_init(jom_light *light, const int32_t direction[3], int32_t ambient);
/* jo_3d_is_sphere_visible: `*visible` = 0 only when wholly off the view. */
jom_result jom_is_sphere_visible(const jom_camera *camera, const int32_t center[3],
                                 int32_t radius, int32_t *visible);
/* Turn by `rotation` (X, Y then Z), then put at `position`. */
jom_result jom_matrix_place(jom_matrix *matrix, const int32_t position[3],
                            const int16_t rotation[3]);

/* ---- Frames drawn into the caller's command list. ---- */

/* A VDP1 command table as in VRAM: libyaul's vdp1_cmdt_t has the same 32 bytes. */
typedef struct __attribute__((aligned(4))) jom_cmdt {
    uint16_t ctrl, link, pmod, colr, srca, size;
    int16_t vertices[8];   /* xa, ya, xb, yb, xc, yc, xd, yd */
    uint16_t grda, reserved;
} jom_cmdt;

typedef struct jom_gouraud_table { uint16_t colors[4]; } jom_gouraud_table;

/* `count` of `capacity` tables written (a frame keeps one for jom_list_end); the frame's
 * gouraud tables (lighting) go to VRAM at `gouraud_vram`, where the tables point: set
 * gouraud_count to 0 with count at each frame's start (jom_list_begin does). */
typedef struct jom_list {
    jom_cmdt *tables;
    uint32_t capacity;
    uint32_t count;
    jom_gouraud_table *gouraud;
    uint32_t gouraud_capacity;
    uint32_t gouraud_count;
    uint32_t gouraud_vram;   /* VRAM byte address, a multiple of 8; the gouraud_capacity
                                tables from there end inside VRAM (JOM_ERROR_GOURAUD_VRAM) */
} jom_list;

typedef struct jom_view_point { int32_t view[3]; int16_t x, y; } jom_view_point;
typedef struct __attribute__((aligned(4))) jom_point { int16_t x, y; } jom_point;

/* A frame's work space, for all the models one frame draws: a view point and a screen
 * point a point, 2 sort keys a polygon, a draw slot a model drawn (at most JOM_MAX_DRAWS);
 * for its billboards, a placed billboard and 2 sort keys each (none: NULL, NULL, 0).
 * Kept from jom_frame_init on, for as long as the frame is used. */
typedef struct jom_work {
    jom_view_point *points;
    jom_point *screens;
    uint32_t point_count;    /* of points and of screens */
    uint32_t *keys;
    uint32_t key_count;
    jom_draw_slot *slots;
    uint32_t slot_count;
    jom_placed_billboard *billboards;   /* billboard_count of them */
    uint32_t *billboard_keys;           /* 2 * billboard_count of them */
    uint32_t billboard_count;
} jom_work;

typedef struct jom_draw_stats {
    uint32_t drawn, commands, culled, dropped;   /* dropped: the list was full */
    uint32_t billboards, billboards_culled;      /* commands counts the billboards' too */
} jom_draw_stats;

/* count = 3: system clip, user clip (the screen), local coordinates at its centre (where
 * a frame puts the camera's axis). A program with its own sets count = 0 instead. */
jom_result jom_list_begin(jom_list *list, uint16_t width, uint16_t height);
/* Once: the frame's work space (its draw slots made empty). */
jom_result jom_frame_init(jom_frame *frame, const jom_work *work);
/* Each frame: begin (seen by `camera`, lit by `light`, which may be NULL), a draw a model
 * (its points transformed and its polygons culled then), finish: the polygons of every
 * model drawn sorted together, farthest first, into `list` after its `count` tables. The
 * models and textures drawn stay as they are until the finish. A full list leaves out the
 * farthest (stats->dropped); if the frame gouraud tables ran out, what fits is drawn and
 * the result is JOM_ERROR_GOURAUD_FULL. `stats` may be NULL. */
jom_result jom_frame_begin(jom_frame *frame, const jom_camera *camera, const jom_light *light);
jom_result jom_frame_draw(jom_frame *frame, const jom_model *model, const jom_textures *textures,
                          const jom_matrix *transform);
/* jo_3d_model_draw_pose. */
jom_result jom_frame_draw_pose(jom_frame *frame, const jom_model *model,
                               const jom_textures *textures, const jom_matrix *transform,
                               const jom_pose *pose);
jom_result jom_frame_finish(jom_frame *frame, jom_list *list, jom_draw_stats *stats);

/* Fog: the frame's polygons and billboards fade from their own colour at camera depth
 * near_z to `colour` at far_z and beyond, through their gouraud colours (the VDP1 adds a
 * channel's -16..+15: a texture moves as a whole, docs/billboards.md). */
typedef struct jom_fog {
    uint16_t colour;         /* RGB555 */
    uint16_t reserved;
    int32_t near_z;          /* Q16.16, 0 <= near_z <= far_z */
    int32_t far_z;
} jom_fog;
/* For the frame under way, at any time before its finish (NULL: none); each
 * jom_frame_begin starts without fog. */
jom_result jom_frame_set_fog(jom_frame *frame, const jom_fog *fog);

/* Billboards: a texture of an uploaded model standing at a point of the world, facing the
 * screen, scaled by its distance, sorted with the frame's polygons by its depth (one VDP1
 * scaled sprite). Room: the work space's billboard arrays. */
#define JOM_BILLBOARD_HALF_TRANSPARENT 1  /* averaged with what is behind it */
#define JOM_BILLBOARD_MESH 2              /* every other pixel (the VDP1's mesh) */
#define JOM_BILLBOARD_NO_FOG 4            /* not faded by the frame's fog */
/* The point of the sprite at its position (the VDP1's zoom points; 0 is the centre too). */
#define JOM_ANCHOR_UPPER_LEFT 5
#define JOM_ANCHOR_UPPER_CENTER 6
#define JOM_ANCHOR_UPPER_RIGHT 7
#define JOM_ANCHOR_CENTER_LEFT 9
#define JOM_ANCHOR_CENTER 10
#define JOM_ANCHOR_CENTER_RIGHT 11
#define JOM_ANCHOR_LOWER_LEFT 13
#define JOM_ANCHOR_LOWER_CENTER 14          /* a tree's foot */
#define JOM_ANCHOR_LOWER_RIGHT 15
typedef struct jom_billboard {
    int32_t position[3];             /* world, Q16.16 */
    int32_t size[2];                 /* width, height: world units, Q16.16, above 0 */
    const jom_textures *textures;    /* the upload of the model whose texture it shows */
    uint16_t texture;                /* that model's TEXT index (jom_model_find_texture) */
    uint8_t anchor;                  /* JOM_ANCHOR_* */
    uint8_t flags;                   /* JOM_BILLBOARD_* */
    uint16_t gouraud;                /* RGB555 added to every texel (16 a channel: none);
                                        0: none */
    uint16_t reserved;
} jom_billboard;
/* Placed now (culled behind the near plane, past the far one, below a pixel or off
 * screen), sorted at the finish. Past the work space's billboard_count:
 * JOM_ERROR_BUFFER_TOO_SMALL. The textures stay uploaded until the list is drawn. */
jom_result jom_frame_draw_billboard(jom_frame *frame, const jom_billboard *billboard);

/* Levels of detail (LODS): a draw site's level, kept by the caller from frame to frame
 * (one per thing drawn, {0} to start); each draw moves it by the model's radius on screen
 * against each level's size, with an eighth of hysteresis each way. */
typedef struct jom_lod { uint8_t level; } jom_lod;   /* the level drawn last */
typedef struct jom_lod_level {
    const jom_model *model;          /* levels[0]: the model; levels[k]: its level k */
    const jom_textures *textures;    /* its upload */
} jom_lod_level;
/* `count` 1 to JOM_MAX_LEVELS (fewer than the file has: the last given drawn for the
 * rest); draws the level `lod` moves to as jom_frame_draw would. */
jom_result jom_frame_draw_lod(jom_frame *frame, const jom_lod_level *levels, uint32_t count,
                              jom_lod *lod, const jom_matrix *transform);
/* The same in `pose`: every level has the model's skeleton. */
jom_result jom_frame_draw_pose_lod(jom_frame *frame, const jom_lod_level *levels,
                                   uint32_t count, jom_lod *lod, const jom_matrix *transform,
                                   const jom_pose *pose);
/* Appends an end command. */
jom_result jom_list_end(jom_list *list);
/* Appends a skipped command that jumps to the table at VRAM byte address `next` (a
 * multiple of 32): the VDP1 goes on with the caller's own list. */
jom_result jom_list_jump(jom_list *list, uint32_t next);
/* Writes the tables to VRAM at `address` (a multiple of 32) and the gouraud tables at
 * `gouraud_vram` (JOM_ERROR_GOURAUD_VRAM as for a frame), through the vram's pointer. */
jom_result jom_list_write(const jom_list *list, jom_vram *vram, uint32_t address);

/* ---- Saturn helpers, for a program without a library of its own (examples/c/, linked
 * with our rt/crt0.S start-up, which they need). Jo Engine, libyaul and SGL programs use
 * their own and leave these out. ---- */

/* Masks interrupts; 320x224, the VDP1 sprite layer over an RGB555 back screen. */
jom_result jom_saturn_init_display(uint16_t background);
jom_result jom_saturn_wait_vblank(void);
/* Reads file `name` of the CD's root into `buffer`, its size into `*size`. */
jom_result jom_cd_load_file(const char *name, void *buffer, uint32_t capacity, uint32_t *size);
/* `text` into backup RAM after the marker "JOMT" (what the CI reads back). */
jom_result jom_saturn_report(const char *text);

#ifdef __cplusplus
}
#endif

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && defined(__SH2__)
_Static_assert(sizeof(jom_cmdt) == 32, "jom_cmdt is a VDP1 command table");
_Static_assert(sizeof(jom_pose) == 48 * (JOM_MAX_BONES + 1) + 4, "jom_pose");
_Static_assert(sizeof(jom_camera) == 36, "jom_camera");
_Static_assert(sizeof(jom_list) == 28, "jom_list");
_Static_assert(sizeof(jom_work) == 40, "jom_work");
_Static_assert(sizeof(jom_fog) == 12, "jom_fog");
_Static_assert(sizeof(jom_billboard) == 32, "jom_billboard");
_Static_assert(sizeof(jom_lod) == 1, "jom_lod");
_Static_assert(sizeof(jom_lod_level) == 8, "jom_lod_level");
_Static_assert(sizeof(jom_point) == 4, "jom_point");
_Static_assert(sizeof(jom_texture_source) == 16, "jom_texture_source");
#endif

#endif
