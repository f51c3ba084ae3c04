/* The jom engine from C (docs/c.md walks through this file): reads DEMO.JOM from the CD,
 * validates it in place, uploads its textures, and every frame poses it with the
 * animation player, draws three figures of it in a frame written into a command list of
 * our own (their polygons sorted together) and hands the list to the VDP1. Built with sh-elf-gcc -m2 -mb from jom.h, libjom.a and our start-up (rt/crt0.S,
 * rt/mem.c, link.x): see the Makefile. -DFIXED_FRAME draws the demo's fixed frame (the
 * scene of demo/src/scene.rs: the CI compares Yabause's picture of it with the software
 * VDP1's), and reports through backup RAM. -DBILLBOARDS adds the demo's billboards among
 * the figures and its fog (demo/src/billboards.rs). */
#include "jom.h"

/* The back screen (RGB555): the demo's dark blue. */
#define BACKGROUND (0x8000 | 10 << 10 | 4 << 5 | 2)
#define ONE 0x10000

/* The largest model drawn, the figures of a frame, and the list: a table a polygon of the
 * frame (the farthest left out past it), the head, the end. */
#define MAX_POINTS 2048
#define MAX_POLYGONS 2048
#define FIGURES 3
#define COMMANDS (4096 + 32)
#define FRAME_GOURAUD 2048

/* VDP1 VRAM, shared out by this program: its command list first (where the VDP1 starts),
 * the frame's gouraud tables, the model's, then textures. */
#define VRAM_COMMANDS 0x00000
#define VRAM_FRAME_GOURAUD (COMMANDS * 32)
#define VRAM_MODEL_GOURAUD (VRAM_FRAME_GOURAUD + FRAME_GOURAUD * 8)
#define VRAM_TEXTURES (VRAM_MODEL_GOURAUD + 0x4000)

/* The model's file, kept in low work RAM and used in place (not cleared at start: the CD
 * read fills it). */
static uint8_t model_file[256 * 1024] __attribute__((section(".lwram.model"), aligned(4)));

static jom_model model;
static jom_vram vram;
static jom_textures textures;
static jom_player players[FIGURES];
static jom_pose pose;
static uint16_t gouraud_per_polygon[MAX_POLYGONS];
static jom_cmdt tables[COMMANDS];
static jom_gouraud_table frame_gouraud[FRAME_GOURAUD];
/* The frame's work space: the points and polygons of its figures, a slot a figure. */
static jom_frame frame_state;
static jom_draw_slot slots[FIGURES];
static jom_view_point points[FIGURES * MAX_POINTS];
static jom_point screens[FIGURES * MAX_POINTS];
static uint32_t keys[2 * FIGURES * MAX_POLYGONS];

/* What failed: the back screen turns red, its green level telling the step and its blue
 * level the error code (as the demo's does), and the step and code go to backup RAM. */
static void fail(int step, jom_result code) {
    char text[] = "c-example: step 0 failed with code 00\n0 passed, 1 failed";
    text[sizeof "c-example: step " - 1] = (char)('0' + step % 10);
    text[sizeof "c-example: step 0 failed with code " - 1] = (char)('0' + code / 10 % 10);
    text[sizeof "c-example: step 0 failed with code 0" - 1] = (char)('0' + code % 10);
    jom_saturn_report(text);
    jom_saturn_init_display((uint16_t)(0x8000 | (code & 31) << 10 | (step * 4) << 5 | 24));
    for (;;) {
    }
}

/* The demo's scene (demo/src/scene.rs, the fixed yaw 0): the camera 4.5 radii in front
 * of the bounding sphere's centre, a third of a radius up, looking slightly down; three
 * figures of the model standing apart. */
#define FARTHEST_POINT ((int64_t)32000 << 16)

static void place_camera(const jom_model_info *info, jom_camera *camera) {
    int64_t radius = info->radius;
    int64_t room = FARTHEST_POINT - 9 * radius / 4;
    int64_t distance = 9 * radius / 2 < room ? 9 * radius / 2 : room;
    if (distance < 0) distance = 0;
    int64_t far = distance + 9 * radius / 4;
    if (far > FARTHEST_POINT) far = FARTHEST_POINT;
    jom_camera_init(camera);
    camera->position[0] = info->center[0];
    camera->position[1] = info->center[1] - (int32_t)(radius / 3);
    camera->position[2] = info->center[2] - (int32_t)distance;
    camera->rotation[0] = -0x0300;
    camera->near_z = ONE / 8;
    if (far > camera->far_z) camera->far_z = (int32_t)far;
}

/* A figure: where it stands (sixteenths of the radius from the centre, X and Z), its turn
 * around the vertical, its animation (-1: drawn rigid). The frame sorts the polygons of
 * all three together, whatever order they are drawn in. */
struct figure { int32_t offset[2]; int16_t yaw; int animation; };
static const struct figure figures[FIGURES] = {
    {{14, 20}, 0x2000, -1},
    {{0, 0}, 0, 0},
    {{-12, -14}, -0x1800, 1},
};

/* Turned by the figure's yaw around the model's centre, then moved by its offset. */
static void place_figure(const jom_model_info *info, const struct figure *figure,
                         jom_matrix *place) {
    int32_t origin[3] = {0, 0, 0};
    int16_t turn[3] = {0, figure->yaw, 0};
    const int32_t *c = info->center;
    int32_t at[3] = {c[0] + (int32_t)(((int64_t)info->radius * figure->offset[0]) >> 4), c[1],
                     c[2] + (int32_t)(((int64_t)info->radius * figure->offset[1]) >> 4)};
    jom_matrix_place(place, origin, turn);
    for (int r = 0; r < 3; r++) {
        int64_t turned = 0;
        for (int k = 0; k < 3; k++) turned += (int64_t)place->m[r][k] * c[k];
        place->m[r][3] = at[r] - (int32_t)(turned >> 16);
    }
}

#ifdef BILLBOARDS
/* The demo's billboards (demo/src/billboards.rs): sprites of the model's first texture
 * standing among the figures (sixteenths of the radius from the centre, X and Z), plain,
 * half transparent, tinted and meshed; the frame's room for them in the work space. */
#define BILLBOARD_ROOM 8
static jom_placed_billboard placed[BILLBOARD_ROOM];
static uint32_t billboard_keys[2 * BILLBOARD_ROOM];
struct board { int32_t offset[2]; uint8_t flags; uint16_t gouraud; };
static const struct board boards[] = {
    {{-30, -26}, 0, 0},
    {{-4, -30}, JOM_BILLBOARD_HALF_TRANSPARENT, 0},
    {{22, -20}, 0, 0x8000 | 12 << 10 | 16 << 5 | 24},
    {{-20, 12}, JOM_BILLBOARD_MESH, 0},
    {{8, 10}, 0, 0},
    {{30, 40}, 0, 0},
};

static int32_t sixteenths(const jom_model_info *info, int32_t count) {
    return (int32_t)(((int64_t)info->radius * count) >> 4);
}

/* The fog (from just before the nearest figure to past the farthest, towards the back
 * screen's blue) and the billboards, 10 x 14 sixteenths of the radius standing on their
 * foot, into the frame under way. */
static jom_result draw_billboards(const jom_model_info *info, const jom_camera *camera) {
    const int32_t *c = info->center;
    int32_t distance = c[2] - camera->position[2];
    if (distance < info->radius) distance = info->radius;
    jom_fog fog = {0x8000 | 14 << 10 | 8 << 5 | 6, 0, distance - info->radius,
                   distance + 3 * info->radius};
    jom_result code = jom_frame_set_fog(&frame_state, &fog);
    for (unsigned i = 0; i < sizeof boards / sizeof boards[0] && !code; i++) {
        jom_billboard board = {
            {c[0] + sixteenths(info, boards[i].offset[0]), c[1] + sixteenths(info, 8),
             c[2] + sixteenths(info, boards[i].offset[1])},
            {sixteenths(info, 10), sixteenths(info, 14)},
            &textures, 0, JOM_ANCHOR_LOWER_CENTER, boards[i].flags, boards[i].gouraud, 0};
        code = jom_frame_draw_billboard(&frame_state, &board);
    }
    return code;
}
#endif

#ifdef FIXED_FRAME
static void report(uint32_t drawn) {
    char text[] = "c-example: fixed frame drawn, 0000 polygons\n1 passed, 0 failed";
    char *digits = text + sizeof "c-example: fixed frame drawn, " - 1;
    for (int i = 3; i >= 0; i--) digits[i] = (char)('0' + drawn % 10), drawn /= 10;
    jom_saturn_report(text);
}
#endif

int main(void) {
    jom_model_info info;
    jom_camera camera;
    jom_matrix place;
    jom_draw_stats stats;
    uint32_t size;
    /* The demo's light: from the upper left front. */
    jom_light light = {{ONE / 2, ONE / 2, ONE * 7 / 10}, ONE / 3};
    int frame = 0;

    jom_saturn_init_display(BACKGROUND);
    jom_result code;
    if ((code = jom_cd_load_file("DEMO.JOM", model_file, sizeof model_file, &size))) fail(1, code);
    if ((code = jom_model_load(&model, model_file, size))) fail(2, code);
    jom_model_get_info(&model, &info);
    if (info.points > MAX_POINTS || info.polygons > MAX_POLYGONS) fail(3, JOM_ERROR_ARGUMENT);
    if ((code = jom_vram_init(&vram, JOM_VDP1_VRAM, VRAM_TEXTURES, JOM_VDP1_VRAM_BYTES,
                              VRAM_MODEL_GOURAUD, VRAM_TEXTURES)))
        fail(4, code);
    /* DEMO.JOM embeds its textures: no callback for texture files. */
    if ((code = jom_textures_upload(&vram, &model, &textures, gouraud_per_polygon, MAX_POLYGONS,
                                    0, 0)))
        fail(5, code);
    for (int f = 0; f < FIGURES; f++) {
        jom_player_init(&players[f], &model);
        if (figures[f].animation >= 0 && info.animations > 0)
            jom_player_play(&players[f], (uint32_t)figures[f].animation % info.animations);
    }
    place_camera(&info, &camera);

    jom_list list = {tables, COMMANDS, 0, frame_gouraud, FRAME_GOURAUD, 0, VRAM_FRAME_GOURAUD};
#ifdef BILLBOARDS
    jom_work work = {points, screens, FIGURES * MAX_POINTS, keys, 2 * FIGURES * MAX_POLYGONS,
                     slots, FIGURES, placed, billboard_keys, BILLBOARD_ROOM};
#else
    /* No billboards: their arrays NULL, 0. */
    jom_work work = {points, screens, FIGURES * MAX_POINTS, keys, 2 * FIGURES * MAX_POLYGONS,
                     slots, FIGURES, 0, 0, 0};
#endif
    if ((code = jom_frame_init(&frame_state, &work))) fail(6, code);
    for (;;) {
        jom_list_begin(&list, 320, 224);
        if ((code = jom_frame_begin(&frame_state, &camera, &light))) fail(6, code);
        for (int f = 0; f < FIGURES; f++) {
            place_figure(&info, &figures[f], &place);
            if (figures[f].animation < 0 || info.animations == 0) {
                code = jom_frame_draw(&frame_state, &model, &textures, &place);
            } else {
#ifdef FIXED_FRAME
                jom_player_seek(&players[f], (uint64_t)6 << 16);   /* the demo's FIXED_TICKS */
#endif
                jom_player_get_pose(&players[f], &pose);
                code = jom_frame_draw_pose(&frame_state, &model, &textures, &place, &pose);
            }
            if (code) fail(6, code);
        }
#ifdef BILLBOARDS
        if ((code = draw_billboards(&info, &camera))) fail(9, code);
#endif
        if ((code = jom_frame_finish(&frame_state, &list, &stats))) fail(6, code);
        jom_list_end(&list);
        if ((code = jom_saturn_wait_vblank())) fail(7, code);
        if ((code = jom_list_write(&list, &vram, VRAM_COMMANDS))) fail(8, code);
#ifdef FIXED_FRAME
        if (++frame == 10) report(stats.drawn);
#else
        for (int f = 0; f < FIGURES; f++) jom_player_advance(&players[f], 1);
        (void)frame;
#endif
    }
}
